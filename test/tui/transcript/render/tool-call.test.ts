import { describe, expect, it } from "vitest";
import { diffTexts } from "../../../../src/tools/edit-diff.js";
import { type Line, segmentsWidth } from "../../../../src/tui/text/styled-text.js";
import { COLLAPSED_DIFF_LINES, renderToolCall, type ToolItem } from "../../../../src/tui/transcript/render/tool-call.js";

const rows = (lines: Line[]) => lines.map((l) => l.map((s) => s.text).join(""));
const tool = (over: Partial<ToolItem> = {}): ToolItem => ({
	kind: "tool",
	id: 1,
	name: "bash",
	args: { command: "ls" },
	output: "",
	isError: false,
	...over,
});
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

describe("renderToolCall", () => {
	it("shows a mark, the bold name and the dim arguments on one row", () => {
		const [header] = renderToolCall(tool(), 80);
		expect(rows([header])).toEqual(["✓ bash ls"]);
		expect(header[0].style).toEqual({ color: "green" });
		expect(header[1].style).toEqual({ bold: true });
		expect(header[2].style).toEqual({ dim: true });
		expect(renderToolCall(tool({ isError: true }), 80)[0][0]).toEqual({ text: "✗ ", style: { color: "red" } });
	});

	it("cuts long arguments to the width instead of wrapping them", () => {
		const lines = renderToolCall(tool({ args: { command: "x".repeat(150) } }), 40);
		expect(lines).toHaveLength(1);
		expect(rows(lines)[0]).toBe(`✓ bash ${"x".repeat(32)}…`);
		expect(segmentsWidth(lines[0])).toBe(40);
	});

	it("collapses output to four indented dim lines with a count of the rest; expanded shows everything", () => {
		const item = tool({ output: `${numbered(10)}\n\n` });
		expect(rows(renderToolCall(item, 80))).toEqual([
			"✓ bash ls",
			"  line 1",
			"  line 2",
			"  line 3",
			"  line 4",
			"  … 6 more lines (Ctrl+O to expand)",
		]);
		expect(renderToolCall(item, 80)[1][1].style).toEqual({ dim: true });
		const expanded = rows(renderToolCall({ ...item, expanded: true }, 80));
		expect(expanded[0]).toBe("✓ bash ls (full output)");
		expect(expanded.slice(1)).toEqual(
			numbered(10)
				.split("\n")
				.map((l) => `  ${l}`),
		);
	});

	it("shows error output in red and wraps long output lines within the width", () => {
		const lines = renderToolCall(tool({ isError: true, output: "failed: the quick brown fox jumps over the lazy dog" }), 24);
		expect(rows(lines).slice(1)).toEqual(["  failed: the quick", "  brown fox jumps over", "  the lazy dog"]);
		expect(lines[1][1].style).toEqual({ color: "red" });
		for (const line of lines) expect(segmentsWidth(line)).toBeLessThanOrEqual(24);
	});

	it("shows a diff without its Index / ==== / --- / +++ headers, numbered, coloured by line, collapsed to twenty lines", () => {
		const before = `${Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;
		const after = before.replace("line 2\n", "line two\n").replace("line 11\n", "line 11\nadded\n");
		const { diff } = diffTexts("src/f.ts", before, after);
		expect(diff).toContain("Index: src/f.ts");
		const lines = renderToolCall(tool({ name: "edit", output: "ignored when a diff exists", diff }), 80);
		const shown = rows(lines).slice(1);
		expect(shown.join("\n")).not.toMatch(/Index:|====|^ *(---|\+\+\+) /m);
		expect(shown.slice(0, 4)).toEqual(["   1   line 1", "   2 - line 2", "   2 + line two", "   3   line 3"]);
		expect(shown).toContain("   ⋮");
		expect(shown.slice(-3)).toEqual(["  11   line 11", "  12 + added", "  13   line 12"]);
		const colourOf = (text: string) => lines.find((l) => rows([l])[0].endsWith(text))?.at(-1)?.style?.color;
		expect([colourOf("- line 2"), colourOf("+ line two"), colourOf("  line 3")]).toEqual(["red", "green", undefined]);
		const long = ["@@ -1 +1,21 @@", "-old", "+new", ...Array.from({ length: 20 }, () => "+more")].join("\n");
		const collapsedLines = renderToolCall(tool({ diff: long }), 80);
		expect(collapsedLines).toHaveLength(1 + COLLAPSED_DIFF_LINES + 1);
		expect(rows(collapsedLines).at(-1)).toBe("  … 2 more lines (Ctrl+O to expand)");
		expect(renderToolCall(tool({ diff: long, expanded: true }), 80)).toHaveLength(1 + 22);
	});

	it("wraps a long diff line after the gutter", () => {
		const lines = rows(renderToolCall(tool({ diff: `@@ -1 +1 @@\n+${"word ".repeat(12)}` }), 30));
		expect(lines[1]).toMatch(/^ {2}1 \+ word/);
		expect(lines[2]).toMatch(/^ {6}word/);
	});

	it("sanitises the name, arguments, output and diff", () => {
		const text = rows(
			renderToolCall(tool({ name: "ba\x1b[2Jsh", args: { command: "l\x1b]0;t\x07s" }, output: "o\x1b[31mk\x07" }), 80),
		).join("\n");
		expect(text).toBe("✓ ba^[[2Jsh l^[]0;t^Gs\n  ok^G");
		expect(rows(renderToolCall(tool({ diff: "@@ -1 +1 @@\n+a\x1b[1Ab" }), 80))[1]).toBe("  1 + a^[[1Ab");
	});
});
