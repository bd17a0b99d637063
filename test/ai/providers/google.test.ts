import { describe, expect, it, vi } from "vitest";
import { buildGoogleRequest, streamGoogle } from "../../../src/ai/providers/google.js";
import { streamSimple } from "../../../src/ai/stream.js";
import type { AssistantMessage, AssistantMessageEvent, Context, Model, SimpleStreamOptions, Tool } from "../../../src/ai/types.js";
import { emptyUsage } from "../../../src/ai/usage.js";
import { block, collectEvents, eventShape } from "../../helpers/assistant-events.js";
import { withEnv } from "../../helpers/env.js";
import { hello as helloWith, price, providerModel, sseFixture } from "../../helpers/provider-test.js";
import { scriptedServerPerTest } from "../../helpers/scripted-server-per-test.js";
import { byteChunks, type ScriptedServer, sse } from "../../helpers/sse-server.js";

const fixture = (name: string) => sseFixture("google", name);

function model(baseUrl: string, overrides: Partial<Model> = {}): Model {
	const flash = { id: "gemini-2.5-flash", api: "google-generative-ai", provider: "google", reasoning: true } as const;
	return providerModel({ ...flash, baseUrl, cost: price(0.3, 2.5, 0.075), contextWindow: 1_048_576, maxTokens: 65_536, ...overrides });
}

const hello = helloWith("Be brief.");

async function collect(
	server: ScriptedServer,
	opts: SimpleStreamOptions = {},
	context: Context = hello,
	m: Model = model(`${server.url}/v1beta`),
): Promise<{ events: AssistantMessageEvent[]; message: AssistantMessage }> {
	return collectEvents(streamGoogle(m, context, { apiKey: "g-test", maxRetries: 0, ...opts }));
}

/** Generated tool-call ids differ per run; everything else must match. */
function comparable(message: AssistantMessage): unknown {
	const { timestamp: _ignored, ...rest } = message;
	return { ...rest, content: rest.content.map((c) => (c.type === "toolCall" ? { ...c, id: "<id>" } : c)) };
}

const server = scriptedServerPerTest();

describe("streamGoogle events", () => {
	it("streams text with usage, cost and the response id", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		const { events, message } = await collect(server);
		// The fixture is one write, so one read: its deltas of a block arrive merged into one event.
		expect(eventShape(events)).toEqual(["start", "text_start@0", "text_delta@0", "text_end@0", "done"]);
		expect(events[3]).toMatchObject({ type: "text_end", content: "héllo 👋 世界" });
		expect(message.content).toEqual([{ type: "text", text: "héllo 👋 世界" }]);
		expect(message.stopReason).toBe("stop");
		expect(message.responseId).toBe("resp-text");
		expect(message.responseModel).toBeUndefined();
		// promptTokenCount 4000 includes 3000 cached tokens, billed at the cache price.
		expect(message.usage).toMatchObject({ input: 1000, output: 5, cacheRead: 3000, cacheWrite: 0, totalTokens: 4005 });
		expect(message.usage.cost.input).toBeCloseTo(0.0003, 10);
		expect(message.usage.cost.output).toBeCloseTo(0.0000125, 10);
		expect(message.usage.cost.cacheRead).toBeCloseTo(0.000225, 10);
		expect(message.usage.cost.total).toBeCloseTo(0.0005375, 10);
	});

	it("streams thought parts as thinking with their signature, and counts thought tokens as output", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("thinking")] });
		const { events, message } = await collect(server);
		expect(eventShape(events)).toEqual(["start", ...block("thinking", 0, 1), ...block("text", 1, 1), "done"]);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "**Greeting**\nThe user wants hello.", thinkingSignature: "CiQB0e2Kb3NpZ25hdHVyZQ==" },
			{ type: "text", text: "Hello!" },
		]);
		expect(message.usage).toMatchObject({ input: 50, output: 23, totalTokens: 73 });
	});

	it("emits each whole function call as start, one delta and end, with generated ids", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("tool-calls")] });
		const { events, message } = await collect(server);
		expect(eventShape(events)).toEqual(["start", ...block("text", 0, 1), ...block("toolcall", 1, 1), ...block("toolcall", 2, 1), "done"]);
		expect(events[5]).toMatchObject({ type: "toolcall_delta", delta: '{"path":"src/a.ts","limit":20}' });
		expect(message.stopReason).toBe("toolUse");
		const [, first, second] = message.content;
		expect(first).toMatchObject({
			type: "toolCall",
			name: "read",
			arguments: { path: "src/a.ts", limit: 20 },
			thoughtSignature: "CiIB0e2Kb2Z1bmNzaWc=",
		});
		expect(second).toMatchObject({ type: "toolCall", name: "read", arguments: { path: "src/b.ts" } });
		expect(second).not.toHaveProperty("thoughtSignature");
		const ids = [first, second].map((c) => (c.type === "toolCall" ? c.id : ""));
		expect(ids[0]).toMatch(/^read_/);
		expect(new Set(ids).size).toBe(2);
	});

	it("ends a tool-call turn with the calls: the closing empty text part opens no block (recorded stream)", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("recorded-tool-call-empty-text")] });
		const { events, message } = await collect(server);
		expect(eventShape(events)).toEqual(["start", ...block("toolcall", 0, 1), "done"]);
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toHaveLength(1);
		const [call] = message.content;
		expect(call).toMatchObject({ type: "toolCall", name: "weather", arguments: { location: "San Francisco" } });
		const signature = call.type === "toolCall" ? call.thoughtSignature : undefined;
		expect(signature).toHaveLength(5488);
		expect(signature).toMatch(/^EpEgCo4gAb4\+.*KivQw3YcJ1FX$/s);
		// Next turn the call goes back alone, with its signature, and no empty text part beside it.
		const body = buildGoogleRequest(model("http://x"), { messages: [message] });
		expect(body.contents).toEqual([
			{ role: "model", parts: [{ functionCall: { name: "weather", args: { location: "San Francisco" } }, thoughtSignature: signature }] },
		]);
	});

	it("attaches a signature that arrives on an empty part to the block it ends, opening nothing", async () => {
		const chunk = (parts: unknown[], finishReason?: string) => ({
			candidates: [{ content: { role: "model", parts }, index: 0, ...(finishReason && { finishReason }) }],
		});
		server.enqueue({ kind: "sse", chunks: [sse([chunk([{ text: "Hi" }]), chunk([{ text: "", thoughtSignature: "sig-t" }], "STOP")])] });
		const { events, message } = await collect(server);
		expect(eventShape(events)).toEqual(["start", "text_start@0", "text_delta@0", "text_end@0", "done"]);
		expect(message.content).toEqual([{ type: "text", text: "Hi", textSignature: "sig-t" }]);
		// And it goes back on the same part next turn.
		const body = buildGoogleRequest(model("http://x"), { messages: [message] });
		expect(body.contents).toEqual([{ role: "model", parts: [{ text: "Hi", thoughtSignature: "sig-t" }] }]);
	});

	it("maps MAX_TOKENS to length", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("max-tokens")] });
		const { events, message } = await collect(server);
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "length" });
		expect(message.content).toEqual([{ type: "text", text: "A long answer that" }]);
	});

	it("turns a SAFETY stop into an error naming the reason", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("safety")] });
		const { events, message } = await collect(server);
		expect(eventShape(events)).toEqual(["start", "text_start@0", "text_delta@0", "error"]);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("Google: generation stopped (SAFETY)");
		expect(message.content).toEqual([{ type: "text", text: "I can" }]);
	});

	it.each(["text", "thinking", "tool-calls"])(
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
				expect(comparable(split.message), `chunk size ${size}`).toEqual(comparable(whole.message));
			}
		},
	);

	it("turns an in-stream error chunk into an error that keeps the partial text", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("unavailable")] });
		const { events, message } = await collect(server);
		expect(eventShape(events)).toEqual(["start", "text_start@0", "text_delta@0", "error"]);
		expect(message.errorMessage).toBe("Google error (UNAVAILABLE): The model is overloaded. Please try again later.");
		expect(message.content).toEqual([{ type: "text", text: "Let me" }]);
	});

	it("names the key's env var when the key is rejected", async () => {
		server.enqueue({
			kind: "status",
			status: 401,
			body: '{"error":{"code":401,"message":"API key not valid. Please pass a valid API key.","status":"UNAUTHENTICATED"}}',
		});
		const { events, message } = await collect(server);
		expect(eventShape(events)).toEqual(["start", "error"]);
		// Whole-string equality waits for http.ts to stop doubling the period after a detail that has one.
		expect(message.errorMessage).toMatch(
			/^Google rejected the API key \(HTTP 401\): API key not valid\. Please pass a valid API key\.+ Check GEMINI_API_KEY or pass --api-key\.$/,
		);
	});

	it("reports a body that ends without a finish reason as an error", async () => {
		const text = fixture("text");
		server.enqueue({ kind: "sse", chunks: [text.slice(0, text.indexOf("\r\n\r\n") + 4)] });
		const { message } = await collect(server);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("Google: stream ended before the response was complete");
	});

	it("ends with aborted and drops the connection when aborted mid-stream", async () => {
		const text = fixture("text");
		server.enqueue({ kind: "sse", chunks: [text.slice(0, text.indexOf("\r\n\r\n") + 4)], stallAfter: true });
		const controller = new AbortController();
		const stream = streamGoogle(model(`${server.url}/v1beta`), hello, {
			apiKey: "k",
			signal: controller.signal,
			maxRetries: 0,
		});
		const events: AssistantMessageEvent[] = [];
		for await (const event of stream) {
			events.push(event);
			if (event.type === "text_delta") controller.abort();
		}
		expect(eventShape(events)).toEqual(["start", "text_start@0", "text_delta@0", "error"]);
		const message = await stream.result();
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBe("Request was aborted");
		expect(message.content).toEqual([{ type: "text", text: "héllo " }]);
		// The request's socket closes at once; Node's fetch also opens a spare idle connection on abort and
		// drops it about 3 s later, hence the generous wait.
		await vi.waitFor(() => expect(server.openSockets()).toBe(0), { timeout: 10_000, interval: 20 });
	});
});

describe("streamGoogle transport options", () => {
	it("is what streamSimple loads for google-generative-ai", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		const message = await streamSimple(model(`${server.url}/v1beta`), hello, { apiKey: "k", maxRetries: 0 }).result();
		expect(message.content).toEqual([{ type: "text", text: "héllo 👋 世界" }]);
	});

	it("reads the key from GEMINI_API_KEY when none is passed", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		await withEnv("GEMINI_API_KEY", "g-from-env", () => collect(server, { apiKey: undefined }));
		expect(server.requests[0].headers["x-goog-api-key"]).toBe("g-from-env");
	});
});

describe("Google request", () => {
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
				api: "google-generative-ai",
				provider: "google",
				model: "gemini-2.5-flash",
				content: [
					{ type: "thinking", thinking: "Look at both.", thinkingSignature: "sig-think" },
					{ type: "text", text: "Reading." },
					{ type: "toolCall", id: "read_1", name: "read", arguments: { path: "a.ts" }, thoughtSignature: "sig-call" },
					{ type: "toolCall", id: "read_2", name: "read", arguments: { path: "b.png" } },
				],
				usage: emptyUsage(),
				stopReason: "toolUse",
				timestamp: 2,
			},
			{
				role: "toolResult",
				toolCallId: "read_1",
				toolName: "read",
				content: [{ type: "text", text: "export {}" }],
				isError: false,
				timestamp: 3,
			},
			{
				role: "toolResult",
				toolCallId: "read_2",
				toolName: "read",
				content: [
					{ type: "text", text: "cannot decode" },
					{ type: "image", data: png, mimeType: "image/png" },
				],
				isError: true,
				timestamp: 4,
			},
		],
	};

	it("sends contents, system instruction, tools, thinking config and the key header", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		const { message } = await collect(
			server,
			{ apiKey: "g-key", reasoning: "low", temperature: 0.4, maxTokens: 2000, headers: { "x-extra": "1" } },
			conversation,
			model(`${server.url}/v1beta`, { headers: { "x-model-header": "m" } }),
		);
		expect(message.stopReason).toBe("stop");
		const request = server.requests[0];
		expect(request.method).toBe("POST");
		expect(request.url).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
		expect(request.headers["x-goog-api-key"]).toBe("g-key");
		expect(request.headers["x-model-header"]).toBe("m");
		expect(request.headers["x-extra"]).toBe("1");
		expect(request.body).toEqual({
			contents: [
				{ role: "user", parts: [{ text: "What is in these?" }, { inlineData: { mimeType: "image/png", data: png } }] },
				{
					role: "model",
					parts: [
						{ text: "Look at both.", thought: true, thoughtSignature: "sig-think" },
						{ text: "Reading." },
						{ functionCall: { name: "read", args: { path: "a.ts" } }, thoughtSignature: "sig-call" },
						{ functionCall: { name: "read", args: { path: "b.png" } } },
					],
				},
				{
					role: "user",
					parts: [
						{ functionResponse: { name: "read", response: { output: "export {}" } } },
						{ functionResponse: { name: "read", response: { error: "cannot decode" } } },
						{ inlineData: { mimeType: "image/png", data: png } },
					],
				},
			],
			systemInstruction: { parts: [{ text: "You are Rudder." }] },
			tools: [{ functionDeclarations: [{ name: "read", description: "Read a file", parametersJsonSchema: readTool.parameters }] }],
			generationConfig: { maxOutputTokens: 2000, temperature: 0.4, thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } },
		});
	});

	it("sends no thinking config without reasoning, and the model's max tokens by default", () => {
		expect(buildGoogleRequest(model("http://x"), hello)).toEqual({
			contents: [{ role: "user", parts: [{ text: "hi" }] }],
			systemInstruction: { parts: [{ text: "Be brief." }] },
			generationConfig: { maxOutputTokens: 65_536 },
		});
		expect(buildGoogleRequest(model("http://x", { reasoning: false }), hello, { reasoning: "high" }).generationConfig).toEqual({
			maxOutputTokens: 65_536,
		});
		expect(
			buildGoogleRequest(model("http://x"), hello, { reasoning: "high", thinkingBudgets: { high: 24_576 } }).generationConfig
				.thinkingConfig,
		).toEqual({ includeThoughts: true, thinkingBudget: 24_576 });
	});

	it("drops signatures issued by another provider and replays its thinking as plain text", () => {
		const body = buildGoogleRequest(model("http://x"), {
			messages: [
				{
					role: "assistant",
					api: "anthropic-messages",
					provider: "anthropic",
					model: "claude-sonnet-4-5",
					content: [
						{ type: "thinking", thinking: "Plan.", thinkingSignature: "anthropic-sig" },
						{ type: "thinking", thinking: "", thinkingSignature: "opaque", redacted: true },
						{ type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a.ts" }, thoughtSignature: "x" },
					],
					usage: emptyUsage(),
					stopReason: "toolUse",
					timestamp: 1,
				},
			],
		});
		expect(body.contents).toEqual([
			{ role: "model", parts: [{ text: "Plan." }, { functionCall: { name: "read", args: { path: "a.ts" } } }] },
		]);
	});
});
