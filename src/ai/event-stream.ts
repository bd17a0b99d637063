import type { AssistantMessage, AssistantMessageEvent } from "./types.js";

/**
 * A push-based async-iterable stream with a final result (docs/agent-contract.md §1). Producers `push` events; the
 * stream completes on the first event `isComplete` accepts (that event is still delivered) or on `end`.
 * Events pushed after completion are dropped.
 */
export class EventStream<T, R = T> implements AsyncIterable<T> {
	private queue: T[] = [];
	/** Read position in `queue`: `shift()` is O(n) on large arrays, and a burst of 100k deltas made draining O(n²). */
	private head = 0;
	private waiters: ((r: IteratorResult<T>) => void)[] = [];
	private done = false;
	private resolveResult!: (r: R) => void;
	private readonly resultPromise: Promise<R>;

	constructor(
		private readonly isComplete: (event: T) => boolean,
		private readonly extractResult: (event: T) => R,
	) {
		this.resultPromise = new Promise<R>((resolve) => {
			this.resolveResult = resolve;
		});
	}

	push(event: T): void {
		if (this.done) return;
		if (this.isComplete(event)) {
			this.done = true;
			this.resolveResult(this.extractResult(event));
		}
		const waiter = this.waiters.shift();
		if (waiter) waiter({ value: event, done: false });
		else this.queue.push(event);
		if (this.done) this.wakeAllDone();
	}

	end(result?: R): void {
		if (!this.done) {
			this.done = true;
			if (result !== undefined) this.resolveResult(result);
		}
		this.wakeAllDone();
	}

	/** The final result; never settles if the stream ends without a completing event or `end(result)`. */
	result(): Promise<R> {
		return this.resultPromise;
	}

	private wakeAllDone(): void {
		// Waiters exist only when the queue is empty, so completing them now loses nothing.
		for (const waiter of this.waiters.splice(0)) waiter({ value: undefined as never, done: true });
	}

	[Symbol.asyncIterator](): AsyncIterator<T> {
		return {
			next: (): Promise<IteratorResult<T>> => {
				if (this.head < this.queue.length) {
					const value = this.queue[this.head++] as T;
					if (this.head === this.queue.length) {
						this.queue = [];
						this.head = 0;
					}
					return Promise.resolve({ value, done: false });
				}
				if (this.done) return Promise.resolve({ value: undefined as never, done: true });
				return new Promise((resolve) => this.waiters.push(resolve));
			},
			return: (): Promise<IteratorResult<T>> => Promise.resolve({ value: undefined as never, done: true }),
		};
	}
}

export class AssistantMessageEventStream extends EventStream<AssistantMessageEvent, AssistantMessage> {
	constructor() {
		super(
			(e) => e.type === "done" || e.type === "error",
			(e) => {
				if (e.type === "done") return e.message;
				if (e.type === "error") return e.error;
				throw new Error("not a terminal event");
			},
		);
	}
}

export function createAssistantMessageEventStream(): AssistantMessageEventStream {
	return new AssistantMessageEventStream();
}
