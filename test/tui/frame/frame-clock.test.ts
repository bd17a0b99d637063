import { describe, expect, it } from "vitest";
import { createFrameClock } from "../../../src/tui/frame/frame-clock.js";
import { manualTimers } from "../../helpers/manual-timers.js";

function harness(frameMs = 50) {
	const timers = manualTimers();
	const clock = createFrameClock({ frameMs, ...timers });
	const log: string[] = [];
	const at = (label: string) => () => log.push(`${label}@${timers.now()}`);
	return { timers, clock, log, at };
}

describe("createFrameClock", () => {
	it("starts a new frame at the first request after a quiet spell and runs the next-frame queue at its end", () => {
		const { timers, clock, log, at } = harness();
		const before = clock.frame();
		timers.advance(7);
		expect(clock.frame()).toBe(before);
		timers.advance(100);
		clock.nextFrame(at("read"));
		const first = clock.frame();
		expect(first).toBeGreaterThan(before);
		timers.advance(10);
		expect(clock.frame()).toBe(first);
		timers.advance(50);
		expect(log).toEqual(["read@1157"]);
		expect(clock.frame()).toBe(first + 1);
	});

	it("runs every caller's next-frame work in one timer: one wake-up per boundary", () => {
		const { timers, clock, log, at } = harness();
		clock.nextFrame(at("read"));
		clock.nextFrame(at("frame"));
		clock.nextFrame(at("other"));
		expect(timers.pending()).toBe(1);
		timers.advance(50);
		expect(log).toEqual(["read@1050", "frame@1050", "other@1050"]);
		expect(timers.fired()).toBe(1);
	});

	it("keeps its boundaries on one grid while work keeps coming at each", () => {
		const { timers, clock, log } = harness();
		const read = () => {
			log.push(String(timers.now()));
			// The read and its events take a few ms; the next pause is still due at the grid's boundary.
			timers.advance(3);
			clock.nextFrame(read);
		};
		clock.nextFrame(read);
		timers.advance(260);
		expect(log).toEqual(["1050", "1100", "1150", "1200", "1250"]);
		expect(timers.fired()).toBe(5);
	});

	it("numbers a new frame at each boundary, and none between", () => {
		const { timers, clock } = harness();
		clock.nextFrame(() => {});
		const first = clock.frame();
		timers.advance(49);
		expect(clock.frame()).toBe(first);
		timers.advance(1);
		clock.nextFrame(() => {});
		expect(clock.frame()).toBe(first + 1);
		timers.advance(20);
		expect(clock.frame()).toBe(first + 1);
	});

	it("releases its timer when the last waiting work is cancelled (no wake-up for nothing)", () => {
		const { timers, clock, log, at } = harness();
		const cancel = clock.nextFrame(at("read"));
		expect(timers.pending()).toBe(1);
		cancel();
		expect(timers.pending()).toBe(0);
		timers.advance(100);
		expect(log).toEqual([]);
	});

	it("runs a deadline at the boundary nearest to it while frames run: no timer of its own", () => {
		const { timers, clock, log, at } = harness();
		const read = () => clock.nextFrame(read);
		clock.nextFrame(read);
		clock.at(1000 + 190, at("tick"));
		clock.at(1000 + 230, at("later"));
		timers.advance(300);
		expect(log).toEqual(["tick@1200", "later@1250"]);
		// Six boundaries, no other timer.
		expect(timers.fired()).toBe(6);
	});

	it("runs a deadline on its own timer when nothing else is running, never before half a frame early", () => {
		const { timers, clock, log, at } = harness();
		clock.frame();
		timers.advance(500);
		clock.at(timers.now() + 200, at("tick"));
		timers.advance(170);
		expect(log).toEqual([]);
		timers.advance(40);
		expect(log).toEqual(["tick@1700"]);
		expect(timers.fired()).toBe(1);
	});

	it("re-anchors after the loop was held up past a whole frame, instead of catching up", () => {
		const { timers, clock, log } = harness();
		const read = () => {
			log.push(String(timers.now()));
			clock.nextFrame(read);
		};
		clock.nextFrame(read);
		timers.advance(50);
		// The boundary due at 1100 fires at 1180: the grid starts again there.
		timers.stall(130);
		const late = clock.frame();
		timers.advance(0);
		expect(clock.frame()).toBe(late + 1);
		timers.advance(50);
		expect(log).toEqual(["1050", "1180", "1230"]);
	});

	it("re-arms a boundary timer that never came (fake timers uninstalled under it)", () => {
		let time = 0;
		const set: (() => void)[] = [];
		const clock = createFrameClock({ frameMs: 50, now: () => time, setTimer: (fn) => set.push(fn), clearTimer: () => {} });
		clock.nextFrame(() => {});
		expect(set).toHaveLength(1);
		time = 1000;
		let ran = false;
		clock.nextFrame(() => {
			ran = true;
		});
		expect(set).toHaveLength(2);
		set[1]?.();
		expect(ran).toBe(true);
	});
});
