// When a paced socket read may happen again (src/ai/providers/http-post.ts; docs/streaming.md,
// "Paced socket reads"). After a read the socket is left unread until the pace's next boundary, so
// the kernel gathers ~10 tokens into one read instead of ten wake-ups.
//
// The model layer knows no UI, so the pace is a seam. Left alone, reads keep a grid of their own
// (print, json, rpc: no frames to share a wake-up with). The interactive app puts its frame clock
// here while it is mounted (src/tui/mount.ts), so a read resumes at the boundary where the frame
// for it is drawn, in the same wake-up (src/tui/frame/frame-clock.ts, "One clock").

/** The boundaries paced reads resume at. The TUI's frame clock is one. */
export interface ReadPace {
	/** Runs `fn` once at the next boundary. Returns its cancel. */
	nextFrame(fn: () => void): () => void;
}

/** The reads' own grid: the UI's frame (FRAME_MS of src/tui/frame/frame-clock.ts), so a print run reads as the app does. */
export const READ_PACE_MS = 50;

/** Time and timers injected (the frame clock takes the same). */
export interface PaceDeps {
	frameMs: number;
	now?: () => number;
	setTimer?: (fn: () => void, ms: number) => unknown;
	clearTimer?: (handle: unknown) => void;
}

/**
 * Boundaries every `frameMs` on a grid that starts at the first call: a call within the current interval
 * gets its end, a call after a quiet interval starts a new one (as the frame clock does for a lone
 * reader). Each call has its own timer: only paced reads use it.
 */
export function gridPace(deps: PaceDeps): ReadPace {
	const ms = deps.frameMs;
	const now = deps.now ?? (() => performance.now());
	const setTimer = deps.setTimer ?? ((fn, delay) => setTimeout(fn, delay));
	const clearTimer = deps.clearTimer ?? ((handle) => clearTimeout(handle as NodeJS.Timeout));
	let start = Number.NEGATIVE_INFINITY;
	return {
		nextFrame(fn) {
			const t = now();
			// A clock stepped back (tests' fake time) starts a new interval too.
			if (t >= start + ms || t < start) start = t;
			const at = start + ms;
			const timer = setTimer(() => {
				// On the grid unless the loop was held up for more than an interval.
				const fired = now();
				start = fired - at < ms ? at : fired;
				fn();
			}, at - t);
			return () => clearTimer(timer);
		},
	};
}

let current: ReadPace = gridPace({ frameMs: READ_PACE_MS });

/** The pace a read started now follows. */
export function readPace(): ReadPace {
	return current;
}

/** Reads started from now on follow `pace` (the app's frame clock); returns the restore of the one before. */
export function paceReadsBy(pace: ReadPace): () => void {
	const before = current;
	current = pace;
	return () => {
		current = before;
	};
}
