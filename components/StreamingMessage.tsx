// The open tail of the streaming reply (closed blocks already went to history): drawn by the same
// markdown renderer and at the same width as history will print it, so words wrap at the same places
// while it streams and nothing moves when the reply ends. Only its last `maxRows` rows are shown.
import { Box, Text } from "ink";
import { useMemo, useSyncExternalStore } from "react";
import { sanitizeTerminalText } from "../src/safety/sanitize.js";
import type { LiveTick } from "./frame-scheduler.js";
import { renderMarkdown } from "./markdown/render-markdown.js";
import { toAnsi } from "./render/styled-text.js";
import type { LiveTail, SessionView } from "./session-view.js";
import { lastRows } from "./text-width.js";

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
	const source = tail.text ? tailSource(tail.text).replace(/\n+$/, "") : "";
	const rendered = source.trim() ? renderMarkdown(source, Math.max(1, columns)) : [];
	const text = rendered.slice(-maxRows).map(toAnsi);
	const left = maxRows - text.length;
	// Sanitise only the part that can be shown (sanitising may shorten, never lengthen, except tabs).
	const window = columns * maxRows * 2;
	const thinking =
		tail.thinking && left > 0 ? lastRows(sanitizeTerminalText(tail.thinking.slice(-window)).trimEnd(), columns, Math.min(left, 4)) : [];
	return { thinking, text };
}

/** The blank row above the tail. */
export const TAIL_MARGIN_ROWS = 1;

/**
 * The tail as the app draws it: it re-renders on its own for a frame in which only the tail moved
 * (`liveTick`), so such a frame costs React this component, not the whole App.
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
	useSyncExternalStore(liveTick.subscribe, liveTick.get);
	return <StreamingMessage tail={view.tail} columns={columns} maxRows={maxRows} />;
}

export function StreamingMessage({ tail, columns, maxRows }: { tail: LiveTail; columns: number; maxRows: number }) {
	// A frame for the spinner alone, or one that only changed the rows around it, renders no markdown.
	const { text: source, thinking: thought } = tail;
	const { thinking, text } = useMemo(
		() => (maxRows > 0 ? tailRows({ text: source, thinking: thought }, columns, maxRows) : { thinking: [], text: [] }),
		[source, thought, columns, maxRows],
	);
	if (maxRows <= 0) return null;
	if (!thinking.length && !text.length) return null;
	// The margin matches history items' spacing; App budgets its row (TAIL_MARGIN_ROWS). One <Text> per
	// part: the rows are already cut to the width (so Ink never wraps them), and Ink measures two nodes
	// a frame, not one per row.
	return (
		<Box flexDirection="column" marginTop={1}>
			{thinking.length > 0 ? (
				<Text dimColor italic>
					{thinking.join("\n")}
				</Text>
			) : null}
			{text.length > 0 ? <Text>{text.map((row) => row || " ").join("\n")}</Text> : null}
		</Box>
	);
}
