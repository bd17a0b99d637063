// A markdown table drawn with box-drawing borders, columns aligned as the table says, every cell
// word-wrapped inside its column so the whole table fits the width. Columns keep their natural width
// when they fit; otherwise the widest give up cells first. Too narrow for even that, each row is
// printed as "header: value" lines instead.
import type { Tokens } from "marked";
import { type Line, type Segment, segmentsWidth, wrapSegments } from "../text/styled-text.js";

type Align = "left" | "right" | "center" | null;
/** Inline tokens of a cell → styled segments (render-markdown.ts's inline renderer). */
export type InlineRenderer = (tokens: Tokens.TableCell["tokens"], header: boolean) => Segment[];

/** Narrowest a column is squeezed to before the table gives up on columns. */
const MIN_COLUMN = 3;
const BORDER = { dim: true } as const;

/** Cells of `widths` for a table that must fit `available` cells of content: widest columns shrink first. */
export function fitColumns(natural: readonly number[], available: number): number[] | undefined {
	const widths = [...natural];
	let excess = widths.reduce((a, b) => a + b, 0) - available;
	while (excess > 0) {
		let widest = 0;
		for (let i = 1; i < widths.length; i++) if (widths[i] > widths[widest]) widest = i;
		if (widths[widest] <= MIN_COLUMN) return undefined;
		widths[widest]--;
		excess--;
	}
	return widths;
}

function pad(line: Line, width: number, align: Align): Line {
	const room = Math.max(0, width - segmentsWidth(line));
	const left = align === "right" ? room : align === "center" ? Math.floor(room / 2) : 0;
	return [{ text: " ".repeat(left) }, ...line, { text: " ".repeat(room - left) }];
}

function rule(widths: readonly number[], left: string, middle: string, right: string): Line {
	return [{ text: left + widths.map((w) => "─".repeat(w + 2)).join(middle) + right, style: BORDER }];
}

/** One table row: every cell wrapped to its column, as many screen rows as its tallest cell. */
function bodyRows(cells: readonly Segment[][], widths: readonly number[], align: readonly Align[]): Line[] {
	const wrapped = cells.map((cell, i) => wrapSegments(cell, widths[i]));
	const height = Math.max(1, ...wrapped.map((c) => c.length));
	const rows: Line[] = [];
	for (let r = 0; r < height; r++) {
		const row: Line = [{ text: "│ ", style: BORDER }];
		wrapped.forEach((cell, i) => {
			if (i > 0) row.push({ text: " │ ", style: BORDER });
			row.push(...pad(cell[r] ?? [], widths[i], align[i] ?? null));
		});
		row.push({ text: " │", style: BORDER });
		rows.push(row);
	}
	return rows;
}

export function renderTable(table: Tokens.Table, width: number, inline: InlineRenderer): Line[] {
	const header = table.header.map((c) => inline(c.tokens, true));
	const rows = table.rows.map((row) => row.map((c) => inline(c.tokens, false)));
	const columns = header.length;
	const natural = header.map((h, i) => Math.max(1, segmentsWidth(h), ...rows.map((r) => segmentsWidth(r[i] ?? []))));
	// "│ " + cells joined by " │ " + " │"
	const widths = fitColumns(natural, width - (3 * columns + 1));
	if (!widths) return stacked(header, rows, width);
	return [
		rule(widths, "┌", "┬", "┐"),
		...bodyRows(header, widths, table.align),
		rule(widths, "├", "┼", "┤"),
		...rows.flatMap((row) => bodyRows(row, widths, table.align)),
		rule(widths, "└", "┴", "┘"),
	];
}

/** Each row as "header: value" lines, rows apart by a blank line: for a terminal too narrow for columns. */
function stacked(header: readonly Segment[][], rows: readonly Segment[][][], width: number): Line[] {
	const out: Line[] = [];
	rows.forEach((row, r) => {
		if (r > 0) out.push([]);
		row.forEach((cell, i) => {
			const label: Segment[] = [...(header[i] ?? []), { text: ": " }];
			out.push(...wrapSegments([...label, ...cell], width, { restPrefix: [{ text: "  " }] }));
		});
	});
	return out;
}
