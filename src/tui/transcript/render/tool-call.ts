// A finished tool call in history: a status mark, the name and arguments on one row, then the result
// collapsed to a few lines (the expand key, Ctrl+O by default, prints the last one in full), or the edit's diff coloured.

import { formatToolArgs } from "../../text/format-args.js";
import { screenText } from "../../text/screen-text.js";
import { type Line, type Segment, type Style, truncateLine, wrapSegments } from "../../text/styled-text.js";
import { color, theme } from "../../text/theme.js";
import type { HistoryItem } from "../session-view.js";
import { type DiffLine, type DiffLineKind, diffSign, numberDiff } from "./diff.js";
import { DEFAULT_HINTS, expandHint, type RenderHints } from "./hints.js";

export const COLLAPSED_LINES = 4;
export const COLLAPSED_DIFF_LINES = 20;

export type ToolItem = Extract<HistoryItem, { kind: "tool" }>;

const INDENT: Segment[] = [{ text: "  " }];

function diffStyle(kind: DiffLineKind): Style | undefined {
	if (kind === "add") return { color: color(theme.success) };
	if (kind === "remove") return { color: color(theme.error) };
	if (kind === "gap" || kind === "note") return { dim: true };
	return undefined;
}

/** One numbered diff line; wrapped rows continue after the gutter. */
function diffRows(line: DiffLine, width: number): Line[] {
	const style = diffStyle(line.kind);
	if (line.kind === "gap") return [[...INDENT, { text: line.text.padStart(line.gutter.length), style }]];
	const gutter: Segment[] = [...INDENT, { text: `${line.gutter} ${diffSign(line.kind)} `, style: { ...style, dim: true } }];
	const blank: Segment[] = [...INDENT, { text: " ".repeat(line.gutter.length + 3) }];
	return wrapSegments([{ text: line.text, style }], width, { firstPrefix: gutter, restPrefix: blank, keepIndent: true });
}

/** The first `limit` lines as rows, then a note saying how many were left out. */
function collapsed<T>(lines: readonly T[], limit: number, width: number, rowsOf: (line: T) => Line[], hints: RenderHints): Line[] {
	const rows = lines.slice(0, limit).flatMap(rowsOf);
	if (lines.length > limit) {
		rows.push(
			...wrapSegments([{ text: `… ${lines.length - limit} more lines${expandHint(hints)}`, style: { dim: true } }], width, {
				firstPrefix: INDENT,
				restPrefix: INDENT,
			}),
		);
	}
	return rows;
}

const outputRows = (width: number, style: Style) => (line: string) =>
	wrapSegments([{ text: line, style }], width, { firstPrefix: INDENT, restPrefix: INDENT, keepIndent: true });

/** The header row: mark, bold name and dim arguments, cut to `width` so it stays one row. */
function header(item: ToolItem, width: number): Line {
	const args = item.args === undefined ? "" : formatToolArgs(item.args);
	const row: Line = [
		{ text: `${item.isError ? "✗" : "✓"} `, style: { color: color(item.isError ? theme.error : theme.success) } },
		{ text: screenText(item.name), style: { bold: true } },
	];
	if (args) row.push({ text: ` ${args}`, style: { dim: true } });
	if (item.expanded) row.push({ text: " (full output)", style: { dim: true } });
	return truncateLine(row, width);
}

export function renderToolCall(item: ToolItem, width: number, hints: RenderHints = DEFAULT_HINTS): Line[] {
	const limit = (collapsedTo: number) => (item.expanded ? Number.POSITIVE_INFINITY : collapsedTo);
	const rows: Line[] = [header(item, width)];
	if (item.diff) {
		const diffLines = numberDiff(screenText(item.diff));
		rows.push(...collapsed(diffLines, limit(COLLAPSED_DIFF_LINES), width, (line) => diffRows(line, width), hints));
		return rows;
	}
	const output = screenText(item.output).replace(/\n+$/, "");
	if (output) {
		const style: Style = item.isError ? { color: color(theme.error) } : { dim: true };
		rows.push(...collapsed(output.split("\n"), limit(COLLAPSED_LINES), width, outputRows(width, style), hints));
	}
	return rows;
}
