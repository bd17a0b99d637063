// The status line under the live reply when the run is doing something other than streaming: a retry
// wait counts down to the next attempt from the phase's `until` (the app re-renders a few times a
// second while a run is active), so a 429 is never a silent "working". `stop` is the key-table hint
// (" · Esc stops"). Undefined while the run just works (the app shows its "working" line).
import type { RunPhase } from "../../session/types.js";

export function runStatusText(phase: RunPhase, now: number, stop = " · Esc stops"): string | undefined {
	switch (phase.kind) {
		case "retrying": {
			const seconds = Math.max(0, Math.ceil((phase.until - now) / 1000));
			return `retrying in ${seconds} s (${phase.reason})${stop}`;
		}
		case "compacting":
			return `compacting the context${stop}`;
		case "awaiting-approval":
			return "waiting for approval";
		default:
			return undefined;
	}
}
