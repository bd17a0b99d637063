// A failed turn never leaks into the next request: after an HTTP 500 the next prompt reaches the server
// alone, as the screen shows it, while the failed prompt stays in the transcript with its error (the UI
// marks it failed). The built CLI in rpc mode against a 127.0.0.1 server: 500s, then 200s.
import { describe, expect, it } from "vitest";
import { textBody } from "../helpers/openai-chunks.js";
import { cliPerTest } from "../helpers/rudder-cli.js";

const cli = cliPerTest();
const failure = {
	kind: "status" as const,
	status: 500,
	body: '{"error":{"message":"upstream exploded"}}',
	headers: { "retry-after-ms": "0" },
};

/** The chat messages of a request, as `role: text` (system prompt left out). */
const turns = (body: any): string[] =>
	body.messages
		.filter((m: any) => m.role !== "system" && m.role !== "developer")
		.map((m: any) => `${m.role}: ${typeof m.content === "string" ? m.content : m.content.map((c: any) => c.text ?? "").join("")}`);

describe("a prompt whose request failed", () => {
	it("is not sent again in front of the next prompts, and stays in the transcript marked failed", { timeout: 90_000 }, async () => {
		const { server } = await cli.setUp();
		// Four answers: the first try and its three retries.
		server.enqueue(failure, failure, failure, failure);
		server.enqueue({ kind: "sse", chunks: [textBody("Here is the markdown.")] }, { kind: "sse", chunks: [textBody("Again.")] });
		const client = cli.rpc();
		const prompt = async (message: string) => {
			const from = client.lines.length;
			client.send({ type: "prompt", message });
			await client.waitFor((l) => l.type === "agent_end", { from, timeoutMs: 60_000 });
		};
		await prompt("err500 now");
		expect(server.requests).toHaveLength(4);
		await prompt("md please");
		await prompt("md again");
		expect(server.requests).toHaveLength(6);
		expect(turns(server.requests[4].body)).toEqual(["user: md please"]);
		expect(turns(server.requests[5].body)).toEqual(["user: md please", "assistant: Here is the markdown.", "user: md again"]);

		client.send({ id: "m", type: "get_messages" });
		const { data } = await client.waitFor((l) => l.type === "response" && l.id === "m");
		const failed = data.messages.slice(0, 2);
		expect(failed[0]).toMatchObject({ role: "user", content: [{ type: "text", text: "err500 now" }] });
		expect(failed[1]).toMatchObject({ role: "assistant", stopReason: "error" });
		expect(failed[1].errorMessage).toMatch(/HTTP 500 .*upstream exploded/);
	});
});
