// A running `!cmd`'s output as it comes, for showing it live: the end of it, secrets redacted, sent at
// most every SHELL_OUTPUT_MS (a command that floods its output costs one event per interval, not one
// per read). The whole output still comes once, with the `user_shell` event at the end.
import { redactSecrets } from "../safety/secrets.js";

/** How much of the end of the output is kept for showing live (a screen shows a few lines of it). */
export const SHELL_TAIL_CHARS = 4000;
/** At most one update per this many milliseconds. */
export const SHELL_OUTPUT_MS = 50;

export class ShellLiveOutput {
	private tail = "";
	private lastSent = Number.NEGATIVE_INFINITY;
	private timer: ReturnType<typeof setTimeout> | undefined;

	constructor(
		private readonly send: (tail: string) => void,
		private readonly now: () => number = Date.now,
	) {}

	add(text: string): void {
		this.tail = lastWholeLines(this.tail + text, SHELL_TAIL_CHARS);
		if (this.timer) return;
		const wait = this.lastSent + SHELL_OUTPUT_MS - this.now();
		if (wait <= 0) this.flush();
		else this.timer = setTimeout(() => this.flush(), wait);
	}

	/** The command ended: nothing more is sent (its final block replaces the live lines). */
	stop(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
	}

	private flush(): void {
		this.timer = undefined;
		this.lastSent = this.now();
		this.send(redactSecrets(this.tail));
	}
}

/**
 * The end of `text`, at most `max` characters, starting at a line's start when it had to be cut: a
 * secret cut in half at the front would no longer look like one to the redaction.
 */
function lastWholeLines(text: string, max: number): string {
	if (text.length <= max) return text;
	const cut = text.slice(-max);
	const newline = cut.indexOf("\n");
	return newline === -1 ? "" : cut.slice(newline + 1);
}
