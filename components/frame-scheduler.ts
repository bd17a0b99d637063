// When React hears about session events. Per-token updates are coalesced to at most one frame per
// FRAME_MS; every other event (a run ending after Esc, a tool starting, the queue changing) is rare
// and is what the user is waiting to see, so it is drawn at once. Plain TypeScript, timers injected.

export interface FrameSchedulerDeps {
	frameMs: number;
	/** Tells React to render. */
	flush: () => void;
	now?: () => number;
	setTimer?: (fn: () => void, ms: number) => unknown;
	clearTimer?: (handle: unknown) => void;
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

export function createFrameScheduler(deps: FrameSchedulerDeps) {
	const now = deps.now ?? Date.now;
	const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
	const clearTimer = deps.clearTimer ?? ((h) => clearTimeout(h as NodeJS.Timeout));
	let timer: unknown;
	let lastFlush = Number.NEGATIVE_INFINITY;

	const flush = () => {
		if (timer !== undefined) clearTimer(timer);
		timer = undefined;
		lastFlush = now();
		deps.flush();
	};

	return {
		/** Call after the view has taken the event in. */
		onEvent(type: string): void {
			if (!COALESCED.has(type)) {
				flush();
				return;
			}
			if (timer !== undefined) return;
			// Leading edge after a quiet spell, trailing edge while tokens keep coming.
			timer = setTimer(flush, Math.max(0, deps.frameMs - (now() - lastFlush)));
		},
		dispose(): void {
			if (timer !== undefined) clearTimer(timer);
			timer = undefined;
		},
	};
}
