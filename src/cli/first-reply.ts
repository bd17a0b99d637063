// Calls back once the session has answered its first prompt and then stayed idle for a while: the
// moment bin/rudder.js adds the functions a reply compiled to the code cache (docs/startup.md). Idle,
// so the write never lands in a reply or under a keystroke; a run that starts meanwhile postpones it.
// It watches phases (`watchPhases`), not events: a subscriber installed before the UI's would take the
// notices the session keeps for its first subscriber.
import type { RunPhase } from "../session/types.js";

/** How long the session must stay idle after a run before the callback. */
export const FIRST_REPLY_IDLE_MS = 1500;

/** Watches until `callback` has run once; returns the stop. */
export function afterFirstReply(
	session: { watchPhases(watcher: (phase: RunPhase) => void): () => void },
	callback: () => void,
	idleMs = FIRST_REPLY_IDLE_MS,
): () => void {
	let ran = false;
	let started = false;
	let timer: ReturnType<typeof setTimeout> | undefined;
	const stop = () => {
		clearTimeout(timer);
		unwatch();
	};
	const unwatch = session.watchPhases((phase) => {
		if (ran) return;
		clearTimeout(timer);
		if (phase.kind === "running") started = true;
		if (phase.kind !== "idle" || !started) return;
		timer = setTimeout(() => {
			ran = true;
			stop();
			callback();
		}, idleMs);
		timer.unref?.();
	});
	return stop;
}
