// The one clock of a streaming reply (docs/streaming.md, "One clock"). Every timer is a wake-up of
// the process, and on a small VM each costs ~130 µs of CPU, so the paced socket reads, the UI's
// frames and the spinner's idle tick share one timer on one grid of frame boundaries: the socket is
// read at a boundary, the frame with what it read is drawn in the same turn, and nothing else wakes
// between.
// Plain TypeScript, time and timers injected; `frameClock` is the app's own (src/tui/mount.ts lends it
// to the socket reads, src/ai/read-pace.ts).

import type { PaceDeps } from "../../ai/read-pace.js";

/** 20 frames a second while text streams (src/tui/app/use-session.ts says why 50 ms); READ_PACE_MS of src/ai/read-pace.ts is the same. */
export const FRAME_MS = 50;

export type FrameClockDeps = PaceDeps;

export interface FrameClock {
	readonly frameMs: number;
	now(): number;
	/** Runs `fn` once at the next frame boundary. Returns its cancel. */
	nextFrame(fn: () => void): () => void;
	/**
	 * Runs `fn` once at the frame boundary nearest to `time` (at most half a frame early), so that it
	 * shares a wake-up with the frames. Returns its cancel.
	 */
	at(time: number, fn: () => void): () => void;
	/**
	 * The current frame's number: a new one starts at each boundary, and after a quiet spell (a
	 * frame's time passed with no boundary pending) at once: the leading edge. A drawer that drew in
	 * this frame waits for the next boundary.
	 */
	frame(): number;
}

interface Deadline {
	at: number;
	fn: () => void;
}

/** A boundary timer this late, while JS runs, was lost (a test's fake timers uninstalled): re-armed. */
const LOST_TIMER_FRAMES = 4;

export function createFrameClock(deps: FrameClockDeps): FrameClock {
	const { frameMs } = deps;
	// Monotonic (a wall clock stepped back would hold the grid in the future). Looked up at each call,
	// so fake timers installed later are the ones used.
	const now = deps.now ?? (() => performance.now());
	const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
	const clearTimer = deps.clearTimer ?? ((handle) => clearTimeout(handle as NodeJS.Timeout));
	let start = Number.NEGATIVE_INFINITY;
	let frame = 0;
	let timer: unknown;
	let timerAt = Number.POSITIVE_INFINITY;
	const boundary = new Set<() => void>();
	const deadlines = new Set<Deadline>();

	const pending = (t: number) => timer !== undefined && t < timerAt + LOST_TIMER_FRAMES * frameMs;
	/** A new frame starts now when the last one is over and no boundary is on its way. */
	const current = (t: number) => {
		// Time before the frame's start: a clock reset under us (tests' fake time); its timer is gone too.
		if (t < start) timerAt = Number.NEGATIVE_INFINITY;
		if (!pending(t) && (t >= start + frameMs || t < start)) {
			start = t;
			frame++;
		}
	};
	const boundaryFor = (time: number) => start + Math.max(1, Math.round((time - start) / frameMs)) * frameMs;
	const arm = () => {
		let at = boundary.size > 0 ? start + frameMs : Number.POSITIVE_INFINITY;
		for (const deadline of deadlines) at = Math.min(at, boundaryFor(deadline.at));
		const t = now();
		if (at === timerAt && pending(t)) return;
		if (timer !== undefined) clearTimer(timer);
		timer = undefined;
		timerAt = at;
		if (at !== Number.POSITIVE_INFINITY) timer = setTimer(tick, Math.max(0, at - t));
	};
	const tick = () => {
		const t = now();
		// On the grid unless the loop was held up for more than a frame.
		start = t - timerAt < frameMs ? timerAt : t;
		timer = undefined;
		timerAt = Number.POSITIVE_INFINITY;
		frame++;
		const due = [...boundary];
		boundary.clear();
		for (const deadline of deadlines) {
			if (deadline.at < start + frameMs / 2) {
				deadlines.delete(deadline);
				due.push(deadline.fn);
			}
		}
		for (const fn of due) fn();
		arm();
	};

	return {
		frameMs,
		now,
		nextFrame(fn) {
			current(now());
			// A wrapper per call, so the same function queued twice is two entries with their own cancel.
			const entry = () => fn();
			boundary.add(entry);
			arm();
			return () => {
				if (boundary.delete(entry)) arm();
			};
		},
		at(time, fn) {
			current(now());
			const deadline = { at: time, fn };
			deadlines.add(deadline);
			arm();
			return () => {
				if (deadlines.delete(deadline)) arm();
			};
		},
		frame() {
			current(now());
			return frame;
		},
	};
}

/** The app's clock: the UI's frames and, while the app is mounted, the socket reads (src/ai/read-pace.ts) share it. */
export const frameClock: FrameClock = createFrameClock({ frameMs: FRAME_MS });
