import { describe, expect, it } from "vitest";
import { streamOpenAIResponses } from "../../../src/ai/providers/openai-responses.js";
import type { AssistantMessage, AssistantMessageEvent, Context, Model, SimpleStreamOptions } from "../../../src/ai/types.js";
import { block, collectEvents, eventShape, finalMessage } from "../../helpers/assistant-events.js";
import { hello as helloWith, price, providerModel, responsesReply, sseFixture } from "../../helpers/provider-test.js";
import { scriptedServerPerTest } from "../../helpers/scripted-server-per-test.js";
import { byteChunks, type ScriptedServer } from "../../helpers/sse-server.js";

const fixture = (name: string) => sseFixture("openai-responses", name);

function testModel(server: ScriptedServer, overrides: Partial<Model> = {}): Model {
	const model = { id: "gpt-5", api: "openai-responses", provider: "openai", reasoning: true } as const;
	return providerModel({
		...model,
		baseUrl: `${server.url}/v1`,
		cost: price(1.25, 10, 0.125),
		contextWindow: 400_000,
		maxTokens: 128_000,
		...overrides,
	});
}

const hello = helloWith();

async function collect(model: Model, context: Context, options: SimpleStreamOptions = {}) {
	return (await collectEvents(streamOpenAIResponses(model, context, { apiKey: "sk-test", ...options }))).events;
}

const REASONING_ID = "rs_68a1f0c3a1d4819c8e7b6a5f4c3d2e1f";
const MESSAGE_ID = "msg_68a1f0c5b2e0819cb7a6f5e4d3c2b1a0";

const server = scriptedServerPerTest();

describe("streamOpenAIResponses: responses", () => {
	it("streams a reasoning summary then text, with signatures, usage and cost", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("reasoning-text")] });
		const events = await collect(testModel(server), hello, { reasoning: "medium" });
		// The fixture is one write, so one read: its deltas of a block arrive merged into one event.
		expect(eventShape(events)).toEqual(["start", ...block("thinking", 0, 1), ...block("text", 1, 1), "done"]);
		const message = finalMessage(events);
		expect(message.stopReason).toBe("stop");
		expect(message.responseId).toBe("resp_68a1f0c2e4b8819c9d3a7f5e2b1c4d6e");
		expect(message.responseModel).toBe("gpt-5-2025-08-07");
		const [thinking, text] = message.content;
		expect(thinking).toMatchObject({
			type: "thinking",
			thinking: "**Greeting**\n\nThe user says hi.\n\nAnswer warmly.",
		});
		expect(JSON.parse((thinking as { thinkingSignature: string }).thinkingSignature)).toMatchObject({
			id: REASONING_ID,
			type: "reasoning",
			encrypted_content: "gAAAAABooPDFk3x9Q2LmZr8vT1wYc6NpXh4sJd0uKe7bRa5yGi2oMt==",
		});
		expect(text).toEqual({ type: "text", text: "héllo 👋 世界", textSignature: MESSAGE_ID });
		expect(message.usage).toMatchObject({ input: 220, output: 96, cacheRead: 1280, cacheWrite: 0, totalTokens: 1596 });
		expect(message.usage.cost.total).toBeCloseTo((220 * 1.25 + 96 * 10 + 1280 * 0.125) / 1e6, 12);
	});

	it("gives the same message for chunks split at every byte boundary, also inside UTF-8 characters", async () => {
		const text = fixture("reasoning-text");
		for (let size = 1; size <= 7; size++) {
			server.enqueue({ kind: "sse", chunks: byteChunks(text, size) });
			const message = finalMessage(await collect(testModel(server), hello));
			expect(message.content[1], `chunk size ${size}`).toEqual({ type: "text", text: "héllo 👋 世界", textSignature: MESSAGE_ID });
			expect(message.usage.totalTokens).toBe(1596);
		}
	});

	it("assembles two function calls with ids that keep call_id and item id", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("function-calls")] });
		const events = await collect(testModel(server), hello);
		expect(eventShape(events)).toEqual(["start", ...block("toolcall", 0, 1), ...block("toolcall", 1, 1), "done"]);
		const message = finalMessage(events);
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{ type: "toolCall", id: "call_Hq2mV7xK9pL3nR5t|fc_68a1f1d2a0b1819d8c7b6a5f4e3d2c1b", name: "read", arguments: { path: "src/a.ts" } },
			{
				type: "toolCall",
				id: "call_Jw4nX8yM0qN6oS2u|fc_68a1f1d3b1c2819d9d8c7b6a5f4e3d2c",
				name: "grep",
				arguments: { pattern: "TODO", limit: 5 },
			},
		]);
		expect(message.usage).toMatchObject({ input: 320, output: 52 });
	});

	it("function calls survive byte-level splitting", async () => {
		const text = fixture("function-calls");
		for (let size = 1; size <= 7; size++) {
			server.enqueue({ kind: "sse", chunks: byteChunks(text, size) });
			const message = finalMessage(await collect(testModel(server), hello));
			expect(message.content.map((c) => c.type === "toolCall" && c.arguments)).toEqual([
				{ path: "src/a.ts" },
				{ pattern: "TODO", limit: 5 },
			]);
		}
	});

	it("an incomplete response stops with length and keeps its text", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("incomplete")] });
		const events = await collect(testModel(server), hello);
		expect(eventShape(events)).toEqual(["start", "text_start@0", "text_delta@0", "text_end@0", "done"]);
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "length" });
		expect(finalMessage(events).content).toEqual([
			{ type: "text", text: "Once upon a", textSignature: "msg_68a1f2e1e5d4819e9a8b7c6d5e4f3a2b" },
		]);
	});

	it("response.failed becomes an error event with the server's message", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("failed")] });
		const events = await collect(testModel(server), hello);
		expect(eventShape(events)).toEqual(["start", "error"]);
		expect(finalMessage(events).errorMessage).toBe("OpenAI: The model failed to generate a response. (server_error)");
	});

	it("an `error` event becomes an error event", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("error-event")] });
		const message = finalMessage(await collect(testModel(server), hello));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(
			"OpenAI: Rate limit reached for gpt-5 in organization org-abc on tokens per min (TPM). (rate_limit_exceeded)",
		);
	});

	it("an `error` event that nests its message under `error` shows that message (a recorded stream)", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("recorded-quota-error")] });
		const events = await collect(testModel(server), hello);
		// One error, though the recording follows the `error` event with a `response.failed` for the same cause.
		expect(eventShape(events)).toEqual(["start", "error"]);
		const message = finalMessage(events);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(
			"OpenAI: You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors. (insufficient_quota)",
		);
	});

	it("response.failed with an insufficient_quota error shows the quota message", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("quota-failed")] });
		const message = finalMessage(await collect(testModel(server), hello));
		expect(message.errorMessage).toBe(
			"OpenAI: You exceeded your current quota, please check your plan and billing details. (insufficient_quota)",
		);
	});

	it("keeps the phase of a message item on its text block and sends it back in the next request (recorded stream)", async () => {
		// gpt-5.5 told to narrate before each tool call: a reasoning item, a commentary message, a function call.
		server.enqueue({ kind: "sse", chunks: [fixture("recorded-phase-commentary")] });
		const model = testModel(server, { id: "gpt-5.5" });
		const first = finalMessage(await collect(model, hello));
		expect(first.stopReason).toBe("toolUse");
		expect(first.content.map((c) => c.type)).toEqual(["thinking", "text", "toolCall"]);
		const commentary = "I’ll check the capital lookup tool for “PotatoLand.”";
		const messageId = "msg_0fabc13af1ee0049006a691dfebdc881a1ae18d027c313d8ce";
		expect(first.content[1]).toEqual({ type: "text", text: commentary, textSignature: messageId, phase: "commentary" });
		const callId = "call_LabG58Uhrq9kZvR52BYKjToD|fc_0fabc13af1ee0049006a691dff0c1481a1b4a0eec7e3c753bb";
		expect(first.content[2]).toMatchObject({ type: "toolCall", id: callId, name: "get_capital", arguments: { country: "PotatoLand" } });
		server.enqueue({ kind: "sse", chunks: [fixture("incomplete")] });
		const toolResult = {
			role: "toolResult" as const,
			toolCallId: callId,
			toolName: "get_capital",
			content: [{ type: "text" as const, text: "Potato City" }],
			isError: false,
			timestamp: 3,
		};
		await collect(model, { messages: [...hello.messages, first, toolResult] });
		const input = server.requests[1].body.input as { type: string }[];
		// After the user message: the reasoning item, the commentary message, the call and its output.
		expect(input.slice(1).map((item) => item.type)).toEqual(["reasoning", "message", "function_call", "function_call_output"]);
		expect(input[2]).toEqual({
			type: "message",
			role: "assistant",
			id: messageId,
			status: "completed",
			content: [{ type: "output_text", text: commentary, annotations: [] }],
			phase: "commentary",
		});
	});

	it("a stream that ends before response.completed is an error", async () => {
		const cut = fixture("reasoning-text").split("event: response.completed")[0];
		server.enqueue({ kind: "sse", chunks: [cut] });
		const message = finalMessage(await collect(testModel(server), hello));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("OpenAI: the stream ended before the response completed");
	});
});

describe("streamOpenAIResponses: the request", () => {
	const png = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };
	const tools = [{ name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } }];
	const reasoningItem = { id: REASONING_ID, type: "reasoning", encrypted_content: "enc==", summary: [] };
	const assistant = (model: string): AssistantMessage =>
		responsesReply(model, [
			{ type: "thinking", thinking: "Look first.", thinkingSignature: JSON.stringify(reasoningItem) },
			{ type: "text", text: "Reading.", textSignature: MESSAGE_ID },
			{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a.png" } },
		]);
	const contextWith = (assistantModel: string): Context => ({
		systemPrompt: "You are Rudder.",
		tools,
		messages: [
			{ role: "user", content: [{ type: "text", text: "Look at this" }, png], timestamp: 1 },
			assistant(assistantModel),
			{
				role: "toolResult",
				toolCallId: "call_1|fc_1",
				toolName: "read",
				content: [{ type: "text", text: "An image:" }, png],
				isError: false,
				timestamp: 3,
			},
			{ role: "user", content: "Thanks", timestamp: 4 },
		],
	});

	it("sends input items, instructions, tools, reasoning, max_output_tokens and store:false", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("function-calls")] });
		await collect(testModel(server), contextWith("gpt-5"), { reasoning: "high", maxTokens: 4000 });
		const request = server.requests[0];
		expect(request.url).toBe("/v1/responses");
		expect(request.headers.authorization).toBe("Bearer sk-test");
		const dataUrl = "data:image/png;base64,iVBORw0KGgo=";
		expect(request.body).toEqual({
			model: "gpt-5",
			stream: true,
			store: false,
			instructions: "You are Rudder.",
			max_output_tokens: 4000,
			reasoning: { effort: "high", summary: "auto" },
			include: ["reasoning.encrypted_content"],
			tools: [{ type: "function", ...tools[0] }],
			input: [
				{
					role: "user",
					content: [
						{ type: "input_text", text: "Look at this" },
						{ type: "input_image", detail: "auto", image_url: dataUrl },
					],
				},
				reasoningItem,
				{
					type: "message",
					role: "assistant",
					id: MESSAGE_ID,
					status: "completed",
					content: [{ type: "output_text", text: "Reading.", annotations: [] }],
				},
				{ type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: '{"path":"a.png"}' },
				{ type: "function_call_output", call_id: "call_1", output: "An image:" },
				{
					role: "user",
					content: [
						{ type: "input_text", text: "Images from the tool results above:" },
						{ type: "input_image", detail: "auto", image_url: dataUrl },
					],
				},
				{ role: "user", content: "Thanks" },
			],
		});
	});

	it("drops reasoning items and item ids that came from another model", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("function-calls")] });
		await collect(testModel(server), contextWith("gpt-4.1"));
		const input = server.requests[0].body.input;
		expect(input.some((item: { type?: string }) => item.type === "reasoning")).toBe(false);
		expect(input[1]).toEqual({ role: "assistant", content: "Reading." });
		expect(input[2]).toEqual({ type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a.png"}' });
		expect(server.requests[0].body).not.toHaveProperty("reasoning");
		expect(server.requests[0].body).not.toHaveProperty("max_output_tokens");
	});

	it("omits the auth header without a key and merges model and caller headers", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("incomplete")] });
		const model = testModel(server, { provider: "local", headers: { "x-a": "model", "x-b": "model" } });
		const events: AssistantMessageEvent[] = [];
		for await (const e of streamOpenAIResponses(model, hello, { headers: { "x-b": "caller" } })) events.push(e);
		expect(finalMessage(events).stopReason).toBe("length");
		const headers = server.requests[0].headers;
		expect(headers.authorization).toBeUndefined();
		expect(headers["x-a"]).toBe("model");
		expect(headers["x-b"]).toBe("caller");
	});
});
