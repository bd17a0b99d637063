// At most N tool processes at once (setting `tools.maxProcesses`, default 8). A model that asks for 300
// commands in one reply gets them run 8 at a time instead of forking 300 shells; the others wait in
// order, and their tool rows say so while they wait.
import { onAbort } from "../agent/abort-fanout.js";

export const DEFAULT_MAX_PROCESSES = 8;

interface Waiter {
	grant: () => void;
}

export class ProcessSlots {
	private used = 0;
	private readonly queue: Waiter[] = [];

	constructor(private max = DEFAULT_MAX_PROCESSES) {}

	/** Changes the limit; waiters are let in at once if it grew. */
	setLimit(max: number): void {
		this.max = Math.max(1, Math.floor(max));
		this.drain();
	}

	get limit(): number {
		return this.max;
	}

	get running(): number {
		return this.used;
	}

	/** True when `acquire` would have to wait. */
	get isFull(): boolean {
		return this.used >= this.max;
	}

	/**
	 * Resolves with a release function once a slot is free (in request order). Rejects with `abortError()`
	 * if `signal` aborts while waiting; the release must be called exactly once otherwise.
	 */
	acquire(signal: AbortSignal | undefined, abortError: () => Error): Promise<() => void> {
		if (signal?.aborted) return Promise.reject(abortError());
		return new Promise((resolve, reject) => {
			let cancel: (() => void) | undefined;
			const waiter: Waiter = {
				grant: () => {
					cancel?.();
					this.used++;
					resolve(this.releaser());
				},
			};
			if (!this.isFull && this.queue.length === 0) return waiter.grant();
			this.queue.push(waiter);
			if (signal) {
				cancel = onAbort(signal, () => {
					const at = this.queue.indexOf(waiter);
					if (at !== -1) this.queue.splice(at, 1);
					reject(abortError());
				});
			}
		});
	}

	/**
	 * Takes a slot now, also when none is free: for a process that holds one already and moves (a
	 * foreground command moved to the background keeps counting). Release it exactly once.
	 */
	hold(): () => void {
		this.used++;
		return this.releaser();
	}

	private releaser(): () => void {
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.used--;
			this.drain();
		};
	}

	private drain(): void {
		while (this.used < this.max && this.queue.length > 0) this.queue.shift()?.grant();
	}
}

/** The process-wide slots every bash tool uses unless given its own. */
export const toolProcessSlots = new ProcessSlots();
