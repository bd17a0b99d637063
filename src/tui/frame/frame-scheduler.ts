// When React hears about session events. Per-token updates are coalesced to at most one frame per
// frame of the app's clock (src/tui/frame/frame-clock.ts, shared with the paced socket reads): the first
// after a quiet spell, or right after a read at a frame boundary, is drawn in the same turn once the
// burst's events are in; one arriving in a frame already drawn waits for the next boundary. Every
// other event (a run ending after Esc, a tool starting, the queue changing) is rare and is what the
// user is waiting to see, so it is drawn at once. Plain TypeScript, clock and deferral injected.
import type { FrameClock } from "./frame-clock.js";

export interface FrameSchedulerDeps {
	clock: FrameClock;
	/** Tells React to render. */
	flush: () => void;
	/**
	 * Runs `fn` once the current turn's events are all in (setImmediate: after the read burst's
	 * promise hops, before the loop sleeps). Returns its cancel.
	 */
	defer?: (fn: () => void) => () => void;
}

/**
 * A counter the live tail's components subscribe to (React's useSyncExternalStore): a frame in which
 * only the streaming tail moved bumps it, and React renders those components alone, not the App.
 */
export interface LiveTick {
	get(): number;
	/** When it was last bumped (Date.now()), for the app's idle timer. */
	at(): number;
	subscribe(listener: () => void): () => void;
	bump(): void;
}

export function createLiveTick(now: () => number = Date.now): LiveTick {
	let count = 0;
	let at = 0;
	const listeners = new Set<() => void>();
	return {
		get: () => count,
		at: () => at,
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		bump() {
			count++;
			at = now();
			for (const listener of listeners) listener();
		},
	};
}

/** Events that arrive per token or per output chunk. */
const COALESCED = new Set(["message_update", "tool_execution_update"]);

const afterThisTurn = (fn: () => void) => {
	const handle = setImmediate(fn);
	return () => clearImmediate(handle);
};

export function createFrameScheduler(deps: FrameSchedulerDeps) {
	const { clock } = deps;
	const defer = deps.defer ?? afterThisTurn;
	let cancel: (() => void) | undefined;
	// The clock's frame this scheduler last drew in (each App has its own; the clock is shared).
	let drawnIn: number | undefined;

	const draw = () => {
		cancel = undefined;
		deps.flush();
	};

	return {
		/** Call after the view has taken the event in. */
		onEvent(type: string): void {
			if (!COALESCED.has(type)) {
				cancel?.();
				draw();
				return;
			}
			if (cancel !== undefined) return;
			const frame = clock.frame();
			if (frame !== drawnIn) {
				drawnIn = frame;
				cancel = defer(draw);
				return;
			}
			cancel = clock.nextFrame(() => {
				drawnIn = clock.frame();
				draw();
			});
		},
		dispose(): void {
			cancel?.();
			cancel = undefined;
		},
	};
}
