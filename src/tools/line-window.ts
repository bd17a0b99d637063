// Reads a window of lines from an open file in fixed-size positioned reads, so memory depends on the
// window, never on the file: a 5 GB log costs one chunk plus the lines kept. Lines are seen the way
// `decodeText` shows them (no BOM, "\r\n" as "\n"), each cut to `maxLineChars`.
import type { FileHandle } from "node:fs/promises";
import { throwIfAborted } from "./abort.js";
import { truncateLine } from "./truncate.js";

const CHUNK_BYTES = 64 * 1024;

export interface LineWindowRequest {
	/** 0-based first line to keep. */
	start: number;
	/** Most lines to keep. */
	maxLines: number;
	/** Stop keeping lines once the kept lines (cut, joined by "\n") exceed this many bytes. */
	maxBytes: number;
	/** Longest kept line, in characters; longer ones get the `truncateLine` note. */
	maxLineChars: number;
	/** After the window, go on counting lines until this many bytes of the file were read. */
	countBytes: number;
	signal?: AbortSignal;
}

export interface LineWindow {
	lines: string[];
	/** Lines in the file; exact only when `complete`. */
	totalLines: number;
	/** True when the whole file was read, so `totalLines` is exact. */
	complete: boolean;
}

/** One line being assembled: its first bytes (enough for the cut) and how long it really is. */
class LineBuffer {
	private parts: Buffer[] = [];
	private keptBytes = 0;
	/** Characters counted as UTF-8 lead bytes, for lines too long to keep whole. */
	private chars = 0;
	private bytes = 0;
	private lastByte = -1;

	constructor(private readonly keepBytes: number) {}

	get isEmpty(): boolean {
		return this.bytes === 0;
	}

	add(chunk: Buffer, from: number, to: number, keep: boolean): void {
		if (to <= from) return;
		this.bytes += to - from;
		this.lastByte = chunk[to - 1] ?? -1;
		if (!keep) return;
		for (let i = from; i < to; i++) if (((chunk[i] as number) & 0xc0) !== 0x80) this.chars++;
		const room = this.keepBytes - this.keptBytes;
		if (room > 0) {
			const piece = Buffer.from(chunk.subarray(from, Math.min(to, from + room)));
			this.parts.push(piece);
			this.keptBytes += piece.length;
		}
	}

	/** The line as shown, cut to `maxChars`; empties the buffer. */
	take(maxChars: number, isFirst: boolean): string {
		let text = Buffer.concat(this.parts).toString("utf8");
		const whole = this.keptBytes === this.bytes;
		const endsWithCr = this.lastByte === 13;
		const chars = this.chars;
		this.reset();
		if (isFirst && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
		if (!whole) return `${text.slice(0, maxChars)}... [line truncated, ${chars} chars]`;
		if (endsWithCr) text = text.slice(0, -1);
		return truncateLine(text, maxChars).text;
	}

	reset(): void {
		this.parts = [];
		this.keptBytes = 0;
		this.chars = 0;
		this.bytes = 0;
		this.lastByte = -1;
	}
}

/** Reads `request`'s window of `handle`'s lines; see `LineWindowRequest`. */
export async function readLineWindow(handle: FileHandle, request: LineWindowRequest): Promise<LineWindow> {
	const { start, maxLines, maxBytes, maxLineChars, countBytes, signal } = request;
	// Four bytes per character at most, plus a "\r": enough to cut any line exactly.
	const line = new LineBuffer(maxLineChars * 4 + 1);
	const lines: string[] = [];
	const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
	let keptBytes = 0;
	let lineNo = 0;
	let position = 0;
	let windowDone = maxLines === 0;
	for (;;) {
		if (windowDone && position >= countBytes) return { lines, totalLines: lineNo, complete: false };
		throwIfAborted(signal);
		const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position);
		if (bytesRead === 0) break;
		position += bytesRead;
		let from = 0;
		while (from < bytesRead) {
			const newline = chunk.indexOf(10, from);
			const to = newline === -1 || newline >= bytesRead ? bytesRead : newline;
			const inWindow = !windowDone && lineNo >= start;
			line.add(chunk, from, to, inWindow);
			if (to === bytesRead) break;
			if (inWindow) {
				const text = line.take(maxLineChars, lineNo === 0);
				lines.push(text);
				keptBytes += Buffer.byteLength(text) + 1;
				windowDone = lines.length >= maxLines || keptBytes > maxBytes;
			} else line.reset();
			lineNo++;
			from = to + 1;
		}
	}
	// A final newline ends the last line; it does not start another (an empty file is one empty line).
	if (!line.isEmpty || lineNo === 0) {
		if (!windowDone && lineNo >= start) lines.push(line.take(maxLineChars, lineNo === 0));
		lineNo++;
	}
	return { lines, totalLines: lineNo, complete: true };
}
