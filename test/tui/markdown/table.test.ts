import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../../src/tui/markdown/render-markdown.js";
import { fitColumns } from "../../../src/tui/markdown/table.js";
import { type Line, segmentsWidth } from "../../../src/tui/text/styled-text.js";
import { displayWidth } from "../../../src/tui/text/text-width.js";

const plain = (lines: readonly Line[]) => lines.map((l) => l.map((s) => s.text).join(""));
const md = [
	"| Name | Role | Count |",
	"|:-----|:----:|------:|",
	"| **parser** | reads the input and builds a tree of tokens for the renderer | 12 |",
	"| `cli` | flags | 3 |",
].join("\n");

describe("markdown tables", () => {
	it("draws borders and aligned columns at their natural width when they fit", () => {
		const rows = plain(renderMarkdown(md, 100));
		expect(rows[0]).toMatch(/^┌─+┬─+┬─+┐$/);
		expect(rows[1]).toMatch(/^│ Name\s+│\s+Role\s+│ Count │$/);
		expect(rows[2]).toMatch(/^├─+┼─+┼─+┤$/);
		expect(rows[3]).toBe("│ parser │ reads the input and builds a tree of tokens for the renderer │    12 │");
		// Right-aligned numbers, centred roles, every row the same width.
		expect(rows[4]).toMatch(/^│ cli\s+│\s{20,}flags\s{20,}│ {5}3 │$/);
		expect(new Set(rows.map(displayWidth)).size).toBe(1);
		expect(rows.at(-1)).toMatch(/^└─+┴─+┴─+┘$/);
		expect(rows.join("\n")).not.toContain("|:---");
	});

	it("wraps cells inside their columns to fit the width, with the row as tall as its tallest cell", () => {
		const lines = renderMarkdown(md, 40);
		expect(lines.every((l) => segmentsWidth(l) <= 40)).toBe(true);
		const rows = plain(lines);
		expect(new Set(rows.map(displayWidth)).size).toBe(1);
		const body = rows.slice(3, -1);
		expect(body.length).toBeGreaterThan(3);
		// The long cell's words are all there, in order, split at spaces.
		const roleColumn = body.map((r) => r.split("│")[2].trim()).join(" ");
		expect(roleColumn.replace(/\s+/g, " ")).toContain("reads the input and builds a tree of tokens for the renderer");
	});

	it("a terminal too narrow for columns gets one 'header: value' line per cell", () => {
		const rows = plain(renderMarkdown(md, 14));
		expect(rows.every((r) => displayWidth(r) <= 14)).toBe(true);
		expect(rows[0]).toBe("Name: parser");
	});

	it("shrinks the widest columns first", () => {
		expect(fitColumns([10, 50, 5], 40)).toEqual([10, 25, 5]);
		expect(fitColumns([10, 10], 30)).toEqual([10, 10]);
		expect(fitColumns([10, 10], 4)).toBeUndefined();
	});

	it("keeps bold header cells and inline styles inside cells", () => {
		const lines = renderMarkdown(md, 100);
		expect(lines[1].some((s) => s.text === "Name" && s.style?.bold)).toBe(true);
		expect(lines[3].some((s) => s.text === "parser" && s.style?.bold)).toBe(true);
	});
});
