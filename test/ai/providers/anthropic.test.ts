import { describe, expect, it, vi } from "vitest";
import { buildAnthropicRequest, streamAnthropic } from "../../../src/ai/providers/anthropic.js";
import { streamSimple } from "../../../src/ai/stream.js";
import type { AssistantMessage, AssistantMessageEvent, Context, Model, SimpleStreamOptions, Tool } from "../../../src/ai/types.js";
import { emptyUsage } from "../../../src/ai/usage.js";
import { block, collectEvents, eventShape } from "../../helpers/assistant-events.js";
import { withEnv } from "../../helpers/env.js";
import { hello as helloWith, price, providerModel, sseFixture } from "../../helpers/provider-test.js";
import { scriptedServerPerTest } from "../../helpers/scripted-server-per-test.js";
import { byteChunks, type ScriptedServer } from "../../helpers/sse-server.js";

const fixture = (name: string) => sseFixture("anthropic", name);

function model(baseUrl: string, overrides: Partial<Model> = {}): Model {
	const sonnet = { id: "claude-sonnet-4-5", api: "anthropic-messages", provider: "anthropic", reasoning: true } as const;
	return providerModel({ ...sonnet, baseUrl, cost: price(3, 15, 0.3, 3.75), contextWindow: 200_000, maxTokens: 64_000, ...overrides });
}

const hello = helloWith("Be brief.");

async function collect(
	server: ScriptedServer,
	opts: SimpleStreamOptions = {},
	context: Context = hello,
	m: Model = model(server.url),
): Promise<{ events: AssistantMessageEvent[]; message: AssistantMessage }> {
	return collectEvents(streamAnthropic(m, context, { apiKey: "sk-test", maxRetries: 0, ...opts }));
}

function withoutTimestamp(message: AssistantMessage): Omit<AssistantMessage, "timestamp"> {
	const { timestamp: _ignored, ...rest } = message;
	return rest;
}

const server = scriptedServerPerTest();

describe("streamAnthropic events", () => {
	it("streams text with usage, cost and the response id", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		const { events, message } = await collect(server);
		// The fixture is one write, so one read: its deltas of a block arrive merged into one event.
		expect(eventShape(events)).toEqual(["start", "text_start@0", "text_delta@0", "text_end@0", "done"]);
		expect(events.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta)).toEqual(["héllo 👋 世界"]);
		expect(events[3]).toMatchObject({ type: "text_end", content: "héllo 👋 世界" });
		expect(message.content).toEqual([{ type: "text", text: "héllo 👋 世界" }]);
		expect(message.stopReason).toBe("stop");
		expect(message.responseId).toBe("msg_01TextReply");
		expect(message.responseModel).toBe("claude-sonnet-4-5-20250929");
		expect(message.usage).toMatchObject({ input: 1200, output: 42, cacheRead: 30000, cacheWrite: 2000, totalTokens: 33242 });
		// $3/M input, $15/M output, $0.30/M cache read, $3.75/M cache write.
		expect(message.usage.cost.input).toBeCloseTo(0.0036, 10);
		expect(message.usage.cost.output).toBeCloseTo(0.00063, 10);
		expect(message.usage.cost.cacheRead).toBeCloseTo(0.009, 10);
		expect(message.usage.cost.cacheWrite).toBeCloseTo(0.0075, 10);
		expect(message.usage.cost.total).toBeCloseTo(0.02073, 10);
	});

	it("streams thinking and keeps its signature", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("thinking")] });
		const { events, message } = await collect(server);
		expect(eventShape(events)).toEqual(["start", ...block("thinking", 0, 1), ...block("text", 1, 1), "done"]);
		expect(events[3]).toMatchObject({ type: "thinking_end", content: "The user wants a greeting." });
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "The user wants a greeting.", thinkingSignature: "EqQBCkYIBRgCIkB3c2lnbmF0dXJl" },
			{ type: "text", text: "Hi there!" },
		]);
	});

	it("keeps a redacted thinking block as an opaque payload", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("redacted-thinking")] });
		const { events, message } = await collect(server);
		expect(eventShape(events)).toEqual(["start", ...block("thinking", 0, 0), ...block("text", 1, 1), "done"]);
		expect(message.content[0]).toEqual({
			type: "thinking",
			thinking: "",
			thinkingSignature: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIw",
			redacted: true,
		});
	});

	it("streams two tool calls whose arguments arrive in pieces", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("tool-calls")] });
		const stream = streamAnthropic(model(server.url), hello, { apiKey: "k", maxRetries: 0 });
		const events: AssistantMessageEvent[] = [];
		const partialArgs: unknown[] = [];
		const partialBlocks: number[] = [];
		for await (const event of stream) {
			events.push(event);
			if (event.type === "toolcall_delta") {
				const block = event.partial.content[event.contentIndex];
				partialArgs.push(structuredClone(block.type === "toolCall" ? block.arguments : undefined));
				partialBlocks.push(event.partial.content.length);
			}
		}
		// One read: each call's argument deltas arrive merged, and each merged delta finds the partial as
		// it was at that delta (the second call not yet there), though the provider read the whole reply.
		expect(eventShape(events)).toEqual(["start", ...block("text", 0, 1), ...block("toolcall", 1, 1), ...block("toolcall", 2, 1), "done"]);
		expect(partialArgs).toEqual([{ path: "src/a.ts", limit: 20 }, { path: "src/b.ts" }]);
		expect(partialBlocks).toEqual([2, 3]);
		expect(events[6]).toMatchObject({
			type: "toolcall_end",
			toolCall: { type: "toolCall", id: "toolu_01A", name: "read", arguments: { path: "src/a.ts", limit: 20 } },
		});
		const message = await stream.result();
		expect(message.stopReason).toBe("toolUse");
		expect(message.content.slice(1)).toEqual([
			{ type: "toolCall", id: "toolu_01A", name: "read", arguments: { path: "src/a.ts", limit: 20 } },
			{ type: "toolCall", id: "toolu_01B", name: "read", arguments: { path: "src/b.ts" } },
		]);
		expect(message.usage.output).toBe(77);
	});

	it("maps max_tokens to length", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("max-tokens")] });
		const { events, message } = await collect(server);
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "length" });
		expect(message.stopReason).toBe("length");
	});

	it.each(["text", "thinking", "redacted-thinking", "tool-calls"])(
		"gives the same events for %s when the body arrives in chunks of 1..7 bytes",
		async (name) => {
			server.enqueue({ kind: "sse", chunks: [fixture(name)] });
			const whole = await collect(server);
			for (let size = 1; size <= 7; size++) {
				server.enqueue({ kind: "sse", chunks: byteChunks(fixture(name), size) });
				const split = await collect(server);
				expect(eventShape(split.events), `chunk size ${size}`).toEqual(eventShape(whole.events));
				const deltas = (r: typeof whole) => r.events.map((e) => ("delta" in e ? e.delta : ""));
				expect(deltas(split), `chunk size ${size}`).toEqual(deltas(whole));
				expect(withoutTimestamp(split.message), `chunk size ${size}`).toEqual(withoutTimestamp(whole.message));
			}
		},
	);

	it("turns an in-stream error event into an error that keeps the partial text", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("overloaded")] });
		const { events, message } = await collect(server);
		expect(eventShape(events)).toEqual(["start", "text_start@0", "text_delta@0", "error"]);
		expect(events.at(-1)).toMatchObject({ type: "error", reason: "error" });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("Anthropic error (overloaded_error): Overloaded");
		expect(message.content).toEqual([{ type: "text", text: "Let me" }]);
	});

	it("a refusal shows the API's explanation and category as the reply's error, keeping the partial text", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("refusal")] });
		const { events, message } = await collect(server);
		expect(eventShape(events)).toEqual(["start", ...block("text", 0, 1), "error"]);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(
			"Anthropic declined to answer (cyber): This request could enable malware development, so Claude stopped answering.",
		);
		expect(message.content).toEqual([{ type: "text", text: "Here is how the" }]);
	});

	it("names the key's env var when the key is rejected", async () => {
		server.enqueue({
			kind: "status",
			status: 401,
			body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
		});
		const { events, message } = await collect(server);
		expect(eventShape(events)).toEqual(["start", "error"]);
		expect(message.errorMessage).toBe(
			"Anthropic rejected the API key (HTTP 401): invalid x-api-key. Check ANTHROPIC_API_KEY or pass --api-key.",
		);
	});

	it("reports a body that ends before message_delta as an error", async () => {
		const text = fixture("text");
		server.enqueue({ kind: "sse", chunks: [text.slice(0, text.indexOf("event: message_delta"))] });
		const { message } = await collect(server);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("Anthropic: stream ended before the message was complete");
	});

	it("ends with aborted and drops the connection when aborted mid-stream", async () => {
		const text = fixture("text");
		// Everything up to the first delta, then the server stalls with the socket open.
		server.enqueue({ kind: "sse", chunks: [text.slice(0, text.indexOf("event: content_block_stop"))], stallAfter: true });
		const controller = new AbortController();
		const stream = streamAnthropic(model(server.url), hello, { apiKey: "k", signal: controller.signal, maxRetries: 0 });
		const events: AssistantMessageEvent[] = [];
		for await (const event of stream) {
			events.push(event);
			if (event.type === "text_delta") controller.abort();
		}
		expect(eventShape(events)).toEqual(["start", "text_start@0", "text_delta@0", "error"]);
		const message = await stream.result();
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBe("Request was aborted");
		expect(message.content).toEqual([{ type: "text", text: "héllo 👋 世界" }]);
		// The request's socket closes at once; Node's fetch also opens a spare idle connection on abort and
		// drops it about 3 s later, hence the generous wait.
		await vi.waitFor(() => expect(server.openSockets()).toBe(0), { timeout: 10_000, interval: 20 });
	});
});

describe("streamAnthropic transport options", () => {
	it("is what streamSimple loads for anthropic-messages", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		const message = await streamSimple(model(server.url), hello, { apiKey: "k", maxRetries: 0 }).result();
		expect(message.content).toEqual([{ type: "text", text: "héllo 👋 世界" }]);
		expect(server.requests[0].url).toBe("/v1/messages");
	});

	it("retries an overloaded 529 before the first byte and reports each response", async () => {
		server.enqueue(
			{
				kind: "status",
				status: 529,
				body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
				headers: { "retry-after-ms": "10" },
			},
			{ kind: "sse", chunks: [fixture("text")] },
		);
		const statuses: number[] = [];
		const { message } = await collect(server, { maxRetries: 1, onResponse: (r) => statuses.push(r.status) });
		expect(message.stopReason).toBe("stop");
		expect(statuses).toEqual([529, 200]);
		expect(server.requests).toHaveLength(2);
	});

	it("ends a stalled stream after timeoutMs with an error", async () => {
		const text = fixture("text");
		server.enqueue({ kind: "sse", chunks: [text.slice(0, text.indexOf("event: content_block_stop"))], stallAfter: true });
		const { events, message } = await collect(server, { timeoutMs: 300 });
		expect(events.at(-1)).toMatchObject({ type: "error", reason: "error" });
		expect(message.errorMessage).toMatch(/^Anthropic: stream stalled \(no data for /);
		expect(message.content).toEqual([{ type: "text", text: "héllo 👋 世界" }]);
	});

	it("reads the key from ANTHROPIC_API_KEY when none is passed", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		await withEnv("ANTHROPIC_API_KEY", "sk-from-env", () => collect(server, { apiKey: undefined }));
		expect(server.requests[0].headers["x-api-key"]).toBe("sk-from-env");
		// No tools in the context, so no beta header.
		expect(server.requests[0].headers["anthropic-beta"]).toBeUndefined();
	});
});

describe("Anthropic request", () => {
	const readTool: Tool = {
		name: "read",
		description: "Read a file",
		parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
	};
	const png = "iVBORw0KGgo=";
	const conversation: Context = {
		systemPrompt: "You are Rudder.",
		tools: [readTool],
		messages: [
			{
				role: "user",
				content: [
					{ type: "text", text: "What is in these?" },
					{ type: "image", data: png, mimeType: "image/png" },
				],
				timestamp: 1,
			},
			{
				role: "assistant",
				api: "anthropic-messages",
				provider: "anthropic",
				model: "claude-sonnet-4-5",
				content: [
					{ type: "thinking", thinking: "Look at both.", thinkingSignature: "sig-1" },
					{ type: "thinking", thinking: "", thinkingSignature: "opaque", redacted: true },
					{ type: "text", text: "Reading." },
					{ type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a.ts" } },
					{ type: "toolCall", id: "call_2|fc_2", name: "read", arguments: { path: "b.png" } },
				],
				usage: emptyUsage(),
				stopReason: "toolUse",
				timestamp: 2,
			},
			{
				role: "toolResult",
				toolCallId: "toolu_1",
				toolName: "read",
				content: [{ type: "text", text: "export {}" }],
				isError: false,
				timestamp: 3,
			},
			{
				role: "toolResult",
				toolCallId: "call_2|fc_2",
				toolName: "read",
				content: [
					{ type: "text", text: "an image" },
					{ type: "image", data: png, mimeType: "image/png" },
				],
				isError: true,
				timestamp: 4,
			},
		],
	};

	it("sends the system prompt, messages, tools, thinking, cache marks and headers", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		const { message } = await collect(
			server,
			{ apiKey: "sk-ant-test", reasoning: "medium", temperature: 0.5, maxTokens: 4096, headers: { "x-extra": "1" } },
			conversation,
			model(server.url, { headers: { "x-model-header": "m" } }),
		);
		expect(message.stopReason).toBe("stop");
		expect(server.requests).toHaveLength(1);
		const request = server.requests[0];
		expect(request.method).toBe("POST");
		expect(request.url).toBe("/v1/messages");
		expect(request.headers["x-api-key"]).toBe("sk-ant-test");
		expect(request.headers["anthropic-version"]).toBe("2023-06-01");
		expect(request.headers["anthropic-beta"]).toBe("fine-grained-tool-streaming-2025-05-14");
		expect(request.headers["x-model-header"]).toBe("m");
		expect(request.headers["x-extra"]).toBe("1");
		expect(request.body).toEqual({
			model: "claude-sonnet-4-5",
			// 4096 leaves no room after the 8192 budget, so the budget is added on top.
			max_tokens: 12288,
			stream: true,
			system: [{ type: "text", text: "You are Rudder.", cache_control: { type: "ephemeral" } }],
			messages: [
				{
					role: "user",
					content: [
						{ type: "text", text: "What is in these?" },
						{ type: "image", source: { type: "base64", media_type: "image/png", data: png } },
					],
				},
				{
					role: "assistant",
					content: [
						{ type: "thinking", thinking: "Look at both.", signature: "sig-1" },
						{ type: "redacted_thinking", data: "opaque" },
						{ type: "text", text: "Reading." },
						{ type: "tool_use", id: "toolu_1", name: "read", input: { path: "a.ts" } },
						{ type: "tool_use", id: "call_2_fc_2", name: "read", input: { path: "b.png" } },
					],
				},
				{
					role: "user",
					content: [
						{ type: "tool_result", tool_use_id: "toolu_1", is_error: false, content: [{ type: "text", text: "export {}" }] },
						{
							type: "tool_result",
							tool_use_id: "call_2_fc_2",
							is_error: true,
							content: [
								{ type: "text", text: "an image" },
								{ type: "image", source: { type: "base64", media_type: "image/png", data: png } },
							],
							cache_control: { type: "ephemeral" },
						},
					],
				},
			],
			tools: [{ name: "read", description: "Read a file", input_schema: readTool.parameters }],
			thinking: { type: "enabled", budget_tokens: 8192 },
		});
	});

	it("sends temperature and no cache marks without thinking and with caching off", () => {
		const body = buildAnthropicRequest(model("http://x"), hello, { temperature: 0.2, cacheRetention: "none" });
		expect(body).toEqual({
			model: "claude-sonnet-4-5",
			max_tokens: 64_000,
			stream: true,
			system: [{ type: "text", text: "Be brief." }],
			messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
			temperature: 0.2,
		});
	});

	it("asks for a one-hour cache with long retention", () => {
		const body = buildAnthropicRequest(model("http://x"), hello, { cacheRetention: "long" });
		expect(body.system?.[0].cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
		expect(body.messages[0].content[0]).toMatchObject({ cache_control: { type: "ephemeral", ttl: "1h" } });
	});

	it("sizes thinking from the level, the caller's budgets, and the room max_tokens leaves", () => {
		const m = model("http://x", { maxTokens: 32_000 });
		expect(buildAnthropicRequest(m, hello, { reasoning: "minimal" }).thinking).toEqual({ type: "enabled", budget_tokens: 1024 });
		expect(buildAnthropicRequest(m, hello, { reasoning: "high" }).thinking).toEqual({ type: "enabled", budget_tokens: 16384 });
		expect(buildAnthropicRequest(m, hello, { reasoning: "xhigh" }).thinking).toEqual({ type: "enabled", budget_tokens: 16384 });
		expect(buildAnthropicRequest(m, hello, { reasoning: "low", thinkingBudgets: { low: 3000 } }).thinking).toEqual({
			type: "enabled",
			budget_tokens: 3000,
		});
		// The model's own cap leaves 8192 - 1024 for thinking.
		const small = buildAnthropicRequest(model("http://x", { maxTokens: 8192 }), hello, { reasoning: "high" });
		expect(small).toMatchObject({ max_tokens: 8192, thinking: { type: "enabled", budget_tokens: 7168 } });
		expect(buildAnthropicRequest(model("http://x", { reasoning: false }), hello, { reasoning: "high" }).thinking).toBeUndefined();
	});

	it("replays thinking from another provider as text and skips empty blocks", () => {
		const body = buildAnthropicRequest(model("http://x"), {
			messages: [
				{ role: "user", content: "", timestamp: 1 },
				{
					role: "assistant",
					api: "openai-responses",
					provider: "openai",
					model: "gpt-5",
					content: [
						{ type: "thinking", thinking: "Planning.", thinkingSignature: '{"id":"rs_1"}' },
						{ type: "text", text: "" },
						{ type: "text", text: "Done." },
					],
					usage: emptyUsage(),
					stopReason: "stop",
					timestamp: 2,
				},
				{ role: "user", content: "next", timestamp: 3 },
			],
		});
		expect(body.messages).toEqual([
			{
				role: "assistant",
				content: [
					{ type: "text", text: "Planning." },
					{ type: "text", text: "Done." },
				],
			},
			{ role: "user", content: [{ type: "text", text: "next", cache_control: { type: "ephemeral" } }] },
		]);
	});

	it("lets onPayload replace the body", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		let seen: unknown;
		await collect(server, {
			onPayload: (payload) => {
				seen = payload;
				return { ...(payload as object), metadata: { user_id: "u1" } };
			},
		});
		expect(seen).toMatchObject({ model: "claude-sonnet-4-5", stream: true });
		expect(server.requests[0].body.metadata).toEqual({ user_id: "u1" });
	});
});
