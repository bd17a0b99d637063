import { describe, expect, it } from "vitest";
import { createFrameScheduler } from "../../components/frame-scheduler.js";

/** A hand-driven clock and timer queue, so the test says exactly when each flush happens. */
function harness(frameMs = 33) {
	let time = 1000;
	const timers: { at: number; fn: () => void; id: number }[] = [];
	let nextId = 1;
	const flushes: number[] = [];
	const frames = createFrameScheduler({
		frameMs,
		flush: () => flushes.push(time),
		now: () => time,
		setTimer: (fn, ms) => {
			const id = nextId++;
			timers.push({ at: time + ms, fn, id });
			return id;
		},
		clearTimer: (id) => {
			const i = timers.findIndex((t) => t.id === id);
			if (i >= 0) timers.splice(i, 1);
		},
	});
	const advance = (ms: number) => {
		const end = time + ms;
		for (const t of timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)) {
			timers.splice(timers.indexOf(t), 1);
			time = t.at;
			t.fn();
		}
		time = end;
	};
	return { frames, flushes, advance, pending: () => timers.length };
}

describe("createFrameScheduler", () => {
	it("draws the first token at once and coalesces the rest to one frame per frameMs", () => {
		const { frames, flushes, advance } = harness();
		frames.onEvent("message_update");
		advance(0);
		expect(flushes).toEqual([1000]);
		for (let i = 0; i < 10; i++) {
			advance(3);
			frames.onEvent("message_update");
		}
		expect(flushes).toHaveLength(1);
		advance(33);
		expect(flushes).toEqual([1000, 1033]);
	});

	it("draws the end of a run at once, inside a frame window, and drops the pending token frame", () => {
		const { frames, flushes, advance, pending } = harness();
		frames.onEvent("message_update");
		advance(0);
		advance(5);
		frames.onEvent("message_update");
		expect(pending()).toBe(1);
		frames.onEvent("message_end");
		frames.onEvent("agent_end");
		expect(flushes).toEqual([1000, 1005, 1005]);
		expect(pending()).toBe(0);
	});

	it("coalesces streamed tool output like tokens", () => {
		const { frames, flushes, advance } = harness();
		frames.onEvent("tool_execution_start");
		frames.onEvent("tool_execution_update");
		frames.onEvent("tool_execution_update");
		expect(flushes).toEqual([1000]);
		advance(33);
		expect(flushes).toEqual([1000, 1033]);
	});
});
