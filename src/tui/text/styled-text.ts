// Styled text as data, wrapped by us and turned into ANSI once. History items are printed through this
// instead of nested Ink <Text>/<Box> trees: Ink then gets one string per item whose lines already fit
// the terminal, so it never runs Yoga text measurement or wrap-ansi (~4 µs per character) on them.
import chalk from "chalk";
import { displayWidth, runEnd } from "./text-width.js";

/** How a run of text looks. Colours are Ink colour names (or #hex); undefined means the default. */
export interface Style {
	bold?: boolean;
	dim?: boolean;
	italic?: boolean;
	underline?: boolean;
	strikethrough?: boolean;
	color?: string;
}

/** A run of text in one style. Text may hold "\n" before wrapping; wrapped lines never do. */
export interface Segment {
	text: string;
	style?: Style;
}

/** One terminal row. */
export type Line = Segment[];

export interface WrapOptions {
	/** Printed before the first row (e.g. a list bullet); its width is taken from the row. */
	firstPrefix?: Segment[];
	/** Printed before every other row, hard line breaks included (e.g. a hanging indent). */
	restPrefix?: Segment[];
	/** Rows wrapped out of one source line repeat that line's leading spaces (code, tool output). */
	keepIndent?: boolean;
}

/** `style` laid over `base`: the inner style wins where it says something. */
export function mergeStyle(base: Style | undefined, style: Style | undefined): Style | undefined {
	if (!base) return style;
	if (!style) return base;
	return { ...base, ...style };
}

export const segmentsWidth = (segments: readonly Segment[]): number => segments.reduce((w, s) => w + displayWidth(s.text), 0);

/** Splits segments at "\n" into source lines, keeping each piece's style. */
function splitHardLines(segments: readonly Segment[]): Segment[][] {
	const lines: Segment[][] = [[]];
	for (const segment of segments) {
		const parts = segment.text.split("\n");
		for (let i = 0; i < parts.length; i++) {
			if (i > 0) lines.push([]);
			if (parts[i]) lines[lines.length - 1].push({ text: parts[i], style: segment.style });
		}
	}
	return lines;
}

/** A word (or a run of spaces) as the styled pieces it is made of: "**bold**," is one word, two pieces. */
interface Token {
	pieces: Segment[];
	width: number;
	space: boolean;
}

/**
 * Words and runs of spaces, as `split(/( +)/)` cuts each segment, neighbours of a kind joined across
 * segments. A scan over char codes: every row of the open block is wrapped again each frame, and the
 * regex split cost an array and a string per piece before any piece was made.
 */
export function tokenize(line: readonly Segment[]): Token[] {
	const tokens: Token[] = [];
	let last: Token | undefined;
	for (const segment of line) {
		const { text, style } = segment;
		let start = 0;
		while (start < text.length) {
			const space = text.charCodeAt(start) === 32;
			const end = runEnd(text, start);
			const part = end - start === text.length ? text : text.slice(start, end);
			const width = space ? part.length : displayWidth(part);
			if (last !== undefined && last.space === space) {
				last.pieces.push({ text: part, style });
				last.width += width;
			} else {
				last = { pieces: [{ text: part, style }], width, space };
				tokens.push(last);
			}
			start = end;
		}
	}
	return tokens;
}

/** The longest start of `text` that fits in `room` cells; linear in what it takes, not in `text`. */
function takeCells(text: string, room: number): string {
	let used = 0;
	let end = 0;
	for (const ch of text) {
		const w = displayWidth(ch);
		if (used + w > room) break;
		used += w;
		end += ch.length;
	}
	return text.slice(0, end);
}

/**
 * Word-wraps styled text to rows of at most `width` cells, prefixes included. Breaks at spaces (dropped
 * at the break), splits words longer than a row, counts wide characters as two cells, and starts a new
 * row at every "\n". Cost is linear in the text.
 */
export function wrapSegments(segments: readonly Segment[], width: number, options: WrapOptions = {}): Line[] {
	const firstPrefix = options.firstPrefix ?? [];
	const restPrefix = options.restPrefix ?? [];
	const rows: Line[] = [];
	for (const source of splitHardLines(segments)) {
		const prefix = rows.length === 0 ? firstPrefix : restPrefix;
		let indent: Segment[] = [];
		if (options.keepIndent) {
			const leading = /^ */.exec(source[0]?.text ?? "")![0];
			// An indent that leaves less than half the row for text is not worth repeating.
			if (leading && (leading.length + segmentsWidth(restPrefix)) * 2 < width) indent = [{ text: leading }];
		}
		let row: Line = [...prefix];
		let used = segmentsWidth(prefix);
		let fresh = true; // no word on this row yet
		let continuation = false; // the row was wrapped out of the one before
		// Spaces wait here until the next word: dropped if it wraps, so rows never end in spaces.
		let spaces: Segment[] = [];
		let spacesWidth = 0;
		const startRow = () => {
			rows.push(row);
			row = [...restPrefix, ...indent];
			used = segmentsWidth(row);
			fresh = true;
			continuation = true;
			spaces = [];
			spacesWidth = 0;
		};
		const place = (pieces: Segment[], w: number) => {
			for (const piece of spaces) row.push(piece);
			for (const piece of pieces) row.push(piece);
			used += spacesWidth + w;
			spaces = [];
			spacesWidth = 0;
			fresh = false;
		};
		for (const token of tokenize(source)) {
			if (token.space) {
				// At the start of a wrapped row spaces are dropped; at the start of a source line they are indentation.
				if (fresh && continuation) continue;
				for (const piece of token.pieces) spaces.push(piece);
				spacesWidth += token.width;
				continue;
			}
			if (used + spacesWidth + token.width > width && !fresh) startRow();
			if (used + spacesWidth + token.width <= width) {
				place(token.pieces, token.width);
				continue;
			}
			// Longer than a whole row: cut it by characters, never splitting one.
			if (used + spacesWidth >= width) {
				spaces = [];
				spacesWidth = 0;
			}
			for (const piece of token.pieces) {
				let rest = piece.text;
				while (rest) {
					let head = takeCells(rest, width - used - spacesWidth);
					if (!head) {
						// A wide character in a one-cell gap: drop pending spaces, else try a fresh row, else print it
						// anyway rather than loop.
						if (spacesWidth > 0) {
							spaces = [];
							spacesWidth = 0;
							continue;
						}
						if (!fresh) {
							startRow();
							continue;
						}
						head = String.fromCodePoint(rest.codePointAt(0)!);
					}
					place([{ text: head, style: piece.style }], displayWidth(head));
					rest = rest.slice(head.length);
					if (rest) startRow();
				}
			}
		}
		rows.push(row);
	}
	return rows;
}

/** Cuts one row to `width` cells, ending in "…" when something was cut. */
export function truncateLine(line: readonly Segment[], width: number): Line {
	if (segmentsWidth(line) <= width) return [...line];
	const out: Line = [];
	let used = 0;
	const room = Math.max(0, width - 1);
	for (const segment of line) {
		let text = "";
		for (const ch of segment.text) {
			const w = displayWidth(ch);
			if (used + w > room) break;
			text += ch;
			used += w;
		}
		if (text) out.push({ text, style: segment.style });
		if (used >= room || text.length < segment.text.length) break;
	}
	out.push({ text: "…", style: line[line.length - 1]?.style });
	return out;
}

/** Each row with `style` laid under its own (e.g. everything in a quote dimmed). */
export function withStyle(lines: readonly Line[], style: Style): Line[] {
	return lines.map((line) => line.map((s) => ({ text: s.text, style: mergeStyle(style, s.style) })));
}

/** Rows with `first` before the first and `rest` before the others (rows must leave room for them). */
export function prefixLines(lines: readonly Line[], first: Segment[], rest: Segment[]): Line[] {
	return lines.map((line, i) => [...(i === 0 ? first : rest), ...line]);
}

const sameStyle = (a: Style | undefined, b: Style | undefined): boolean =>
	a === b ||
	(!!a &&
		!!b &&
		!!a.bold === !!b.bold &&
		!!a.dim === !!b.dim &&
		!!a.italic === !!b.italic &&
		!!a.underline === !!b.underline &&
		!!a.strikethrough === !!b.strikethrough &&
		a.color === b.color);

/** Applies a style the way Ink's <Text> does (same chalk, same order), so colour levels and NO_COLOR match. */
function paint(text: string, style: Style | undefined): string {
	if (!style) return text;
	let out = text;
	if (style.dim) out = chalk.dim(out);
	if (style.color) out = colorize(out, style.color);
	if (style.bold) out = chalk.bold(out);
	if (style.italic) out = chalk.italic(out);
	if (style.underline) out = chalk.underline(out);
	if (style.strikethrough) out = chalk.strikethrough(out);
	return out;
}

function colorize(text: string, color: string): string {
	if (color.startsWith("#")) return chalk.hex(color)(text);
	const named = (chalk as unknown as Record<string, unknown>)[color];
	return typeof named === "function" ? (named as (s: string) => string)(text) : text;
}

/** One row as a string with SGR codes; neighbouring pieces in the same style share one code pair. */
export function toAnsi(line: readonly Segment[]): string {
	let out = "";
	let text = "";
	let style: Style | undefined;
	for (const segment of line) {
		if (!segment.text) continue;
		if (text && !sameStyle(style, segment.style)) {
			out += paint(text, style);
			text = "";
		}
		style = segment.style;
		text += segment.text;
	}
	return out + paint(text, style);
}

/** Rows joined into the one string an Ink <Text> prints. */
export const linesToAnsi = (lines: readonly Line[]): string => lines.map(toAnsi).join("\n");
