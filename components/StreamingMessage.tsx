// The open tail of the streaming reply: plain text (closed blocks already went to history as markdown),
// only its last `maxRows` rows. Cost per frame depends on the rows shown, not on the reply's length.
import { Box, Text } from "ink";
import { sanitizeTerminalText } from "../src/safety/sanitize.js";
import type { LiveTail } from "./session-view.js";
import { lastRows } from "./text-width.js";

export function tailRows(tail: LiveTail, columns: number, maxRows: number): { thinking: string[]; text: string[] } {
	// Sanitise only the part that can be shown (sanitising may shorten, never lengthen, except tabs).
	const window = columns * maxRows * 2;
	const text = tail.text ? lastRows(sanitizeTerminalText(tail.text.slice(-window)).replace(/\n+$/, ""), columns, maxRows) : [];
	const left = maxRows - text.length;
	const thinking =
		tail.thinking && left > 0 ? lastRows(sanitizeTerminalText(tail.thinking.slice(-window)).trimEnd(), columns, Math.min(left, 4)) : [];
	return { thinking, text };
}

/** The blank row above the tail. */
export const TAIL_MARGIN_ROWS = 1;

export function StreamingMessage({ tail, columns, maxRows }: { tail: LiveTail; columns: number; maxRows: number }) {
	if (maxRows <= 0) return null;
	const { thinking, text } = tailRows(tail, columns, maxRows);
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
