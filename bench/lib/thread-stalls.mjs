// Event-loop stalls split into what the main thread itself ran and what it waited for a core (on a
// loaded 2-core machine most long stalls are the latter): the loop is sampled every `resolution` ms
// and, at each sample, the main thread's own counters from /proc/self/task/<pid>/schedstat (ns on a
// core, ns waiting in the run queue). Linux only; elsewhere the on-core split is absent.
import { readFileSync } from "node:fs";

const schedstat = `/proc/self/task/${process.pid}/schedstat`;

function mainThread() {
	try {
		const [run, wait] = readFileSync(schedstat, "utf8").split(" ").map(Number);
		return { run, wait };
	} catch {
		return undefined;
	}
}

/**
 * `{ ms, stallMs, stallOnCoreMs, maxOnCoreMs, value }` of `fn()`: the longest gap between samples
 * (minus the resolution), the time the main thread ran during that gap, and the most it ran in any gap.
 */
export async function withThreadStalls(fn, resolution = 2) {
	let last = performance.now();
	let lastThread = mainThread();
	let stallMs = 0;
	let stallOnCoreMs;
	let maxOnCoreMs;
	const timer = setInterval(() => {
		const now = performance.now();
		const thread = mainThread();
		const gap = now - last - resolution;
		const onCore = thread && lastThread ? (thread.run - lastThread.run) / 1e6 : undefined;
		if (gap > stallMs) {
			stallMs = gap;
			stallOnCoreMs = onCore;
		}
		if (onCore !== undefined && (maxOnCoreMs === undefined || onCore > maxOnCoreMs)) maxOnCoreMs = onCore;
		last = now;
		lastThread = thread;
	}, resolution);
	const start = performance.now();
	try {
		const value = await fn();
		return { ms: performance.now() - start, stallMs: Math.max(0, stallMs), stallOnCoreMs, maxOnCoreMs, value };
	} finally {
		clearInterval(timer);
	}
}
