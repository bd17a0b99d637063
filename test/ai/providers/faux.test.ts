import { afterEach, describe, expect, it } from "vitest";
import {
	type FauxProvider,
	fauxReply,
	fauxText,
	fauxThinking,
	fauxToolCall,
	registerFauxProvider,
} from "../../../src/ai/providers/faux.js";
import { streamSimple } from "../../../src/ai/stream.js";
import type { AssistantMessageEvent, Context, SimpleStreamOptions } from "../../../src/ai/types.js";
import { block, collectEvents, eventShape } from "../../helpers/assistant-events.js";

let faux: FauxProvider | undefined;
afterEach(() => {
	faux?.unregister();
	faux = undefined;
});

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 0 }] };

async function run(options?: SimpleStreamOptions, ctx: Context = context) {
	return collectEvents(streamSimple((faux as FauxProvider).model, ctx, options));
}

describe("faux provider", () => {
	it("emits start, each block as start/deltas/end at increasing indexes, then done", async () => {
		faux = registerFauxProvider({ chunkSize: 3 });
		faux.setResponses([fauxReply(fauxThinking("think!"), fauxText("hello world"), fauxToolCall("read", { path: "a.ts" }, "t1"))]);
		const { events, message } = await run();
		expect(eventShape(events)).toEqual([
			"start",
			...block("thinking", 0, 2),
			...block("text", 1, 4),
			"toolcall_start@2",
			// `{"path":"a.ts"}` in chunks of 4 × chunkSize characters.
			"toolcall_delta@2",
			"toolcall_delta@2",
			"toolcall_end@2",
			"done",
		]);
		// Chunks of 3 characters, which join to the block text.
		const textDeltas = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []));
		expect(textDeltas).toEqual(["hel", "lo ", "wor", "ld"]);
		const end = events.find((e) => e.type === "toolcall_end");
		expect(end?.type === "toolcall_end" && end.toolCall).toEqual({ type: "toolCall", id: "t1", name: "read", arguments: { path: "a.ts" } });
		expect(message.stopReason).toBe("toolUse");
		expect(message.content.map((c) => c.type)).toEqual(["thinking", "text", "toolCall"]);
		expect(message.usage.input).toBeGreaterThan(0);
	});

	it("ends with an error event when no response is queued", async () => {
		faux = registerFauxProvider();
		const { events, message } = await run();
		expect(events.at(-1)?.type).toBe("error");
		expect(message).toMatchObject({ stopReason: "error", errorMessage: "No more faux responses queued" });
	});

	it("echoes the last user text when told to", async () => {
		faux = registerFauxProvider({ whenEmpty: "echo" });
		const { message } = await run();
		expect(message.content).toEqual([{ type: "text", text: "You said: hi" }]);
	});

	it("passes the context and call index to a function response, and records the call", async () => {
		faux = registerFauxProvider();
		const seen: number[] = [];
		const respond = (ctx: Context, _o: unknown, index: number) => {
			seen.push(index);
			return fauxReply(fauxText(`${ctx.messages.length} messages`));
		};
		faux.setResponses([respond, respond]);
		await run();
		const { message } = await run();
		expect(seen).toEqual([0, 1]);
		expect(message.content).toEqual([{ type: "text", text: "1 messages" }]);
		expect(faux.calls).toHaveLength(2);
		expect(faux.getPendingResponseCount()).toBe(0);
	});

	it("accepts tools that carry functions (agent tools) in the context", async () => {
		faux = registerFauxProvider();
		faux.setResponses([fauxReply(fauxText("ok"))]);
		const tools = [{ name: "ls", description: "", parameters: {}, execute: async () => ({ content: [], details: {} }) }];
		const { message } = await run(undefined, { ...context, tools });
		expect(message.stopReason).toBe("stop");
		expect(faux.calls[0].context.tools?.[0]).toBe(tools[0]);
	});

	it("stops between chunks when aborted, ending with an aborted error", async () => {
		faux = registerFauxProvider({ chunkSize: 1 });
		faux.setResponses([fauxReply(fauxText("x".repeat(500)))]);
		const controller = new AbortController();
		const stream = streamSimple(faux.model, context, { signal: controller.signal });
		const events: AssistantMessageEvent[] = [];
		for await (const e of stream) {
			events.push(e);
			if (e.type === "text_delta" && events.filter((x) => x.type === "text_delta").length === 5) controller.abort();
		}
		const message = await stream.result();
		expect(message).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted" });
		expect(events.filter((e) => e.type === "text_delta")).toHaveLength(5);
		expect(events.at(-1)?.type).toBe("error");
	});

	it("ends at once when the signal is already aborted", async () => {
		faux = registerFauxProvider();
		faux.setResponses([fauxReply(fauxText("never"))]);
		const { events, message } = await run({ signal: AbortSignal.abort() });
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(message.stopReason).toBe("aborted");
	});

	it("streams a scripted error as an error event", async () => {
		faux = registerFauxProvider();
		faux.setResponses([{ content: [fauxText("partial")], stopReason: "error", errorMessage: "overloaded" }]);
		const { message } = await run();
		expect(message).toMatchObject({ stopReason: "error", errorMessage: "overloaded" });
	});

	it("paces chunks at the given rate", async () => {
		faux = registerFauxProvider({ tokensPerSecond: 100, chunkSize: 1 });
		faux.setResponses([fauxReply(fauxText("abcdefghijk"))]);
		const started = performance.now();
		await run();
		// 11 chunks and the final step at 100/s: at least ~100 ms. A lower bound only, so load cannot fail it.
		expect(performance.now() - started).toBeGreaterThanOrEqual(90);
	});
});
