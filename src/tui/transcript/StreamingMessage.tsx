// The open tail of the streaming reply (closed blocks already went to history): drawn by the same
// markdown renderer and at the same width as history will print it, so words wrap at the same places
// while it streams and nothing moves when the reply ends. Only its last `maxRows` rows are shown.
import { Box, Text, useStdout } from "ink";
import { useMemo, useSyncExternalStore } from "react";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import type { LiveTick } from "../frame/frame-scheduler.js";
import { type LiveRegion, liveRegionFor, partText, usePartKey } from "../ink/index.js";
import { rowAnsi } from "../markdown/code-rows.js";
import { renderMarkdown } from "../markdown/render-markdown.js";
import { toAnsi } from "../text/styled-text.js";
import { lastRows } from "../text/text-width.js";
import type { LiveTail, SessionView } from "./session-view.js";

/**
 * Source of the open block rendered per frame. A block is normally short (blocks end at blank lines)
 * and is rendered whole; a very long one (a big code fence, a list without blank lines) only from a
 * line start in its last TAIL_SOURCE_CHARS, with its opening fence, so a frame costs the same at any
 * length. Source lines wrap independently, so the rows shown still match history.
 */
export const TAIL_SOURCE_CHARS = 4000;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function tailSource(text: string): string {
	if (text.length <= TAIL_SOURCE_CHARS) return text;
	const firstLineEnd = text.indexOf("\n") + 1;
	const from = Math.max(firstLineEnd, text.indexOf("\n", text.length - TAIL_SOURCE_CHARS) + 1);
	const fence = FENCE.test(text.slice(0, firstLineEnd)) ? text.slice(0, firstLineEnd) : "";
	return fence + text.slice(from);
}

export function tailRows(tail: LiveTail, columns: number, maxRows: number): { thinking: string[]; text: string[] } {
	const whole = tail.text ? tailSource(tail.text) : "";
	// The regex scans the whole block for a newline run; most frames the text ends in none.
	const source = whole.endsWith("\n") ? whole.replace(/\n+$/, "") : whole;
	const rendered = source.trim() ? renderMarkdown(source, Math.max(1, columns)) : [];
	// A code row's ANSI is made once, when the row is (the open fence's finished rows recur every frame).
	const text = rendered.slice(-maxRows).map(rowAnsi);
	const left = maxRows - text.length;
	// Sanitise only the part that can be shown (sanitising may shorten, never lengthen, except tabs).
	const window = columns * maxRows * 2;
	const thinking =
		tail.thinking && left > 0 ? lastRows(sanitizeTerminalText(tail.thinking.slice(-window)).trimEnd(), columns, Math.min(left, 4)) : [];
	return { thinking, text };
}

const THINKING = { dim: true, italic: true } as const;

/** The tail's rows as one list of ANSI rows: thinking (dim, italic) above the text. */
export function tailAnsiRows(tail: LiveTail, columns: number, maxRows: number): string[] {
	if (maxRows <= 0) return [];
	const { thinking, text } = tailRows(tail, columns, maxRows);
	return thinking.length ? [...thinking.map((row) => toAnsi([{ text: row, style: THINKING }])), ...text] : text;
}

/** tailAnsiRows, remembering its last answer: the live frame writer and React ask for the same frame. */
function lastTailRows(): (tail: LiveTail, columns: number, maxRows: number) => string[] {
	let last: { text: string; thinking: string; columns: number; maxRows: number; rows: string[] } | undefined;
	return (tail, columns, maxRows) => {
		if (last && last.text === tail.text && last.thinking === tail.thinking && last.columns === columns && last.maxRows === maxRows) {
			return last.rows;
		}
		const rows = tailAnsiRows(tail, columns, maxRows);
		last = { text: tail.text, thinking: tail.thinking, columns, maxRows, rows };
		return rows;
	};
}

const HELD: readonly string[] = [""];

/**
 * The tail's rows, or one blank row while a delta has just closed a block and the text goes on: the
 * tail keeps its place, so the rows under it do not move up and back down a frame later, and the
 * live frame writer redraws the frame (a part that vanishes or appears is React's to draw).
 */
function heldRows(rows: readonly string[], tail: LiveTail, maxRows: number): readonly string[] {
	return rows.length === 0 && tail.textOpen && maxRows > 0 ? HELD : rows;
}

/** The blank row above the tail. */
export const TAIL_MARGIN_ROWS = 1;

/**
 * The tail as the app draws it. A frame in which only the tail moved (`liveTick`) is drawn by the live
 * frame writer (src/tui/ink/live-region.ts) without React, or, when it cannot, by React rendering
 * this component alone, not the whole App.
 */
export function LiveTailMessage({
	view,
	liveTick,
	columns,
	maxRows,
}: {
	view: SessionView;
	liveTick: LiveTick;
	columns: number;
	maxRows: number;
}) {
	const region = liveRegionFor(liveTick);
	region.stdout = useStdout().stdout;
	useSyncExternalStore(region.react.subscribe, region.react.get);
	const rowsOf = useMemo(lastTailRows, []);
	region.tail.rows = () => heldRows(rowsOf(view.tail, columns, maxRows), view.tail, maxRows);
	return <TailBox rows={region.tail.rows()} region={region} />;
}

export function StreamingMessage({ tail, columns, maxRows }: { tail: LiveTail; columns: number; maxRows: number }) {
	// A frame for the spinner alone, or one that only changed the rows around it, renders no markdown.
	const { text: source, thinking: thought } = tail;
	const rows = useMemo(() => tailAnsiRows({ text: source, thinking: thought }, columns, maxRows), [source, thought, columns, maxRows]);
	return <TailBox rows={rows} />;
}

/**
 * The margin matches history items' spacing; App budgets its row (TAIL_MARGIN_ROWS). One plain <Text>
 * of rows already cut to the width (so Ink never wraps them, and measures one node a frame), in a Box
 * the live frame writer finds it by.
 */
function TailBox({ rows, region }: { rows: readonly string[]; region?: LiveRegion }) {
	const text = partText(rows);
	const key = usePartKey(region, text);
	if (!rows.length) return null;
	return (
		<Box key={key} ref={region?.tail.ref} flexDirection="column" marginTop={1}>
			<Text>{text}</Text>
		</Box>
	);
}
