// streamProxy against a real 127.0.0.1 server speaking pi-agent-core's proxy protocol: POST
// <proxyUrl>/api/stream with a bearer token and {model, context, options}; SSE data lines carry the
// assistant events without `partial`, which the client rebuilds.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Agent, type ProxyAssistantMessageEvent, streamProxy } from "../../src/agent/index.js";
import { getModel } from "../../src/ai/models.js";
import type { Context } from "../../src/ai/types.js";
import { emptyUsage } from "../../src/ai/usage.js";
import { collectEvents, eventShape } from "../helpers/assistant-events.js";
import { byteChunks, type ScriptedServer, sse, startScriptedServer } from "../helpers/sse-server.js";

let server: ScriptedServer;
beforeEach(async () => {
	server = await startScriptedServer();
});
afterEach(async () => {
	await server.close();
});

const model = getModel("anthropic", "claude-sonnet-4-5");
const context: Context = { systemPrompt: "be brief", messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const usage = { ...emptyUsage(), input: 12, output: 7, totalTokens: 19 };

const reply: ProxyAssistantMessageEvent[] = [
	{ type: "start" },
	{ type: "thinking_start", contentIndex: 0 },
	{ type: "thinking_delta", contentIndex: 0, delta: "hmm" },
	{ type: "thinking_end", contentIndex: 0, contentSignature: "sig" },
	{ type: "text_start", contentIndex: 1 },
	{ type: "text_delta", contentIndex: 1, delta: "Héllo " },
	{ type: "text_delta", contentIndex: 1, delta: "wörld" },
	{ type: "text_end", contentIndex: 1 },
	{ type: "toolcall_start", contentIndex: 2, id: "call_1", toolName: "read" },
	{ type: "toolcall_delta", contentIndex: 2, delta: '{"path":' },
	{ type: "toolcall_delta", contentIndex: 2, delta: '"a.ts"}' },
	{ type: "toolcall_end", contentIndex: 2 },
	{ type: "done", reason: "toolUse", usage },
];

describe("streamProxy", () => {
	it("posts model, context and the serialisable options with the bearer token", async () => {
		server.enqueue({ kind: "sse", chunks: [sse([{ type: "start" }, { type: "done", reason: "stop", usage }])] });
		const { message } = await collectEvents(
			streamProxy(model, context, {
				proxyUrl: `${server.url}/`,
				authToken: "tok-123",
				temperature: 0.2,
				sessionId: "s1",
				reasoning: "high",
			}),
		);
		expect(message.stopReason).toBe("stop");
		const req = server.requests[0];
		expect(req.method).toBe("POST");
		expect(req.url).toBe("/api/stream");
		expect(req.headers.authorization).toBe("Bearer tok-123");
		expect(req.body).toEqual({ model, context, options: { temperature: 0.2, sessionId: "s1", reasoning: "high" } });
	});

	it("rebuilds the partial message from events without partial, also from bytes split anywhere", async () => {
		server.enqueue({ kind: "sse", chunks: byteChunks(sse(reply), 7) });
		const { events, message } = await collectEvents(streamProxy(model, context, { proxyUrl: server.url, authToken: "t" }));
		expect(eventShape(events)).toEqual(reply.map((e) => ("contentIndex" in e ? `${e.type}@${e.contentIndex}` : e.type)));
		for (const e of events) if ("partial" in e) expect(e.partial).toBe(message);
		expect(message).toMatchObject({
			role: "assistant",
			api: model.api,
			provider: model.provider,
			model: model.id,
			stopReason: "toolUse",
			usage,
			content: [
				{ type: "thinking", thinking: "hmm", thinkingSignature: "sig" },
				{ type: "text", text: "Héllo wörld" },
				{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.ts" } },
			],
		});
		const end = events.find((e) => e.type === "toolcall_end");
		expect(end?.type === "toolcall_end" && end.toolCall.arguments).toEqual({ path: "a.ts" });
	});

	it("passes a server-reported error through with its message and usage", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [sse([{ type: "start" }, { type: "error", reason: "error", errorMessage: "overloaded", usage }])],
		});
		const { events, message } = await collectEvents(streamProxy(model, context, { proxyUrl: server.url, authToken: "t" }));
		expect(events.at(-1)?.type).toBe("error");
		expect(message).toMatchObject({ stopReason: "error", errorMessage: "overloaded", usage });
	});

	it("turns an HTTP error into one error event with the server's message, without a retry", async () => {
		server.enqueue({ kind: "status", status: 502, body: JSON.stringify({ error: "upstream down" }) });
		const { events, message } = await collectEvents(streamProxy(model, context, { proxyUrl: server.url, authToken: "t" }));
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("upstream down");
		expect(server.requests).toHaveLength(1);
	});

	it("rejects an event for a block that does not exist instead of inventing one", async () => {
		server.enqueue({ kind: "sse", chunks: [sse([{ type: "start" }, { type: "text_delta", contentIndex: 3, delta: "x" }])] });
		const { message } = await collectEvents(streamProxy(model, context, { proxyUrl: server.url, authToken: "t" }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("content index 3");
	});

	it("ends with an error when the body stops before done", async () => {
		server.enqueue({ kind: "sse", chunks: [sse([{ type: "start" }, { type: "text_start", contentIndex: 0 }])] });
		const { message } = await collectEvents(streamProxy(model, context, { proxyUrl: server.url, authToken: "t" }));
		expect(message).toMatchObject({ stopReason: "error", errorMessage: "Proxy: stream ended without done or error" });
	});

	it("ends aborted when the signal aborts mid-stream, and closes the connection", async () => {
		server.enqueue({ kind: "sse", chunks: [sse(reply.slice(0, 6))], stallAfter: true });
		const controller = new AbortController();
		const stream = streamProxy(model, context, { proxyUrl: server.url, authToken: "t", signal: controller.signal });
		for await (const e of stream) if (e.type === "text_delta") controller.abort();
		const message = await stream.result();
		expect(message.stopReason).toBe("aborted");
		expect(message.content[1]).toEqual({ type: "text", text: "Héllo " });
		await vi.waitFor(() => expect(server.openSockets()).toBe(0), { timeout: 10_000, interval: 20 });
	});

	it("works as an Agent's streamFn", async () => {
		server.enqueue({
			kind: "sse",
			chunks: [
				sse([
					{ type: "start" },
					{ type: "text_start", contentIndex: 0 },
					{ type: "text_delta", contentIndex: 0, delta: "via proxy" },
					{ type: "text_end", contentIndex: 0 },
					{ type: "done", reason: "stop", usage },
				]),
			],
		});
		const agent = new Agent({
			initialState: { model },
			streamFn: (m, ctx, options) => streamProxy(m, ctx, { ...options, proxyUrl: server.url, authToken: "t" }),
		});
		await agent.prompt("hello");
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "via proxy" }] });
	});
});
