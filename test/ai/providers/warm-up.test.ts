import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { BUILTIN_MODELS } from "../../../src/ai/models.js";
import { post } from "../../../src/ai/providers/http-post.js";
import { cannedConnection, warmUpTransport } from "../../../src/ai/providers/warm-up.js";
import type { Model } from "../../../src/ai/types.js";

const model = BUILTIN_MODELS[0] as Model;

describe("warmUpTransport", () => {
	it("streams the canned reply through the real HTTP client and SSE path, in memory", async () => {
		expect(await warmUpTransport(model)).toBe("warm up done");
	});

	it("a request given a connection never dials the URL's server", async () => {
		let connections = 0;
		const server = createServer((socket) => {
			connections++;
			socket.destroy();
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		const { port } = server.address() as { port: number };
		try {
			const signal = new AbortController().signal;
			const response = await post(`http://127.0.0.1:${port}/x`, {}, "{}", signal, undefined, cannedConnection(["data: {}\n\n"]));
			expect(response.status).toBe(200);
			expect(await response.text()).toBe("data: {}\n\n");
			expect(connections).toBe(0);
		} finally {
			server.close();
		}
	});
});
