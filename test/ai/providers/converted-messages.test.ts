// A transcript message is converted and serialised once, then sent again as the same bytes by every
// later request; what it depends on besides the message (compat, the model) is part of the key; and
// nothing is kept once the transcript lets go of the message.
import { afterEach, describe, expect, it, vi } from "vitest";
import { convertOnce, deepFreeze } from "../../../src/ai/providers/converted-messages.js";
import { streamOpenAICompletions } from "../../../src/ai/providers/openai-completions.js";
import { streamOpenAIResponses } from "../../../src/ai/providers/openai-responses.js";
import type { AssistantMessage, Context, Message, Model, SimpleStreamOptions } from "../../../src/ai/types.js";
import { collectGarbage } from "../../../src/tui/warm-up/collect-garbage.js";
import { collectEvents } from "../../helpers/assistant-events.js";
import { providerModel, responsesReply, sseFixture } from "../../helpers/provider-test.js";
import { scriptedServerPerTest } from "../../helpers/scripted-server-per-test.js";

const server = scriptedServerPerTest();
afterEach(() => vi.restoreAllMocks());

const chat = (overrides: Partial<Model> = {}) =>
	providerModel({ id: "gpt-4o", api: "openai-completions", provider: "openai", baseUrl: `${server.url}/v1`, ...overrides });

async function send(model: Model, context: Context, options: SimpleStreamOptions = {}) {
	server.enqueue({ kind: "sse", chunks: [sseFixture(model.api, model.api === "openai-responses" ? "incomplete" : "text")] });
	const stream = model.api === "openai-responses" ? streamOpenAIResponses : streamOpenAICompletions;
	await collectEvents(stream(model, context, { apiKey: "sk-test", ...options }));
	return server.requests.at(-1)?.rawBody as string;
}

const assistant = (content: AssistantMessage["content"], model = "gpt-4o") => responsesReply(model, content);

describe("convertOnce", () => {
	it("converts a message once per key, frozen, and a new key replaces the old entry", () => {
		const message: Message = { role: "user", content: "hi", timestamp: 1 };
		const convert = vi.fn((m: Message) => [{ role: m.role, parts: [{ text: "hi" }] }]);
		const first = convertOnce(message, "a", convert);
		expect(convertOnce(message, "a", convert)).toBe(first);
		expect(convert).toHaveBeenCalledTimes(1);
		expect(Object.isFrozen(first[0]) && Object.isFrozen(first[0]?.parts) && Object.isFrozen(first[0]?.parts[0])).toBe(true);
		const other = convertOnce(message, "b", convert);
		expect(other).not.toBe(first);
		// One entry per message: back to "a" converts again.
		expect(convertOnce(message, "a", convert)).not.toBe(first);
		expect(convert).toHaveBeenCalledTimes(3);
	});

	it("deepFreeze leaves primitives alone and freezes nested arrays", () => {
		expect(deepFreeze("text")).toBe("text");
		const value = deepFreeze({ a: [{ b: 1 }] });
		expect(() => {
			(value.a[0] as { b: number }).b = 2;
		}).toThrow(TypeError);
	});
});

describe("the wire form of a long history, across requests", () => {
	it("sends the earlier messages again as the same bytes without converting or serialising them again", async () => {
		const big = "x".repeat(50_000);
		const messages: Message[] = [
			{ role: "user", content: "read it", timestamp: 1 },
			assistant([{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt" } }]),
			{ role: "toolResult", toolCallId: "call_1", toolName: "read", content: [{ type: "text", text: big }], isError: false, timestamp: 3 },
		];
		const first = await send(chat(), { messages });
		const stringify = vi.spyOn(JSON, "stringify");
		messages.push({ role: "user", content: "and now?", timestamp: 4 });
		const second = await send(chat(), { messages });
		const results = stringify.mock.results.map((r) => r.value);
		stringify.mockRestore();
		// The same bytes up to the end of the old messages, then the new one.
		const oldPart = first.slice(0, first.lastIndexOf("]"));
		expect(second.startsWith(oldPart)).toBe(true);
		expect(JSON.parse(second).messages.at(-1)).toEqual({ role: "user", content: "and now?" });
		expect(results.some((r) => typeof r === "string" && r.includes(big))).toBe(false);
	});

	it("converts a message again when its replayed reasoning changes (compat, or no longer the tool loop)", async () => {
		const thinking = assistant([
			{ type: "thinking", thinking: "Let me look." },
			{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a" } },
		]);
		const messages: Message[] = [
			{ role: "user", content: "look", timestamp: 1 },
			thinking,
			{ role: "toolResult", toolCallId: "call_1", toolName: "read", content: [{ type: "text", text: "a" }], isError: false, timestamp: 3 },
		];
		const plain = JSON.parse(await send(chat(), { messages }));
		expect(plain.messages[1]).not.toHaveProperty("reasoning_content");
		const loop = chat({ compat: { replayReasoning: "tool-loop" } });
		expect(JSON.parse(await send(loop, { messages })).messages[1].reasoning_content).toBe("Let me look.");
		messages.push({ role: "user", content: "next", timestamp: 4 });
		expect(JSON.parse(await send(loop, { messages })).messages[1]).not.toHaveProperty("reasoning_content");
	});

	it("converts a Responses message again for another model (its item ids are the first model's)", async () => {
		const reply = assistant([{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a" } }], "gpt-4.1");
		const messages: Message[] = [{ role: "user", content: "look", timestamp: 1 }, reply];
		const responses = (id: string) => providerModel({ id, api: "openai-responses", provider: "openai", baseUrl: `${server.url}/v1` });
		const same = JSON.parse(await send(responses("gpt-4.1"), { messages }));
		expect(same.input[1]).toMatchObject({ type: "function_call", id: "fc_1", call_id: "call_1" });
		const other = JSON.parse(await send(responses("gpt-4o"), { messages }));
		expect(other.input[1]).not.toHaveProperty("id");
	});

	it("keeps nothing once the transcript lets go of its messages", async () => {
		const refs: WeakRef<object>[] = [];
		await (async () => {
			const message: Message = { role: "user", content: "y".repeat(10_000), timestamp: 1 };
			let wire: object | undefined;
			const onPayload = (body: unknown) => {
				wire = (body as { messages: object[] }).messages[0];
			};
			await send(chat(), { messages: [message] }, { onPayload });
			refs.push(new WeakRef(message), new WeakRef(wire as object));
		})();
		// A WeakRef's target is kept until the end of the job that made it.
		await new Promise((r) => setTimeout(r, 0));
		await new Promise((r) => setTimeout(r, 0));
		expect(collectGarbage()).toBe(true);
		expect(refs.map((r) => r.deref())).toEqual([undefined, undefined]);
	});
});
