import { describe, expect, it } from "vitest";
import { createAssistantMessageEventStream, EventStream } from "../../src/ai/event-stream.js";
import type { AssistantMessage } from "../../src/ai/types.js";
import { createOutputMessage } from "../../src/ai/usage.js";

type Ev = { kind: "data"; n: number } | { kind: "end"; total: number };
const numbers = () =>
	new EventStream<Ev, number>(
		(e) => e.kind === "end",
		(e) => (e.kind === "end" ? e.total : -1),
	);

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
	const out: T[] = [];
	for await (const e of stream) out.push(e);
	return out;
}

/** Resolves with "pending" if `promise` has not settled after the event loop drained a few turns. */
async function stateOf(promise: Promise<unknown>): Promise<unknown> {
	const pending = Symbol("pending");
	const winner = await Promise.race([promise, new Promise((r) => setTimeout(() => r(pending), 20))]);
	return winner === pending ? "pending" : winner;
}

describe("EventStream", () => {
	it("delivers queued events in order, including the completing one, then stops", async () => {
		const s = numbers();
		s.push({ kind: "data", n: 1 });
		s.push({ kind: "data", n: 2 });
		s.push({ kind: "end", total: 3 });
		expect(await collect(s)).toEqual([
			{ kind: "data", n: 1 },
			{ kind: "data", n: 2 },
			{ kind: "end", total: 3 },
		]);
		expect(await s.result()).toBe(3);
	});

	it("hands events to a consumer already waiting", async () => {
		const s = numbers();
		const consumed = collect(s);
		await Promise.resolve();
		s.push({ kind: "data", n: 1 });
		s.push({ kind: "end", total: 1 });
		expect(await consumed).toEqual([
			{ kind: "data", n: 1 },
			{ kind: "end", total: 1 },
		]);
	});

	it("drops events pushed after completion", async () => {
		const s = numbers();
		s.push({ kind: "end", total: 7 });
		s.push({ kind: "data", n: 99 });
		s.push({ kind: "end", total: 8 });
		expect(await collect(s)).toEqual([{ kind: "end", total: 7 }]);
		expect(await s.result()).toBe(7);
	});

	it("end() wakes waiting consumers with done and resolves the result it is given", async () => {
		const s = numbers();
		const a = collect(s);
		const b = collect(s);
		await Promise.resolve();
		s.end(42);
		expect(await a).toEqual([]);
		expect(await b).toEqual([]);
		expect(await s.result()).toBe(42);
	});

	it("end() without a result leaves result() pending, and later pushes are dropped", async () => {
		const s = numbers();
		s.push({ kind: "data", n: 1 });
		s.end();
		s.push({ kind: "data", n: 2 });
		expect(await collect(s)).toEqual([{ kind: "data", n: 1 }]);
		expect(await stateOf(s.result())).toBe("pending");
	});

	it("end() after a completing event keeps the first result", async () => {
		const s = numbers();
		s.push({ kind: "end", total: 1 });
		s.end(2);
		expect(await s.result()).toBe(1);
	});

	it("result() is pending until a completing event arrives", async () => {
		const s = numbers();
		s.push({ kind: "data", n: 1 });
		expect(await stateOf(s.result())).toBe("pending");
		s.push({ kind: "end", total: 5 });
		expect(await s.result()).toBe(5);
	});
});

describe("AssistantMessageEventStream", () => {
	const model = { api: "faux", provider: "faux", id: "m" };

	it("completes on done with the message as result", async () => {
		const s = createAssistantMessageEventStream();
		const message = createOutputMessage(model);
		s.push({ type: "start", partial: message });
		s.push({ type: "done", reason: "stop", message });
		s.push({ type: "start", partial: message });
		expect((await collect(s)).map((e) => e.type)).toEqual(["start", "done"]);
		expect(await s.result()).toBe(message);
	});

	it("completes on error with the error message as result", async () => {
		const s = createAssistantMessageEventStream();
		const failed: AssistantMessage = { ...createOutputMessage(model), stopReason: "aborted", errorMessage: "Request was aborted" };
		s.push({ type: "error", reason: "aborted", error: failed });
		expect(await s.result()).toBe(failed);
		expect((await collect(s)).map((e) => e.type)).toEqual(["error"]);
	});
});
