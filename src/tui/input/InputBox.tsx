// The input: multi-line text with a visible cursor, wrapped to the terminal, showing at most
// MAX_INPUT_ROWS rows around the cursor. Big pastes appear as their `[paste #N +L lines]` placeholder.
import { Box, Text } from "ink";
import React from "react";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import { MAX_INPUT_ROWS } from "../ink/index.js";
import { wrapLine } from "../text/text-width.js";
import { color, theme } from "../text/theme.js";
import { charAt, type EditorState } from "./editor-state.js";

const PROMPT = "› ";

/**
 * The cursor cell as raw SGR inverse: Ink trims trailing whitespace even inside `<Text inverse>`, which
 * would hide the cursor at the end of a line; a pre-styled string survives (ink-text-input does the same).
 */
const cursorCell = (ch: string) => `\x1b[7m${ch}\x1b[27m`;

export interface InputRow {
	text: string;
	/** Cursor position within `text`, when the cursor is on this row. */
	cursor?: number;
}

/** The editor's text as screen rows (wrapped at `width` cells), cut to a window around the cursor. */
export function inputRows(state: EditorState, width: number, maxRows = MAX_INPUT_ROWS): InputRow[] {
	const rows: InputRow[] = [];
	let offset = 0;
	let cursorRow = 0;
	for (const line of state.text.split("\n")) {
		const wrapped = wrapLine(line, Math.max(1, width));
		let inLine = 0;
		wrapped.forEach((text, i) => {
			const start = offset + inLine;
			const end = start + text.length;
			const last = i === wrapped.length - 1;
			const row: InputRow = { text };
			if (state.cursor >= start && (state.cursor < end || (last && state.cursor === end))) {
				row.cursor = state.cursor - start;
				cursorRow = rows.length;
			}
			rows.push(row);
			inLine += text.length;
		});
		offset += line.length + 1;
	}
	if (rows.length <= maxRows) return rows;
	const first = Math.min(Math.max(0, cursorRow - maxRows + 1), rows.length - maxRows);
	return rows.slice(first, first + maxRows);
}

function Row({ row, first }: { row: InputRow; first: boolean }) {
	const prefix = (
		<Text color={color(theme.user)} bold>
			{first ? PROMPT : "  "}
		</Text>
	);
	if (row.cursor === undefined)
		return (
			<Text wrap="truncate">
				{prefix}
				{sanitizeTerminalText(row.text)}
			</Text>
		);
	const before = row.text.slice(0, row.cursor);
	// The whole character under the cursor (an emoji is two UTF-16 units, an accented letter may be two
	// code points): half of one would print as `�`.
	const end = row.cursor + charAt(row.text, row.cursor);
	const at = row.text.slice(row.cursor, end) || " ";
	const after = row.text.slice(end);
	return (
		<Text wrap="truncate">
			{prefix}
			{sanitizeTerminalText(before)}
			{cursorCell(sanitizeTerminalText(at))}
			{sanitizeTerminalText(after)}
		</Text>
	);
}

/** Memoised: while a reply streams, App re-renders every frame but the input rarely changes. */
export const InputBox = React.memo(function InputBox({ rows, placeholder }: { rows: readonly InputRow[]; placeholder?: string }) {
	if (rows.length === 1 && rows[0].text === "" && placeholder)
		return (
			<Text wrap="truncate">
				<Text color={color(theme.user)} bold>
					{PROMPT}
				</Text>
				{cursorCell(" ")}
				<Text dimColor>{placeholder}</Text>
			</Text>
		);
	return (
		<Box flexDirection="column">
			{rows.map((row, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
				<Row key={i} row={row} first={i === 0} />
			))}
		</Box>
	);
});
