// Incremental markdown: streamed text is cut into blocks as soon as they close (a blank line outside a
// code fence, a heading line, a closing fence). Closed blocks are final and go to history; only the
// open tail stays live. Each push scans only the new text, so the cost per token does not grow with
// the length of the reply.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** What `push` returns when nothing closed: one shared, frozen array instead of a new one per token. */
const NONE: readonly string[] = Object.freeze([]);
const HEADING = /^ {0,3}#{1,6}(\s|$)/;

export class MarkdownBlockSplitter {
	/** Text after the last closed block. */
	private open = "";
	/** Where the current, unfinished line starts inside `open`. */
	private lineStart = 0;
	/** The open fence's marker while inside a code block. */
	private fence: string | undefined;

	/** Adds streamed text; returns the blocks it closed, oldest first. */
	push(delta: string): readonly string[] {
		// `open` holds no newline after `lineStart` (the loop below runs until there is none), so the
		// first one is the delta's. Most deltas have none: searching `open` would flatten the whole
		// open block's string once per token, a copy as long as the block.
		const first = delta.indexOf("\n");
		this.open += delta;
		if (first === -1) return NONE;
		const closed: string[] = [];
		let nl = this.open.length - delta.length + first;
		while (nl !== -1) {
			const line = this.open.slice(this.lineStart, nl);
			const endOfLine = nl + 1;
			if (this.fence !== undefined) {
				const close = FENCE.exec(line);
				if (close && close[1][0] === this.fence[0] && close[1].length >= this.fence.length && !line.trim().slice(close[1].length).trim()) {
					this.fence = undefined;
					this.cut(endOfLine, closed);
				} else this.lineStart = endOfLine;
			} else if (!line.trim()) {
				this.cut(endOfLine, closed);
			} else if (FENCE.test(line)) {
				// A fence interrupts a paragraph: what came before it is a block of its own.
				this.cut(this.lineStart, closed);
				this.fence = FENCE.exec(line)![1];
				this.lineStart = this.open.indexOf("\n") + 1;
			} else if (HEADING.test(line)) {
				this.cut(this.lineStart, closed);
				this.cut(this.open.indexOf("\n") + 1, closed);
			} else this.lineStart = endOfLine;
			nl = this.open.indexOf("\n", this.lineStart);
		}
		return closed;
	}

	/** The unfinished block (what the live region shows). */
	get tail(): string {
		return this.open;
	}

	/** Ends the stream: the open tail becomes the last block (if it has any text). */
	finish(): string[] {
		const rest = this.open.replace(/\n+$/, "");
		this.open = "";
		this.lineStart = 0;
		this.fence = undefined;
		return rest.trim() ? [rest] : [];
	}

	private cut(at: number, closed: string[]): void {
		const block = this.open.slice(0, at).replace(/\n+$/, "");
		if (block.trim()) closed.push(block);
		this.open = this.open.slice(at);
		this.lineStart = 0;
	}
}
