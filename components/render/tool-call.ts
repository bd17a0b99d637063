// A finished tool call in history: a status mark, the name and arguments on one row, then the result
// collapsed to a few lines (Ctrl+O prints the last one in full), or the edit's diff coloured.

import { sanitizeTerminalText } from "../../src/safety/sanitize.js";
import { formatToolArgs } from "../format-args.js";
import type { HistoryItem } from "../session-view.js";
import { color, theme } from "../theme.js";
import { type Line, type Segment, type Style, truncateLine, wrapSegments } from "./styled-text.js";

export const COLLAPSED_LINES = 4;
export const COLLAPSED_DIFF_LINES = 20;

export type ToolItem = Extract<HistoryItem, { kind: "tool" }>;

const INDENT: Segment[] = [{ text: "  " }];

function diffStyle(line: string): Style | undefined {
	const name =
		line.startsWith("+++") || line.startsWith("---")
			? theme.muted
			: line.startsWith("+")
				? theme.success
				: line.startsWith("-")
					? theme.error
					: line.startsWith("@@")
						? "cyan"
						: undefined;
	return name ? { color: color(name) } : undefined;
}

/** The first `limit` lines, indented and wrapped, then a note saying how many were left out. */
function collapsed(lines: readonly string[], limit: number, width: number, styleOf: (line: string) => Style | undefined): Line[] {
	const rows: Line[] = [];
	for (const line of lines.slice(0, limit)) {
		rows.push(
			...wrapSegments([{ text: line, style: styleOf(line) }], width, { firstPrefix: INDENT, restPrefix: INDENT, keepIndent: true }),
		);
	}
	if (lines.length > limit) {
		rows.push(
			...wrapSegments([{ text: `… ${lines.length - limit} more lines (Ctrl+O to expand)`, style: { dim: true } }], width, {
				firstPrefix: INDENT,
				restPrefix: INDENT,
			}),
		);
	}
	return rows;
}

/** The header row: mark, bold name and dim arguments, cut to `width` so it stays one row. */
function header(item: ToolItem, width: number): Line {
	const args = item.args === undefined ? "" : formatToolArgs(item.args);
	const row: Line = [
		{ text: `${item.isError ? "✗" : "✓"} `, style: { color: color(item.isError ? theme.error : theme.success) } },
		{ text: sanitizeTerminalText(item.name), style: { bold: true } },
	];
	if (args) row.push({ text: ` ${args}`, style: { dim: true } });
	if (item.expanded) row.push({ text: " (full output)", style: { dim: true } });
	return truncateLine(row, width);
}

export function renderToolCall(item: ToolItem, width: number): Line[] {
	const limit = (collapsedTo: number) => (item.expanded ? Number.POSITIVE_INFINITY : collapsedTo);
	const rows: Line[] = [header(item, width)];
	if (item.diff) {
		const diffLines = sanitizeTerminalText(item.diff).replace(/\n+$/, "").split("\n");
		rows.push(...collapsed(diffLines, limit(COLLAPSED_DIFF_LINES), width, diffStyle));
		return rows;
	}
	const output = sanitizeTerminalText(item.output).replace(/\n+$/, "");
	if (output) {
		const style: Style = item.isError ? { color: color(theme.error) } : { dim: true };
		rows.push(...collapsed(output.split("\n"), limit(COLLAPSED_LINES), width, () => style));
	}
	return rows;
}
