// Reads a file line by line in fixed-size chunks, so memory stays bounded by the longest line kept:
// a line longer than `maxLineBytes` is skipped while it is read (its bytes are counted, never joined),
// so a 1 GB line in a session file costs one chunk of memory, not one 1 GB string.
import { closeSync, openSync, readSync } from "node:fs";

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

export type FileLine =
	/** `last`: the file ended without a newline after this line (a torn write, if it does not parse). */
	{ lineNo: number; bytes: Buffer; last: boolean } | { lineNo: number; tooLong: number; last: boolean };

export interface ReadLinesOptions {
	/** Lines longer than this are reported as `tooLong` (their length in bytes). Default 64 MiB. */
	maxLineBytes?: number;
}

/** The lines of `path`, numbered from 1, without their "\n" (and "\r"). Throws if the file cannot be opened. */
export function* readLines(path: string, options: ReadLinesOptions = {}): Generator<FileLine> {
	const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
	const fd = openSync(path, "r");
	const chunk = Buffer.alloc(CHUNK_BYTES);
	let parts: Buffer[] = [];
	let partBytes = 0;
	let skipped = -1; // bytes of a line being skipped, or -1
	let lineNo = 1;
	const finish = (tail: Buffer, last: boolean): FileLine => {
		let line: FileLine;
		if (skipped >= 0 || partBytes + tail.length > max) line = { lineNo, tooLong: Math.max(skipped, 0) + partBytes + tail.length, last };
		else {
			let bytes = parts.length === 0 ? Buffer.from(tail) : Buffer.concat([...parts, tail]);
			if (bytes.at(-1) === 0x0d) bytes = bytes.subarray(0, -1);
			line = { lineNo, bytes, last };
		}
		parts = [];
		partBytes = 0;
		skipped = -1;
		lineNo++;
		return line;
	};
	try {
		for (;;) {
			const read = readSync(fd, chunk, 0, CHUNK_BYTES, null);
			if (read === 0) break;
			let start = 0;
			for (let nl = chunk.indexOf(0x0a, start); nl !== -1 && nl < read; nl = chunk.indexOf(0x0a, start)) {
				yield finish(chunk.subarray(start, nl), false);
				start = nl + 1;
			}
			if (start < read) {
				const rest = chunk.subarray(start, read);
				if (skipped >= 0) skipped += rest.length;
				else if (partBytes + rest.length > max) {
					skipped = partBytes + rest.length;
					parts = [];
					partBytes = 0;
				} else {
					parts.push(Buffer.from(rest));
					partBytes += rest.length;
				}
			}
		}
		if (partBytes > 0 || skipped >= 0) yield finish(Buffer.alloc(0), true);
	} finally {
		closeSync(fd);
	}
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A line's text, without a byte-order mark at its start (editors on Windows add one to line 1). */
export function lineText(bytes: Buffer): string {
	const start = bytes.subarray(0, 3).equals(BOM) ? 3 : 0;
	return bytes.toString("utf8", start);
}
