// One "abort" listener per signal, fanning out to a Set. A run hands one signal to every model call and
// every tool call: a listener each would cost microseconds per add/remove over long runs, and more than
// ten at once (300 parallel bash calls) makes Node print a MaxListenersExceededWarning on stderr.

const watchers = new WeakMap<AbortSignal, Set<() => void>>();

function callbacksOf(signal: AbortSignal): Set<() => void> {
	let callbacks = watchers.get(signal);
	if (!callbacks) {
		const set = new Set<() => void>();
		callbacks = set;
		watchers.set(signal, set);
		signal.addEventListener(
			"abort",
			() => {
				for (const callback of [...set]) callback();
				set.clear();
			},
			{ once: true },
		);
	}
	return callbacks;
}

/** Calls `callback` once when `signal` aborts (not if it already has); returns the canceller. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
	const callbacks = callbacksOf(signal);
	callbacks.add(callback);
	return () => {
		callbacks.delete(callback);
	};
}
