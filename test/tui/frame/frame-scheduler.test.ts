import { describe, expect, it } from "vitest";
import { createFrameClock } from "../../../src/tui/frame/frame-clock.js";
import { createFrameScheduler } from "../../../src/tui/frame/frame-scheduler.js";
import { manualTimers } from "../../helpers/manual-timers.js";

/** A hand-driven clock and timer queue, and the end of the turn run by hand (`endTurn`). */
function harness(frameMs = 50) {
	const timers = manualTimers();
	const clock = createFrameClock({ frameMs, ...timers });
	const flushes: number[] = [];
	let deferred: (() => void)[] = [];
	const frames = createFrameScheduler({
		clock,
		flush: () => flushes.push(timers.now()),
		defer: (fn) => {
			deferred.push(fn);
			return () => {
				deferred = deferred.filter((f) => f !== fn);
			};
		},
	});
	const endTurn = () => {
		const due = deferred;
		deferred = [];
		for (const fn of due) fn();
	};
	return { timers, clock, frames, flushes, endTurn };
}

describe("createFrameScheduler", () => {
	it("draws the first token once its turn's events are in, and coalesces the rest to the next boundary", () => {
		const { frames, flushes, timers, endTurn } = harness();
		frames.onEvent("message_update");
		frames.onEvent("message_update");
		expect(flushes).toEqual([]);
		endTurn();
		expect(flushes).toEqual([1000]);
		for (let i = 0; i < 10; i++) {
			timers.advance(3);
			frames.onEvent("message_update");
			endTurn();
		}
		expect(flushes).toHaveLength(1);
		timers.advance(20);
		expect(flushes).toEqual([1000, 1050]);
	});

	it("draws the end of a run at once, inside a frame window, and drops the pending token frame", () => {
		const { frames, flushes, timers, endTurn } = harness();
		frames.onEvent("message_update");
		endTurn();
		timers.advance(5);
		frames.onEvent("message_update");
		expect(timers.pending()).toBe(1);
		frames.onEvent("message_end");
		frames.onEvent("agent_end");
		expect(flushes).toEqual([1000, 1005, 1005]);
		expect(timers.pending()).toBe(0);
	});

	it("coalesces streamed tool output like tokens", () => {
		const { frames, flushes, timers, endTurn } = harness();
		frames.onEvent("tool_execution_start");
		frames.onEvent("tool_execution_update");
		endTurn();
		frames.onEvent("tool_execution_update");
		endTurn();
		expect(flushes).toEqual([1000, 1000]);
		timers.advance(50);
		expect(flushes).toEqual([1000, 1000, 1050]);
	});

	it("draws a read made at a boundary in that boundary's turn: the frames set no timer of their own", () => {
		const { frames, flushes, timers, clock, endTurn } = harness();
		// The paced socket: a burst of tokens read at each boundary, then paused until the next.
		const read = () => {
			for (let i = 0; i < 10; i++) frames.onEvent("message_update");
			clock.nextFrame(read);
			endTurn();
		};
		read();
		timers.advance(200);
		expect(flushes).toEqual([1000, 1050, 1100, 1150, 1200]);
		// One wake-up per boundary: the reads'.
		expect(timers.fired()).toBe(4);
	});

	it("stops waiting when disposed", () => {
		const { frames, flushes, timers, endTurn } = harness();
		frames.onEvent("message_update");
		endTurn();
		frames.onEvent("message_update");
		frames.dispose();
		timers.advance(100);
		expect(flushes).toEqual([1000]);
		expect(timers.pending()).toBe(0);
	});
});
