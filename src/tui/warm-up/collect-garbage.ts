// One full garbage collection, asked for while the app is idle. Start-up (loading the bundle, writing
// the code cache, the warm-ups of warm-up.ts) leaves the heap near V8's first old-generation limit,
// so the first reply's allocations crossed it: a scavenge and a major collection (~12 ms on the main
// thread, more on V8's marking threads) landed in that reply. Collected at a pause in typing instead,
// the limit is then set from what is live, and the first reply runs with the headroom a later one has.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * V8's `gc()`, which it installs only in contexts made while `--expose-gc` is set: set for the one
 * context made here and unset at once, so no other code runs with it (and the code cache's flag check
 * sees the flags it was written with). Undefined when this Node does not give it.
 */
function fullCollector(): (() => void) | undefined {
	try {
		setFlagsFromString("--expose-gc");
		const gc: unknown = runInNewContext("typeof gc === 'function' ? gc : undefined");
		return typeof gc === "function" ? (gc as () => void) : undefined;
	} catch {
		return undefined;
	} finally {
		setFlagsFromString("--no-expose-gc");
	}
}

/** Runs one full collection now; false when there is no way to. The context that gave it is then garbage too. */
export function collectGarbage(): boolean {
	const gc = fullCollector();
	gc?.();
	return gc !== undefined;
}
