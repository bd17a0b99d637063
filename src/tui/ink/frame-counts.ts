// A debugging count of what draws while a reply streams: App renders (and which of their inputs
// changed), renders of the live parts alone, frames the live frame writer drew, and Ink's own counts
// (Yoga layouts, frames rendered from the tree, frames spliced). Only with RUDDER_FRAME_COUNTS=<file>:
// then each second's counts are appended to that file as one JSON line. Without it `frameCounts` is
// undefined and every call site is one optional-chaining check.
import { appendFileSync } from "node:fs";
import { inkFor } from "./ink-instances.js";

export interface FrameCounts {
	/** Counts `name` once (in this second's line). */
	add(name: string): void;
	/** The stdout whose Ink instance's counters are sampled. */
	watch(stdout: object): void;
	/** Counts `${prefix}.${key}` for each of `values` that differs from the last call's with this prefix. */
	changed(prefix: string, values: Record<string, unknown>): void;
}

function createFrameCounts(file: string): FrameCounts {
	let counts: Record<string, number> = {};
	let stdout: object | undefined;
	const last = new Map<string, Record<string, unknown>>();
	let ink = { layouts: 0, renders: 0, spliced: 0, splicedHistory: 0 };
	const flush = () => {
		const instance = stdout ? inkFor(stdout) : undefined;
		// Unmounted (the process is ending): its counters are gone, not back to zero.
		const now = !instance
			? ink
			: {
					layouts: instance?.rudderLayouts ?? 0,
					renders: instance?.rudderRenders ?? 0,
					spliced: instance?.rudderSpliced ?? 0,
					splicedHistory: instance?.rudderSplicedHistory ?? 0,
				};
		const delta = {
			inkLayouts: now.layouts - ink.layouts,
			inkRenders: now.renders - ink.renders,
			inkSpliced: now.spliced - ink.spliced,
			inkSplicedHistory: now.splicedHistory - ink.splicedHistory,
		};
		ink = now;
		const any = Object.keys(counts).length > 0 || Object.values(delta).some((n) => n > 0);
		if (any) appendFileSync(file, `${JSON.stringify({ t: Date.now(), ...counts, ...delta })}\n`);
		counts = {};
	};
	setInterval(flush, 1000).unref();
	process.on("exit", flush);
	return {
		add(name) {
			counts[name] = (counts[name] ?? 0) + 1;
		},
		watch(out) {
			stdout = out;
		},
		changed(prefix, values) {
			const before = last.get(prefix);
			last.set(prefix, values);
			for (const key of Object.keys(values)) if (!before || before[key] !== values[key]) this.add(`${prefix}.${key}`);
		},
	};
}

const file = process.env.RUDDER_FRAME_COUNTS;
export const frameCounts: FrameCounts | undefined = file ? createFrameCounts(file) : undefined;
