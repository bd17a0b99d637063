// A fenced code block's coloured segments as rows, one source line at a time through a small cache. Code
// wraps per source line (every row carries the same indent), so a line's rows depend only on its own
// segments and the width: the open fence's finished lines come out of the cache frame after frame, and
// so do the lines of the block history prints when it closes, as long as their colouring did not change.
import { type Line, type Segment, type Style, wrapSegments } from "../render/styled-text.js";
import { color } from "../theme.js";
import type { CodeSegment } from "./highlight.js";

const CODE_INDENT: Segment[] = [{ text: "  " }];
const WRAP = { firstPrefix: CODE_INDENT, restPrefix: CODE_INDENT, keepIndent: true } as const;

/** Lines cached at most; the cache is emptied when full, so it never grows with history. */
export const CODE_ROW_CACHE_LINES = 512;
const cache = new Map<string, readonly Line[]>();
/** How many lines the cache holds (for its test). */
export const cachedCodeLines = (): number => cache.size;

/** One style object per colour: rows only read their styles. */
const styles = new Map<string, Style>();
const styleOf = (name: string | undefined): Style | undefined => {
	const resolved = color(name);
	if (resolved === undefined) return undefined;
	let style = styles.get(resolved);
	if (!style) {
		style = { color: resolved };
		styles.set(resolved, style);
	}
	return style;
};

/** A line's rows from the cache, wrapped on a miss. */
function lineRows(line: Segment[], key: string, width: number): readonly Line[] {
	const k = `${width}\u0000${key}`;
	let rows = cache.get(k);
	if (rows === undefined) {
		if (cache.size >= CODE_ROW_CACHE_LINES) cache.clear();
		rows = wrapSegments(line, width, WRAP);
		cache.set(k, rows);
	}
	return rows;
}

/**
 * The rows wrapSegments gives for the whole of `segments` with the code indent kept: split at "\n" as it
 * splits them (empty pieces dropped, so an empty line is one row of indent), each line wrapped alone.
 */
export function codeRows(segments: readonly CodeSegment[], width: number): Line[] {
	const rows: Line[] = [];
	let line: Segment[] = [];
	let key = "";
	for (const segment of segments) {
		const style = styleOf(segment.color);
		const tint = style?.color ?? "";
		let from = 0;
		for (let nl = segment.text.indexOf("\n"); ; nl = segment.text.indexOf("\n", from)) {
			const part = nl === -1 ? segment.text.slice(from) : segment.text.slice(from, nl);
			if (part) {
				line.push({ text: part, style });
				// Lengths keep the key unambiguous whatever the code holds.
				key += `${tint}\u0001${part.length}\u0001${part}`;
			}
			if (nl === -1) break;
			for (const row of lineRows(line, key, width)) rows.push(row);
			line = [];
			key = "";
			from = nl + 1;
		}
	}
	for (const row of lineRows(line, key, width)) rows.push(row);
	return rows;
}
