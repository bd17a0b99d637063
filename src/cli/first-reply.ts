// Calls back once the session has answered its first prompt and then stayed idle for a moment: the
// moment bin/rudder.js adds the functions a reply compiled to the code cache (docs/startup.md). Idle,
// so the write never lands in a reply, and, given the terminal's input, never under a keystroke; a run
// that starts meanwhile postpones it. It watches phases (`watchPhases`), not events: a subscriber
// installed before the UI's would take the notices the session keeps for its first subscriber.
import { type InputSource, whenInputRests } from "../modes/input-rest.js";
import type { RunPhase } from "../session/types.js";

/**
 * How long the session must stay idle after a run (and the keyboard rest) before the callback. Short:
 * a process that ends soon after its first reply, or whose user sends the next prompt a second or two
 * later, would otherwise never write the reply stage, and every later launch would compile the reply's
 * functions again in its first reply (~17 CPU-ms of a 500-token reply). The write (~45 ms) waits for
 * the keyboard to rest, so it falls between keys.
 */
export const FIRST_REPLY_IDLE_MS = 300;

/** Watches until `callback` has run once; returns the stop. `input`: the terminal's keys, if any. */
export function afterFirstReply(
	session: { watchPhases(watcher: (phase: RunPhase) => void): () => void },
	callback: () => void,
	options: { idleMs?: number; input?: InputSource } = {},
): () => void {
	const idleMs = options.idleMs ?? FIRST_REPLY_IDLE_MS;
	let ran = false;
	let started = false;
	let timer: ReturnType<typeof setTimeout> | undefined;
	let cancelRest = () => {};
	const disarm = () => {
		clearTimeout(timer);
		cancelRest();
	};
	const stop = () => {
		disarm();
		unwatch();
	};
	const fire = () => {
		ran = true;
		stop();
		callback();
	};
	const unwatch = session.watchPhases((phase) => {
		if (ran) return;
		disarm();
		if (phase.kind === "running") started = true;
		if (phase.kind !== "idle" || !started) return;
		timer = setTimeout(() => {
			if (!options.input) return fire();
			// A typist may never pause for long: the write waits for a rest, however late (a run cancels it).
			cancelRest = whenInputRests(options.input, fire, { restMs: idleMs, maxWaitMs: Number.POSITIVE_INFINITY });
		}, idleMs);
		timer.unref?.();
	});
	return stop;
}
