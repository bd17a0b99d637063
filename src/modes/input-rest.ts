// Start-up work that holds the main thread for tens of milliseconds in one piece (starting MCP
// servers: evaluating the SDK's modules and schemas, spawning the processes) waits until the keyboard
// rests, so it falls between keystrokes instead of under one. A key typed while it runs waits for all
// of it: a user who starts typing as soon as the input shows saw 80 ms instead of 25 ms.

/** The terminal's input as the app reads it: every chunk of keys makes it readable. */
export interface InputSource {
	on(event: "readable", listener: () => void): unknown;
	off(event: "readable", listener: () => void): unknown;
}

export interface RestOptions {
	/** Quiet needed since the last key (and since the call: the first frame has just been drawn). */
	restMs?: number;
	/** Runs by then even while keys keep coming, so the work is never put off for long. */
	maxWaitMs?: number;
	now?: () => number;
}

/** Longer than the app takes to draw a key, shorter than the gap between two keys of most typists. */
export const INPUT_REST_MS = 150;
export const MAX_WAIT_MS = 2_000;

/**
 * Runs `work` once `input` has had no keys for `restMs`, or `maxWaitMs` after the call at the latest.
 * Only listens: the app's own reader still reads every key. Returns a cancel (after which nothing runs).
 */
export function whenInputRests(input: InputSource, work: () => void, options: RestOptions = {}): () => void {
	const { restMs = INPUT_REST_MS, maxWaitMs = MAX_WAIT_MS, now = Date.now } = options;
	const start = now();
	let lastKeyAt = start;
	let timer: NodeJS.Timeout | undefined;
	let done = false;
	const onKeys = () => {
		lastKeyAt = now();
	};
	const finish = () => {
		done = true;
		clearTimeout(timer);
		input.off("readable", onKeys);
	};
	const check = () => {
		if (done) return;
		const t = now();
		const wait = Math.min(lastKeyAt + restMs, start + maxWaitMs) - t;
		if (wait > 0) {
			timer = setTimeout(check, wait);
			return;
		}
		finish();
		work();
	};
	input.on("readable", onKeys);
	timer = setTimeout(check, restMs);
	return finish;
}
