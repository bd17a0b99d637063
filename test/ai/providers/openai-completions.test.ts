import { describe, expect, it } from "vitest";
import { getModel, getModels } from "../../../src/ai/models.js";
import { streamOpenAICompletions } from "../../../src/ai/providers/openai-completions.js";
import { streamSimple } from "../../../src/ai/stream.js";
import type { AssistantMessageEvent, Context, Model, SimpleStreamOptions } from "../../../src/ai/types.js";
import { emptyUsage } from "../../../src/ai/usage.js";
import { block, collectEvents, eventShape, finalMessage } from "../../helpers/assistant-events.js";
import { withEnv } from "../../helpers/env.js";
import { hello as helloWith, price, providerModel, sseFixture } from "../../helpers/provider-test.js";
import { scriptedServerPerTest } from "../../helpers/scripted-server-per-test.js";
import { byteChunks, type ScriptedServer } from "../../helpers/sse-server.js";

const fixture = (name: string) => sseFixture("openai-completions", name);

function testModel(server: ScriptedServer, overrides: Partial<Model> = {}): Model {
	const model = { id: "gpt-4o", api: "openai-completions", provider: "openai" } as const;
	return providerModel({
		...model,
		baseUrl: `${server.url}/v1`,
		cost: price(2.5, 10, 1.25),
		contextWindow: 128_000,
		maxTokens: 16_384,
		...overrides,
	});
}

const hello = helloWith();

async function collect(model: Model, context: Context, options: SimpleStreamOptions = {}) {
	return (await collectEvents(streamOpenAICompletions(model, context, { apiKey: "sk-test", ...options }))).events;
}

const server = scriptedServerPerTest();

describe("streamOpenAICompletions: responses", () => {
	it("streams text with the exact event sequence, usage and cost", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		const events = await collect(testModel(server), hello);
		// The fixture is one write, so one read: its deltas of a block arrive merged into one event.
		expect(eventShape(events)).toEqual(["start", ...block("text", 0, 1), "done"]);
		const message = finalMessage(events);
		expect(message.content).toEqual([{ type: "text", text: "héllo 👋 世界" }]);
		expect(message.stopReason).toBe("stop");
		expect(message.responseId).toBe("chatcmpl-BxT7aQ2rPzK9mN4vL1cE8");
		expect(message.responseModel).toBe("gpt-4o-2024-08-06");
		// 1200 prompt tokens of which 1024 cached: input counts only the uncached 176.
		expect(message.usage).toMatchObject({ input: 176, output: 9, cacheRead: 1024, cacheWrite: 0, totalTokens: 1209 });
		expect(message.usage.cost.input).toBeCloseTo((176 * 2.5) / 1e6, 12);
		expect(message.usage.cost.output).toBeCloseTo((9 * 10) / 1e6, 12);
		expect(message.usage.cost.cacheRead).toBeCloseTo((1024 * 1.25) / 1e6, 12);
		expect(message.usage.cost.total).toBeCloseTo((176 * 2.5 + 90 + 1024 * 1.25) / 1e6, 12);
		const end = events.find((e) => e.type === "text_end");
		expect(end).toMatchObject({ content: "héllo 👋 世界" });
	});

	it("gives the same message for chunks split at every byte boundary, also inside UTF-8 characters", async () => {
		const text = fixture("text");
		for (let size = 1; size <= 7; size++) {
			server.enqueue({ kind: "sse", chunks: byteChunks(text, size) });
			const events = await collect(testModel(server), hello);
			const message = finalMessage(events);
			expect(message.content, `chunk size ${size}`).toEqual([{ type: "text", text: "héllo 👋 世界" }]);
			expect(message.usage.totalTokens).toBe(1209);
			expect(events.filter((e) => e.type === "done")).toHaveLength(1);
		}
	});

	it("reads reasoning_content as a thinking block before the text", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("thinking")] });
		const model = testModel(server, { id: "deepseek-reasoner", provider: "deepseek", reasoning: true });
		const events = await collect(model, hello);
		expect(eventShape(events)).toEqual(["start", ...block("thinking", 0, 1), ...block("text", 1, 1), "done"]);
		const message = finalMessage(events);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "The user greets me. Reply briefly." },
			{ type: "text", text: "Hi there!" },
		]);
		// Usage may ride on the chunk that carries finish_reason (DeepSeek does this).
		expect(message.usage).toMatchObject({ input: 15, output: 21, totalTokens: 36 });
	});

	it("reads `delta.reasoning` (Ollama, OpenRouter) as thinking", async () => {
		const chunk = (delta: object, finish: string | null = null) =>
			`data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "qwen3", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
		server.enqueue({
			kind: "sse",
			chunks: [
				chunk({ role: "assistant", content: "", reasoning: "Thinking" }),
				chunk({ content: "Done" }),
				chunk({}, "stop"),
				"data: [DONE]\n\n",
			],
		});
		const events = await collect(testModel(server, { id: "qwen3", provider: "ollama" }), hello);
		expect(finalMessage(events).content).toEqual([
			{ type: "thinking", thinking: "Thinking" },
			{ type: "text", text: "Done" },
		]);
	});

	it("reads Groq's usage from `x_groq.usage` on the last chunk", async () => {
		const chunk = (extra: object) =>
			`data: ${JSON.stringify({ id: "chatcmpl-g", object: "chat.completion.chunk", created: 1, model: "llama-3.3-70b-versatile", ...extra })}\n\n`;
		server.enqueue({
			kind: "sse",
			chunks: [
				chunk({ choices: [{ index: 0, delta: { role: "assistant", content: "Hi" }, finish_reason: null }], x_groq: { id: "req_1" } }),
				chunk({
					choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
					x_groq: {
						id: "req_1",
						usage: { queue_time: 0.01, prompt_tokens: 40, prompt_time: 0.002, completion_tokens: 2, total_tokens: 42 },
					},
				}),
				"data: [DONE]\n\n",
			],
		});
		const events = await collect(testModel(server, { id: "llama-3.3-70b-versatile", provider: "groq" }), hello);
		expect(finalMessage(events).usage).toMatchObject({ input: 40, output: 2, totalTokens: 42 });
	});

	it("assembles two parallel tool calls whose arguments are split across chunks", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("parallel-tool-calls")] });
		const events = await collect(testModel(server, { id: "gpt-4.1" }), hello);
		expect(eventShape(events)).toEqual([
			"start",
			"toolcall_start@0",
			"toolcall_delta@0",
			"toolcall_start@1",
			"toolcall_delta@1",
			"toolcall_end@0",
			"toolcall_end@1",
			"done",
		]);
		const message = finalMessage(events);
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{ type: "toolCall", id: "call_Qm3vX8aJ2LpN7rT1", name: "read", arguments: { path: "src/a.ts" } },
			{ type: "toolCall", id: "call_Zk9wB4cD6FhJ2mP5", name: "grep", arguments: { pattern: "TODO", limit: 5 } },
		]);
		const ends = events.filter((e) => e.type === "toolcall_end");
		expect(ends.map((e) => e.type === "toolcall_end" && e.toolCall.name)).toEqual(["read", "grep"]);
		expect(message.usage).toMatchObject({ input: 310, output: 48, cacheRead: 0 });
	});

	it("tool calls survive byte-level splitting too", async () => {
		const text = fixture("parallel-tool-calls");
		for (let size = 1; size <= 7; size++) {
			server.enqueue({ kind: "sse", chunks: byteChunks(text, size) });
			const message = finalMessage(await collect(testModel(server), hello));
			expect(message.content.map((c) => c.type === "toolCall" && c.arguments)).toEqual([
				{ path: "src/a.ts" },
				{ pattern: "TODO", limit: 5 },
			]);
		}
	});

	it("merges the deltas of one read into one event per block, and keeps reads apart", async () => {
		const chunk = (content: string) =>
			`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
		const finish = `data: ${JSON.stringify({ id: "c", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`;
		// Two writes more than a frame apart (the socket is read once per 50 ms frame): two reads.
		server.enqueue({ kind: "sse", chunks: [chunk("one ") + chunk("two "), chunk("three ") + chunk("four") + finish], delayMs: 200 });
		const events = await collect(testModel(server), hello);
		expect(eventShape(events)).toEqual(["start", ...block("text", 0, 2), "done"]);
		expect(events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []))).toEqual(["one two ", "three four"]);
		expect(finalMessage(events).content).toEqual([{ type: "text", text: "one two three four" }]);
	});

	it("tool calls without index or id (some compatible servers) still get a key and an id", async () => {
		const chunk = (delta: object, finish: string | null = null) =>
			`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
		server.enqueue({
			kind: "sse",
			chunks: [
				chunk({ tool_calls: [{ type: "function", function: { name: "ls", arguments: '{"pa' } }] }),
				chunk({ tool_calls: [{ function: { arguments: 'th":"."}' } }] }),
				chunk({}, "tool_calls"),
				"data: [DONE]\n\n",
			],
		});
		const events = await collect(testModel(server, { provider: "local" }), hello);
		expect(eventShape(events)).toEqual(["start", "toolcall_start@0", "toolcall_delta@0", "toolcall_end@0", "done"]);
		const [call] = finalMessage(events).content;
		expect(call).toMatchObject({ type: "toolCall", name: "ls", arguments: { path: "." } });
		expect((call as { id: string }).id).toMatch(/^call_[0-9a-f-]{36}$/);
	});

	it("maps finish_reason length to a length stop", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("length")] });
		const events = await collect(testModel(server), hello);
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "length" });
		expect(finalMessage(events).content).toEqual([{ type: "text", text: "Once upon a" }]);
	});

	it("maps finish_reason content_filter to an error that keeps the text", async () => {
		const chunk = (delta: object, finish: string | null = null) =>
			`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "gpt-4o", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
		server.enqueue({ kind: "sse", chunks: [chunk({ content: "Sure" }), chunk({}, "content_filter"), "data: [DONE]\n\n"] });
		const events = await collect(testModel(server), hello);
		expect(events.filter((e) => e.type === "done" || e.type === "error")).toHaveLength(1);
		const message = finalMessage(events);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("OpenAI: the reply was blocked by the content filter");
		expect(message.content).toEqual([{ type: "text", text: "Sure" }]);
	});

	it("turns an error object inside the stream into an error event", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("error-in-stream")] });
		const events = await collect(testModel(server), hello);
		expect(eventShape(events)).toEqual(["start", "text_start@0", "text_delta@0", "error"]);
		const message = finalMessage(events);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("OpenAI: The server had an error while processing your request. Sorry about that!");
		expect(message.content).toEqual([{ type: "text", text: "Partial" }]);
	});

	it("a body that ends without finish_reason or [DONE] is an error, not a silent stop", async () => {
		const chunk = `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "gpt-4o", choices: [{ index: 0, delta: { content: "Hal" }, finish_reason: null }] })}\n\n`;
		server.enqueue({ kind: "sse", chunks: [chunk] });
		const message = finalMessage(await collect(testModel(server), hello));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("OpenAI: the stream ended before the reply was complete");
	});
});

describe("streamOpenAICompletions: the connection", () => {
	it("keeps it for the next reply: the stream stops at [DONE], and the body's rest is read out instead of closing the socket", async () => {
		// The last write carries [DONE] and the end of the body together, as the server's final chunk does.
		server.enqueue({ kind: "sse", chunks: [fixture("text")] }, { kind: "sse", chunks: [fixture("text")] });
		for (let i = 0; i < 2; i++) {
			const message = finalMessage(await collect(testModel(server), hello));
			expect(message.content).toEqual([{ type: "text", text: "héllo 👋 世界" }]);
		}
		expect(server.requests).toHaveLength(2);
		expect(server.connections()).toBe(1);
	});

	it("closes it when the reply is cut off: a stream aborted mid-body does not go back to the pool", async () => {
		const chunks = [`${fixture("text").split("\n\n").slice(0, 2).join("\n\n")}\n\n`];
		server.enqueue({ kind: "sse", chunks, stallAfter: true }, { kind: "sse", chunks: [fixture("text")] });
		const controller = new AbortController();
		const first = streamOpenAICompletions(testModel(server), hello, { apiKey: "sk-test", signal: controller.signal });
		for await (const event of first) if (event.type === "text_delta") controller.abort();
		expect((await first.result()).stopReason).toBe("aborted");
		const message = finalMessage(await collect(testModel(server), hello));
		expect(message.stopReason).toBe("stop");
		expect(server.connections()).toBe(2);
	});
});

describe("streamOpenAICompletions: the request", () => {
	const png = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };
	const tools = [
		{
			name: "read",
			description: "Read a file",
			parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
		},
	];
	const context: Context = {
		systemPrompt: "You are Rudder.",
		tools,
		messages: [
			{ role: "user", content: [{ type: "text", text: "What is in this?" }, png], timestamp: 1 },
			{
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "Let me look." },
					{ type: "text", text: "Reading both." },
					{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.png" } },
					{ type: "toolCall", id: "call_2|fc_abc", name: "read", arguments: { path: "b.txt" } },
				],
				api: "openai-completions",
				provider: "openai",
				model: "gpt-4o",
				usage: emptyUsage(),
				stopReason: "toolUse",
				timestamp: 2,
			},
			{
				role: "toolResult",
				toolCallId: "call_1",
				toolName: "read",
				content: [{ type: "text", text: "A picture:" }, png],
				isError: false,
				timestamp: 3,
			},
			{
				role: "toolResult",
				toolCallId: "call_2|fc_abc",
				toolName: "read",
				content: [{ type: "text", text: "hello" }],
				isError: false,
				timestamp: 4,
			},
			{ role: "user", content: "Thanks", timestamp: 5 },
		],
	};

	it("sends messages, tool results, images, tools, the system prompt and the max tokens field", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		await collect(testModel(server), context, { maxTokens: 1000, temperature: 0.2 });
		expect(server.requests).toHaveLength(1);
		const request = server.requests[0];
		expect(request.method).toBe("POST");
		expect(request.url).toBe("/v1/chat/completions");
		expect(request.headers.authorization).toBe("Bearer sk-test");
		expect(request.headers["content-type"]).toBe("application/json");
		expect(request.body).toEqual({
			model: "gpt-4o",
			stream: true,
			stream_options: { include_usage: true },
			max_completion_tokens: 1000,
			temperature: 0.2,
			store: false,
			tools: [{ type: "function", function: tools[0] }],
			messages: [
				{ role: "system", content: "You are Rudder." },
				{
					role: "user",
					content: [
						{ type: "text", text: "What is in this?" },
						{ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
					],
				},
				{
					role: "assistant",
					content: "Reading both.",
					tool_calls: [
						{ id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.png"}' } },
						{ id: "call_2", type: "function", function: { name: "read", arguments: '{"path":"b.txt"}' } },
					],
				},
				{ role: "tool", tool_call_id: "call_1", content: "A picture:" },
				{ role: "tool", tool_call_id: "call_2", content: "hello" },
				// Images from tool results follow the whole run of tool messages as one user message.
				{
					role: "user",
					content: [
						{ type: "text", text: "Images from the tool results above:" },
						{ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
					],
				},
				{ role: "user", content: "Thanks" },
			],
		});
	});

	it("local servers: no auth header without a key, max_tokens, no store, model and caller headers", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		const model = testModel(server, { provider: "ollama", id: "llama3.2", headers: { "x-model": "m", "x-both": "model" } });
		const events: AssistantMessageEvent[] = [];
		for await (const e of streamOpenAICompletions(model, hello, { headers: { "x-both": "caller" }, maxTokens: 512 })) {
			events.push(e);
		}
		expect(finalMessage(events).stopReason).toBe("stop");
		const request = server.requests[0];
		expect(request.headers.authorization).toBeUndefined();
		expect(request.headers["x-model"]).toBe("m");
		expect(request.headers["x-both"]).toBe("caller");
		expect(request.body.max_tokens).toBe(512);
		expect(request.body).not.toHaveProperty("max_completion_tokens");
		expect(request.body).not.toHaveProperty("store");
	});

	it("honours compat: developer role, reasoning_effort, no usage option, replayed reasoning", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		const model = testModel(server, {
			id: "o4-mini",
			reasoning: true,
			compat: { supportsDeveloperRole: true, supportsUsageInStreaming: false, maxTokensField: "max_tokens", replayReasoning: true },
		});
		await collect(model, context, { reasoning: "xhigh", maxTokens: 2048 });
		const body = server.requests[0].body;
		expect(body.messages[0]).toEqual({ role: "developer", content: "You are Rudder." });
		expect(body.reasoning_effort).toBe("high");
		expect(body).not.toHaveProperty("stream_options");
		expect(body.max_tokens).toBe(2048);
		expect(body.messages[2].reasoning_content).toBe("Let me look.");
	});

	it("drops thinking by default and sends no reasoning_effort when the compat forbids it", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		const model = testModel(server, { reasoning: true, compat: { supportsReasoningEffort: false } });
		await collect(model, context, { reasoning: "low" });
		const body = server.requests[0].body;
		expect(body.messages[0].role).toBe("system");
		expect(body).not.toHaveProperty("reasoning_effort");
		expect(body.messages[2]).not.toHaveProperty("reasoning_content");
		// No explicit cap, no cap field: the server's default applies.
		expect(body).not.toHaveProperty("max_tokens");
		expect(body).not.toHaveProperty("max_completion_tokens");
	});

	it("onResponse sees the status and headers of each HTTP response", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")], headers: { "x-request-id": "req_123" } });
		const seen: { status: number; headers: Record<string, string> }[] = [];
		await collect(testModel(server), hello, { onResponse: (response) => seen.push(response) });
		expect(seen).toHaveLength(1);
		expect(seen[0].status).toBe(200);
		expect(seen[0].headers["x-request-id"]).toBe("req_123");
		expect(seen[0].headers["content-type"]).toBe("text/event-stream");
	});

	it("onPayload may replace the body", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		await collect(testModel(server), hello, {
			onPayload: (payload) => ({ ...(payload as object), seed: 7 }),
		});
		expect(server.requests[0].body.seed).toBe(7);
		expect(server.requests[0].body.messages).toEqual([{ role: "user", content: "hi" }]);
	});
});

describe("DeepSeek (the built-in preset over chat completions)", () => {
	const deepseek = (server: ScriptedServer): Model => ({ ...getModel("deepseek", "deepseek-reasoner"), baseUrl: server.url });
	const toolResult = (toolCallId: string): Context["messages"][number] => ({
		role: "toolResult",
		toolCallId,
		toolName: "get_date",
		content: [{ type: "text", text: "2026-12-04" }],
		isError: false,
		timestamp: 3,
	});

	it("is listed with DeepSeek's base URL and key variable", () => {
		const models = getModels("deepseek");
		expect(models.map((m) => m.id)).toEqual(["deepseek-chat", "deepseek-reasoner"]);
		expect(models.every((m) => m.baseUrl === "https://api.deepseek.com" && m.api === "openai-completions")).toBe(true);
	});

	it("keeps reasoning_content and sends it back on the tool loop's assistant message, not on earlier turns' (recorded stream)", async () => {
		server.enqueue({ kind: "sse", chunks: [sseFixture("deepseek", "recorded-tool-call-reasoning")] });
		const first = await withEnv("DEEPSEEK_API_KEY", "sk-deepseek", async () =>
			finalMessage((await collectEvents(streamSimple(deepseek(server), hello, { reasoning: "high" }))).events),
		);
		expect(first.stopReason).toBe("toolUse");
		const thinking =
			'The user is asking for the weather in San Francisco. I need to use the weather tool to get this information. Let me invoke the weather tool with the location parameter set to "San Francisco".';
		// The closing chunk's `content: ""` opens no text block.
		expect(first.content.map((c) => c.type)).toEqual(["thinking", "toolCall"]);
		expect(first.content[0]).toMatchObject({ type: "thinking", thinking });
		const call = first.content[1];
		expect(call).toMatchObject({
			type: "toolCall",
			id: "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF",
			name: "weather",
			arguments: { location: "San Francisco" },
		});
		const callId = call.type === "toolCall" ? call.id : "";
		expect(first.usage).toMatchObject({ input: 19, cacheRead: 320, output: 83 });
		const request = server.requests[0];
		expect(request.url).toBe("/chat/completions");
		expect(request.headers.authorization).toBe("Bearer sk-deepseek");
		expect(request.body).not.toHaveProperty("reasoning_effort");

		// The tool loop: the assistant message goes back with its reasoning.
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		const loop = [...hello.messages, first, toolResult(callId)];
		await collectEvents(streamSimple(deepseek(server), { messages: loop }, { apiKey: "sk-deepseek" }));
		expect(server.requests[1].body.messages[1]).toMatchObject({
			role: "assistant",
			reasoning_content: thinking,
			tool_calls: [{ id: callId, type: "function", function: { name: "weather", arguments: '{"location":"San Francisco"}' } }],
		});

		// A new user turn: the earlier turn's reasoning stays home.
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		const nextTurn = [...loop, { role: "user" as const, content: "and the day after?", timestamp: 4 }];
		await collectEvents(streamSimple(deepseek(server), { messages: nextTurn }, { apiKey: "sk-deepseek" }));
		expect(server.requests[2].body.messages[1]).not.toHaveProperty("reasoning_content");
	});
});
