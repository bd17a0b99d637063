import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { BUILTIN_MODELS } from "../../../src/ai/models.js";
import { post } from "../../../src/ai/providers/http-post.js";
import { cannedConnection, warmUpTransport } from "../../../src/ai/providers/warm-up.js";
import type { Model } from "../../../src/ai/types.js";

// A port nothing listens on: the warm-up's preconnect to the model's host is refused, silently.
const model = { ...(BUILTIN_MODELS[0] as Model), baseUrl: "http://127.0.0.1:9/v1" };

describe("warmUpTransport", () => {
	it("streams the canned reply through the real HTTP client and SSE path, in memory", async () => {
		expect(await warmUpTransport(model)).toBe("warm up done");
	});

	it("opens one connection to the model's own host ahead of the first request", async () => {
		let connections = 0;
		const server = createServer((socket) => {
			connections++;
			socket.on("error", () => {});
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		const { port } = server.address() as { port: number };
		try {
			expect(await warmUpTransport({ ...model, baseUrl: `http://127.0.0.1:${port}/v1` })).toBe("warm up done");
			while (connections === 0) await new Promise((resolve) => setTimeout(resolve, 5));
			expect(connections).toBe(1);
		} finally {
			server.close();
		}
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
