// Wall time of an async piece of work and the longest event-loop stall while it ran (what a key
// typed meanwhile would have waited for).
import { monitorEventLoopDelay } from "node:perf_hooks";

/** `{ ms, stallMs, value }` of `fn()`; the stall is sampled every `resolution` ms. */
export async function withStalls(fn, resolution = 5) {
	const delay = monitorEventLoopDelay({ resolution });
	delay.enable();
	const start = performance.now();
	const value = await fn();
	const ms = performance.now() - start;
	delay.disable();
	return { ms, stallMs: delay.max / 1e6, value };
}
