// A fenced code block's coloured segments as rows, one source line at a time. Code wraps per source line
// (every row carries the same indent), so a line's rows depend only on its own segments and the width:
// a line the previous call gave at the same place is taken from it (the open fence's finished lines,
// frame after frame), others from a small cache (the block history prints when it closes, a long fence
// whose window moved), as long as their colouring did not change. Their ANSI is made once per row too.
import chalk from "chalk";
import { type Line, type Segment, type Style, toAnsi, wrapSegments } from "../text/styled-text.js";
import { displayWidth, runEnd } from "../text/text-width.js";
import { color } from "../text/theme.js";
import type { CodeSegment } from "./highlight.js";

const CODE_INDENT: Segment[] = [{ text: "  " }];
const WRAP = { firstPrefix: CODE_INDENT, restPrefix: CODE_INDENT, keepIndent: true } as const;

/** Lines cached at most; the cache is emptied when full, so it never grows with history. */
export const CODE_ROW_CACHE_LINES = 512;
const cache = new Map<string, readonly Line[]>();
/** How many lines the cache holds (for its test). */
export const cachedCodeLines = (): number => cache.size;
let reused = 0;
/** How many lines were taken from the previous call so far (for its test). */
export const reusedCodeLines = (): number => reused;

/** One style object per colour: rows only read their styles, and a line's pieces compare by identity. */
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

/** A source line's pieces and the rows they wrapped to. */
interface CodeLine {
	pieces: Segment[];
	rows: readonly Line[];
}

/** The last call's lines at their width: the next frame of the open fence mostly repeats them. */
let previous: { width: number; lines: CodeLine[] } = { width: 0, lines: [] };

const samePieces = (a: readonly Segment[], b: readonly Segment[]): boolean => {
	if (a.length !== b.length) return false;
	for (let i = 0; i < a.length; i++) if (a[i].text !== b[i].text || a[i].style !== b[i].style) return false;
	return true;
};

/** A line's rows from the cache, wrapped on a miss. Lengths keep the key unambiguous whatever the code holds. */
function cachedRows(pieces: Segment[], width: number): readonly Line[] {
	let k = `${width}\u0000`;
	for (const piece of pieces) k += `${piece.style?.color ?? ""}\u0001${piece.text.length}\u0001${piece.text}`;
	let rows = cache.get(k);
	if (rows === undefined) {
		if (cache.size >= CODE_ROW_CACHE_LINES) cache.clear();
		rows = freshRows(pieces, width);
		cache.set(k, rows);
	}
	return rows;
}

/**
 * The row wrapSegments(pieces, width, WRAP) gives for a source line that fits in one: the indent, then
 * each piece cut where a run of spaces starts or ends (as its tokenize cuts them), the spaces after the
 * last word dropped. Undefined when the line needs more than a row (wrapSegments wraps it), also for
 * one longer than the row in UTF-16 units, which seldom fits (its wide characters take more): declining
 * is always right, and a line then walked twice cost more than wrapSegments alone. Most code lines
 * fit, and the line being written is wrapped every frame; wrapSegments' tokens cost more than the wrap.
 */
export function oneRow(pieces: readonly Segment[], width: number): Line | undefined {
	let used = CODE_INDENT[0].text.length;
	for (const piece of pieces) used += piece.text.length;
	if (used > width) return undefined;
	const row: Line = [CODE_INDENT[0]];
	used = CODE_INDENT[0].text.length;
	let kept = row.length;
	for (const { text, style } of pieces) {
		for (let start = 0, end = 0; start < text.length; start = end) {
			end = runEnd(text, start);
			const part = end - start === text.length ? text : text.slice(start, end);
			const space = text.charCodeAt(start) === 32;
			used += space ? part.length : displayWidth(part);
			row.push({ text: part, style });
			if (space) continue;
			// Widths only add up: a word that ends within the row leaves every earlier one within it.
			if (used > width) return undefined;
			kept = row.length;
		}
	}
	row.length = kept;
	return row;
}

/** Rows wrapped without the cache, their ANSI made as the cache's are. */
function freshRows(pieces: Segment[], width: number): readonly Line[] {
	const one = oneRow(pieces, width);
	const rows = one ? [one] : wrapSegments(pieces, width, WRAP);
	for (const row of rows) rememberAnsi(row);
	return rows;
}

/**
 * The rows wrapSegments gives for the whole of `segments` with the code indent kept: split at "\n" as it
 * splits them (empty pieces dropped, so an empty line is one row of indent), each line wrapped alone,
 * after `rows` (a label). The last line skips the cache: in an open fence it is the line being written,
 * new every frame, and would fill the cache with its beginnings.
 */
export function codeRows(segments: readonly CodeSegment[], width: number, rows: Line[] = []): Line[] {
	const before = previous.width === width ? previous.lines : [];
	const lines: CodeLine[] = [];
	let pieces: Segment[] = [];
	const endLine = (last: boolean) => {
		const same = before[lines.length];
		let lineRows: readonly Line[];
		if (same !== undefined && samePieces(same.pieces, pieces)) {
			lineRows = same.rows;
			reused++;
		} else lineRows = last ? freshRows(pieces, width) : cachedRows(pieces, width);
		lines.push({ pieces, rows: lineRows });
		for (const row of lineRows) rows.push(row);
		pieces = [];
	};
	let tint: string | undefined;
	let style: Style | undefined;
	for (const segment of segments) {
		// Neighbouring segments often share a colour (or have none).
		if (segment.color !== tint || style === undefined) {
			tint = segment.color;
			style = styleOf(tint);
		}
		const { text } = segment;
		let from = 0;
		for (let nl = text.indexOf("\n"); ; nl = text.indexOf("\n", from)) {
			const part = nl === -1 ? (from === 0 ? text : text.slice(from)) : text.slice(from, nl);
			if (part) pieces.push({ text: part, style });
			if (nl === -1) break;
			endLine(false);
			from = nl + 1;
		}
	}
	endLine(true);
	previous = { width, lines };
	return rows;
}

/**
 * ANSI of code rows, made when the row is: the tail draws the open fence's finished rows again every
 * frame, the same row objects. Per chalk level, which toAnsi follows (tests change it).
 */
let ansi = new WeakMap<Line, string>();
let ansiLevel = chalk.level;

function ansiOfLevel(): WeakMap<Line, string> {
	if (chalk.level !== ansiLevel) {
		ansi = new WeakMap();
		ansiLevel = chalk.level;
	}
	return ansi;
}

function rememberAnsi(row: Line): void {
	ansiOfLevel().set(row, toAnsi(row));
}

/** toAnsi(row): remembered for the rows codeRows gives, made for any other. */
export const rowAnsi = (row: Line): string => ansiOfLevel().get(row) ?? toAnsi(row);
