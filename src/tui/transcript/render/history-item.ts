// One finished item of the transcript as the single string <Static> prints: styled, wrapped to the
// terminal width by us, every outside string sanitised before it is styled. Rendered once per item.

import { sanitizeTerminalText } from "../../../safety/sanitize.js";
import type { AttachedFile } from "../../../session/prompt-attachments.js";
import { type FrameCounts, frameCounts } from "../../ink/index.js";
import { renderMarkdown } from "../../markdown/render-markdown.js";
import { type Line, linesToAnsi, type Segment, wrapSegments } from "../../text/styled-text.js";
import { color, theme } from "../../text/theme.js";
import { type HistoryItem, THINKING_SHOWN } from "../session-view.js";
import { DEFAULT_HINTS, expandHint, type RenderHints } from "./hints.js";
import { renderToolCall } from "./tool-call.js";

/** Collapsed thinking: its last lines, with how many are hidden above them. */
function lastThinkingLines(text: string, n: number, hints: RenderHints): Line[] | undefined {
	const lines = text.split("\n");
	if (lines.length <= n) return undefined;
	return [
		[{ text: `… ${lines.length - n} earlier lines${expandHint(hints)}`, style: { dim: true } }],
		...thinkingRows(lines.slice(-n).join("\n")),
	];
}

/**
 * What a user item leaves out, one dim row each: every `@file` as `Read big.js (400 lines)`, and the
 * pastes shown as placeholders; the last row says Ctrl+O prints the prompt as sent.
 */
function collapsedRows(attached: readonly AttachedFile[] | undefined, pasted: boolean, width: number): Line[] {
	const notes = (attached ?? []).map((f) => `Read ${sanitizeTerminalText(f.path)} (${f.lines} ${f.lines === 1 ? "line" : "lines"})`);
	if (pasted) notes.push("pasted text sent in full");
	const last = notes.length - 1;
	return notes.flatMap((note, i) =>
		wrapSegments([{ text: `  ${note}${i === last ? " · Ctrl+O shows it" : ""}`, style: { dim: true } }], width),
	);
}

/** A server's error text is untrusted and may be a whole HTML page: this much of it is shown. */
export const ERROR_SHOWN_CHARS = 600;

/**
 * A failed request. When it failed before any answer the prompt above is marked failed: nothing of it
 * is sent again on its own (the session leaves it out of the next request), and the key that recalls
 * it is named, so sending it again is the user's choice.
 */
function errorRows(item: Extract<HistoryItem, { kind: "error" }>, width: number, hints: RenderHints): Line[] {
	const chars = [...sanitizeTerminalText(item.text).trim()];
	const reason =
		chars.length > ERROR_SHOWN_CHARS ? `${chars.slice(0, ERROR_SHOWN_CHARS).join("")}… (${chars.length} chars)` : chars.join("");
	const style = { color: color(theme.error) };
	if (!item.unanswered) return wrapSegments([{ text: `Error: ${reason}`, style }], width);
	const recall = hints.recallKey ? ` · ${hints.recallKey} recalls it to send again` : "";
	return wrapSegments(
		[
			{ text: "✗ not answered: ", style: { ...style, bold: true } },
			{ text: reason, style },
			{ text: recall, style: { dim: true } },
		],
		width,
	);
}

/** The item's rows, and whether a blank row separates it from the one above. */
function renderRows(item: HistoryItem, width: number, hints: RenderHints): { rows: readonly Line[]; marginTop: boolean } {
	switch (item.kind) {
		case "user": {
			const rows = wrapSegments([{ text: sanitizeTerminalText(item.text) }], width, {
				firstPrefix: [{ text: "› ", style: { bold: true, color: color(theme.user) } }],
				restPrefix: [{ text: "  " }],
			});
			if (item.full !== undefined && !item.expanded) rows.push(...collapsedRows(item.attached, item.pasted === true, width));
			return { rows, marginTop: true };
		}
		case "markdown":
			return { rows: renderMarkdown(item.source, width), marginTop: true };
		case "thinking": {
			const collapsed = item.expanded ? undefined : lastThinkingLines(item.text, THINKING_SHOWN, hints);
			return { rows: (collapsed ?? thinkingRows(item.text)).flatMap((row) => wrapSegments(row, width)), marginTop: true };
		}
		case "tool":
			return { rows: renderToolCall(item, width, hints), marginTop: true };
		case "error":
			return { rows: errorRows(item, width, hints), marginTop: true };
		case "aborted":
			return { rows: [[{ text: "⏹ Aborted", style: { bold: true, color: color(theme.warning) } }]], marginTop: false };
		case "notice": {
			const tint = item.level === "error" ? theme.error : item.level === "warning" ? theme.warning : undefined;
			return {
				rows: wrapSegments([{ text: sanitizeTerminalText(item.text), style: { color: color(tint), dim: item.level === "info" } }], width),
				marginTop: false,
			};
		}
		case "sources":
			return { rows: sourceRows(item, width), marginTop: true };
		case "shell": {
			const header: Segment[] = [{ text: `$ ${sanitizeTerminalText(item.command)}`, style: { bold: true } }];
			if (item.excluded) header.push({ text: " · not sent to the model", style: { dim: true } });
			const rows = wrapSegments(header, width);
			const output = sanitizeTerminalText(item.output.replace(/\n+$/, ""));
			if (output) rows.push(...wrapSegments([{ text: output, style: { dim: true } }], width, { keepIndent: true }));
			if (item.aborted) rows.push([{ text: "stopped", style: { color: color(theme.warning) } }]);
			else if (item.exitCode) rows.push([{ text: `exit ${item.exitCode}`, style: { color: color(theme.error) } }]);
			return { rows, marginTop: true };
		}
	}
}

/** Most sources a row lists; the rest are counted. */
const SOURCES_SHOWN = 8;

/**
 * `⌕ Searched the web: "query"` (or `Sources`), then one row per page: its title and URL. Both were
 * cleaned when the stream was read (src/ai/web-search.ts) and are sanitised again here, as everything
 * printed is: a transcript loaded from a file did not pass that cleaning.
 */
function sourceRows(item: Extract<HistoryItem, { kind: "sources" }>, width: number): Line[] {
	const heading = item.search
		? `⌕ Searched the web${item.search.query ? `: "${item.search.query}"` : ""}`
		: `Sources (${item.sources.length})`;
	const rows = wrapSegments(
		[{ text: sanitizeTerminalText(heading), style: { bold: item.search !== undefined, dim: !item.search } }],
		width,
	);
	if (item.search?.error) {
		rows.push(
			...wrapSegments([{ text: `  failed: ${sanitizeTerminalText(item.search.error)}`, style: { color: color(theme.error) } }], width),
		);
	}
	for (const source of item.sources.slice(0, SOURCES_SHOWN)) {
		const title = sanitizeTerminalText(source.title.replace(/\s+/g, " "));
		rows.push(
			...wrapSegments(
				[{ text: `  · ${title}` }, { text: ` ${sanitizeTerminalText(source.url)}`, style: { color: color(theme.link), dim: true } }],
				width,
				{ restPrefix: [{ text: "    " }] },
			),
		);
	}
	const more = item.sources.length - SOURCES_SHOWN;
	if (more > 0) rows.push([{ text: `  … ${more} more`, style: { dim: true } }]);
	return rows;
}

function thinkingRows(text: string): Line[] {
	return [[{ text: sanitizeTerminalText(text), style: { dim: true, italic: true } }]];
}

/** Items rendered before (RUDDER_FRAME_COUNTS only): each should be rendered once. */
const rendered = new WeakSet<HistoryItem>();
function countRender(counts: FrameCounts, item: HistoryItem): void {
	counts.add(rendered.has(item) ? "historyItem.again" : "historyItem.first");
	rendered.add(item);
}

/** The item as ANSI text whose every row fits in `columns` cells; a leading "\n" is its top margin. */
export function renderHistoryItem(item: HistoryItem, columns: number, hints: RenderHints = DEFAULT_HINTS): string {
	if (frameCounts) countRender(frameCounts, item);
	const { rows, marginTop } = renderRows(item, Math.max(1, columns), hints);
	return (marginTop ? "\n" : "") + linesToAnsi(rows);
}
