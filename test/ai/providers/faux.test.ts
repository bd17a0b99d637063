// The faux provider against pi-ai 0.73.1's documented behaviour (its README's "Faux provider for tests"):
// registration shape, queue order, the empty-queue error, helpers, multiple models, usage estimate and
// simulated prompt cache, token-sized chunks, pacing and abort.
import { afterEach, describe, expect, it } from "vitest";
import { getApiProvider } from "../../../src/ai/api-registry.js";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxText,
	fauxThinking,
	fauxToolCall,
	registerFauxProvider,
} from "../../../src/ai/providers/faux.js";
import { completeSimple, streamSimple } from "../../../src/ai/stream.js";
import type { AssistantMessageEvent, Context, Model, SimpleStreamOptions } from "../../../src/ai/types.js";
import { block, collectEvents, eventShape } from "../../helpers/assistant-events.js";

const registrations: FauxProviderRegistration[] = [];
afterEach(() => {
	for (const r of registrations.splice(0)) r.unregister();
});
function register(options?: Parameters<typeof registerFauxProvider>[0]): FauxProviderRegistration {
	const r = registerFauxProvider(options);
	registrations.push(r);
	return r;
}

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 0 }] };
const run = (model: Model, options?: SimpleStreamOptions, ctx: Context = context) => collectEvents(streamSimple(model, ctx, options));

describe("faux helpers", () => {
	it("build content blocks and an assistant message as pi-ai does", () => {
		expect(fauxText("a")).toEqual({ type: "text", text: "a" });
		expect(fauxThinking("t")).toEqual({ type: "thinking", thinking: "t" });
		expect(fauxToolCall("read", { path: "x" }, { id: "c1" })).toEqual({
			type: "toolCall",
			id: "c1",
			name: "read",
			arguments: { path: "x" },
		});
		const a = fauxToolCall("read", {});
		const b = fauxToolCall("read", {});
		expect(a.id).not.toBe(b.id);
		const m = fauxAssistantMessage("hello", { timestamp: 5, responseId: "r1" });
		expect(m).toMatchObject({
			role: "assistant",
			content: [{ type: "text", text: "hello" }],
			stopReason: "stop",
			timestamp: 5,
			responseId: "r1",
		});
		expect(m.usage).toMatchObject({ input: 0, output: 0, totalTokens: 0 });
		expect(fauxAssistantMessage(fauxText("one")).content).toEqual([{ type: "text", text: "one" }]);
		expect(fauxAssistantMessage([], { stopReason: "error", errorMessage: "boom" })).toMatchObject({
			stopReason: "error",
			errorMessage: "boom",
		});
	});
});

describe("registerFauxProvider", () => {
	it("returns api, models, getModel, state and the queue functions; one default model", () => {
		const r = register();
		expect(r.api).toMatch(/faux/);
		expect(r.models).toHaveLength(1);
		expect(r.getModel()).toBe(r.models[0]);
		expect(r.getModel()).toMatchObject({ id: "faux-1", api: r.api, provider: "faux", reasoning: false });
		expect(r.state.callCount).toBe(0);
		expect(getApiProvider(r.api)).toBeDefined();
	});

	it("gives each registration its own api, and unregister removes only its own", () => {
		const a = register();
		const b = register();
		expect(a.api).not.toBe(b.api);
		a.unregister();
		expect(getApiProvider(a.api)).toBeUndefined();
		expect(getApiProvider(b.api)).toBeDefined();
	});

	it("serves several models; getModel(id) finds one or gives undefined", () => {
		const r = register({ provider: "p", models: [{ id: "faux-fast" }, { id: "faux-thinker", reasoning: true, contextWindow: 1000 }] });
		expect(r.models.map((m) => m.id)).toEqual(["faux-fast", "faux-thinker"]);
		expect(r.getModel("faux-thinker")).toMatchObject({ reasoning: true, contextWindow: 1000, provider: "p" });
		expect(r.getModel("nope")).toBeUndefined();
	});

	it("consumes replies in request order and counts calls; the reply takes the requesting model's ids", async () => {
		const r = register({ models: [{ id: "m-a" }, { id: "m-b" }] });
		r.setResponses([fauxAssistantMessage("first"), fauxAssistantMessage("second")]);
		r.appendResponses([fauxAssistantMessage("third")]);
		expect(r.getPendingResponseCount()).toBe(3);
		const one = await completeSimple(r.getModel("m-b")!, context);
		expect(one).toMatchObject({ content: [{ type: "text", text: "first" }], model: "m-b", api: r.api, provider: "faux" });
		r.setResponses([fauxAssistantMessage("replaced")]);
		expect((await completeSimple(r.getModel(), context)).content).toEqual([{ type: "text", text: "replaced" }]);
		expect(r.state.callCount).toBe(2);
		expect(r.getPendingResponseCount()).toBe(0);
	});

	it("ends with an assistant error 'No more faux responses queued' when the queue is empty", async () => {
		const r = register();
		const { events, message } = await run(r.getModel());
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(message).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: "No more faux responses queued" });
	});

	it("passes context, options, state and model to a factory", async () => {
		const r = register();
		const seen: unknown[] = [];
		r.setResponses([
			(ctx, options, state, model) => {
				seen.push(ctx.messages.length, options?.sessionId, state.callCount, model.id);
				return fauxAssistantMessage(`${ctx.messages.length} messages`);
			},
		]);
		const message = await completeSimple(r.getModel(), context, { sessionId: "s" });
		expect(seen).toEqual([1, "s", 1, "faux-1"]);
		expect(message.content).toEqual([{ type: "text", text: "1 messages" }]);
	});

	it("streams every block as start/deltas/end in content order, tool arguments in deltas", async () => {
		const r = register({ tokenSize: { min: 1, max: 1 } });
		r.setResponses([
			fauxAssistantMessage([fauxThinking("think!"), fauxText("hello world"), fauxToolCall("read", { path: "a.ts" }, { id: "t1" })], {
				stopReason: "toolUse",
			}),
		]);
		const { events, message } = await run(r.getModel());
		// One token is 4 characters: "think!" is 2 chunks, "hello world" 3, `{"path":"a.ts"}` 4.
		expect(eventShape(events)).toEqual(["start", ...block("thinking", 0, 2), ...block("text", 1, 3), ...block("toolcall", 2, 4), "done"]);
		expect(events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []))).toEqual(["hell", "o wo", "rld"]);
		const end = events.find((e) => e.type === "toolcall_end");
		expect(end?.type === "toolcall_end" && end.toolCall).toEqual({ type: "toolCall", id: "t1", name: "read", arguments: { path: "a.ts" } });
		expect(message.stopReason).toBe("toolUse");
	});

	it("chunks text in token sizes between min and max (4 characters a token)", async () => {
		const r = register({ tokenSize: { min: 2, max: 3 } });
		r.setResponses([fauxAssistantMessage("x".repeat(400))]);
		const { events } = await run(r.getModel());
		const sizes = events.flatMap((e) => (e.type === "text_delta" ? [e.delta.length] : []));
		expect(sizes.slice(0, -1).every((n) => n === 8 || n === 12)).toBe(true);
		expect(sizes.reduce((a, b) => a + b, 0)).toBe(400);
	});

	it("estimates usage at about one token per 4 characters", async () => {
		const r = register();
		r.setResponses([fauxAssistantMessage("x".repeat(40))]);
		const message = await completeSimple(r.getModel(), { systemPrompt: "s".repeat(100), messages: context.messages });
		expect(message.usage.output).toBe(10);
		expect(message.usage.input).toBeGreaterThanOrEqual(25);
		expect(message.usage.totalTokens).toBe(message.usage.input + message.usage.output);
	});

	it("simulates prompt cache reads and writes with a session id, unless cacheRetention is none", async () => {
		const r = register();
		const long: Context = { systemPrompt: "p".repeat(400), messages: context.messages };
		r.setResponses([fauxAssistantMessage("a"), fauxAssistantMessage("b"), fauxAssistantMessage("c")]);
		const first = await completeSimple(r.getModel(), long, { sessionId: "s1" });
		expect(first.usage.cacheWrite).toBeGreaterThanOrEqual(100);
		expect(first.usage.cacheRead).toBe(0);
		const next: Context = { ...long, messages: [...long.messages, first, { role: "user", content: "more", timestamp: 1 }] };
		const second = await completeSimple(r.getModel(), next, { sessionId: "s1" });
		expect(second.usage.cacheRead).toBeGreaterThanOrEqual(100);
		expect(second.usage.cacheWrite).toBeLessThan(second.usage.cacheRead);
		const third = await completeSimple(r.getModel(), next, { sessionId: "s2", cacheRetention: "none" });
		expect(third.usage).toMatchObject({ cacheRead: 0, cacheWrite: 0 });
	});

	it("keeps usage a scripted message sets (a Rudder addition) and prices it with the model", async () => {
		const r = register({ models: [{ id: "m", cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } }] });
		r.setResponses([fauxAssistantMessage("ok", { usage: { input: 1_000_000, output: 10 } })]);
		const message = await completeSimple(r.getModel(), context);
		expect(message.usage).toMatchObject({ input: 1_000_000, output: 10 });
		expect(message.usage.cost.input).toBeCloseTo(1);
	});

	it("streams a scripted error after its content as an error event", async () => {
		const r = register();
		r.setResponses([fauxAssistantMessage("partial", { stopReason: "error", errorMessage: "overloaded" })]);
		const { events, message } = await run(r.getModel());
		expect(events.at(-1)?.type).toBe("error");
		expect(message).toMatchObject({ stopReason: "error", errorMessage: "overloaded", content: [{ type: "text", text: "partial" }] });
	});

	it("accepts tools that carry functions (agent tools) and records each call's context", async () => {
		const r = register();
		r.setResponses([fauxAssistantMessage("ok")]);
		const tools = [{ name: "ls", description: "", parameters: {}, execute: async () => ({ content: [], details: {} }) }];
		await run(r.getModel(), undefined, { ...context, tools });
		expect(r.calls[0].context.tools?.[0]).toBe(tools[0]);
	});

	it("stops between chunks when aborted, ending with an aborted error", async () => {
		const r = register({ tokenSize: { min: 1, max: 1 } });
		r.setResponses([fauxAssistantMessage("x".repeat(500))]);
		const controller = new AbortController();
		const stream = streamSimple(r.getModel(), context, { signal: controller.signal });
		const events: AssistantMessageEvent[] = [];
		for await (const e of stream) {
			events.push(e);
			if (e.type === "text_delta" && events.filter((x) => x.type === "text_delta").length === 5) controller.abort();
		}
		expect(await stream.result()).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted" });
		expect(events.filter((e) => e.type === "text_delta")).toHaveLength(5);
	});

	it("ends at once when the signal is already aborted", async () => {
		const r = register();
		r.setResponses([fauxAssistantMessage("never")]);
		const { events, message } = await run(r.getModel(), { signal: AbortSignal.abort() });
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(message.stopReason).toBe("aborted");
	});

	it("paces chunks at tokensPerSecond", async () => {
		const r = register({ tokensPerSecond: 100, tokenSize: { min: 1, max: 1 } });
		r.setResponses([fauxAssistantMessage("x".repeat(44))]);
		const started = performance.now();
		await run(r.getModel());
		// 11 one-token chunks at 100/s: at least ~100 ms. A lower bound only, so load cannot fail it.
		expect(performance.now() - started).toBeGreaterThanOrEqual(90);
	});
});
