// Code rows wrapped a source line at a time through the cache are the rows the whole block wrapped at
// once gave, byte for byte, from the cache or not; the cache stays bounded.
import chalk from "chalk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CODE_ROW_CACHE_LINES, cachedCodeLines, codeRows, oneRow, reusedCodeLines, rowAnsi } from "../../../src/tui/markdown/code-rows.js";
import { type CodeSegment, highlightCode, loadHighlighter } from "../../../src/tui/markdown/highlight.js";
import { renderMarkdown } from "../../../src/tui/markdown/render-markdown.js";
import { type Line, toAnsi, wrapSegments } from "../../../src/tui/text/styled-text.js";
import { assertTakenOften } from "../../helpers/shortcut-property.js";

const INDENT = [{ text: "  " }];

/** What renderCode did before: the block's segments styled and wrapped in one call. */
const wholeBlock = (segments: readonly CodeSegment[], width: number): Line[] =>
	wrapSegments(
		segments.map((s) => ({ text: s.text, style: s.color ? { color: s.color } : undefined })),
		width,
		{ firstPrefix: INDENT, restPrefix: INDENT, keepIndent: true },
	);

const bytes = (rows: readonly Line[]) => rows.map(toAnsi);

const segment = fc.record({
	text: fc
		.array(fc.constantFrom("a", "word", " ", "   ", "\n", "\n\n", "\t", "日本", "😀", "x".repeat(30), "\u0001", "0"), { maxLength: 8 })
		.map((p) => p.join("")),
	color: fc.constantFrom(undefined, "magenta", "green", "gray", "blue"),
});

describe("code rows a line at a time", () => {
	it("equal the whole block wrapped at once, fresh and from the cache, at any width", () => {
		fc.assert(
			fc.property(fc.array(segment, { maxLength: 12 }), fc.integer({ min: 1, max: 50 }), (segments, width) => {
				const expected = wholeBlock(segments, width);
				const fresh = codeRows(segments, width);
				expect(bytes(fresh)).toEqual(bytes(expected));
				expect(fresh.map((r) => r.map((s) => s.text))).toEqual(expected.map((r) => r.map((s) => s.text)));
				expect(bytes(codeRows(segments, width))).toEqual(bytes(expected));
			}),
			{ numRuns: 1500 },
		);
	});

	it("render a highlighted fence in a reply as before: label, then the coloured lines", async () => {
		await loadHighlighter();
		const code = 'const a = `x ${y}`; /* multi\nline */ f(/re+/g)\n\n    return "s" // c\ndef g(x):\n  pass';
		const lines = renderMarkdown(`\`\`\`ts\n${code}\n\`\`\``, 24);
		const label = wrapSegments([{ text: "ts", style: { dim: true } }], 24, { firstPrefix: INDENT, restPrefix: INDENT });
		expect(bytes(lines)).toEqual(bytes([...label, ...wholeBlock(highlightCode(code, "ts")!, 24)]));
		expect(lines.flat().some((s) => s.style?.color === "magenta")).toBe(true);
	});

	it("keep at most CODE_ROW_CACHE_LINES lines", () => {
		for (let i = 0; i < CODE_ROW_CACHE_LINES * 3; i++) codeRows([{ text: `line ${i}\nother ${i}` }], 40);
		expect(cachedCodeLines()).toBeGreaterThan(0);
		expect(cachedCodeLines()).toBeLessThanOrEqual(CODE_ROW_CACHE_LINES);
	});

	it("equal the whole block wrapped at once while it streams, frame after frame, the previous frame's lines reused", async () => {
		await loadHighlighter();
		const piece = fc.constantFrom(
			"const ",
			"x",
			" = ",
			"1",
			"(",
			")",
			"{",
			"}",
			"\n",
			"\n  ",
			"\n",
			"'s'",
			'"',
			"`",
			"//",
			"/*",
			"*/",
			"=>",
			"def ",
			"fn ",
			" ",
			"x".repeat(25),
		);
		const stream = fc.record({
			code: fc.array(piece, { minLength: 10, maxLength: 50 }).map((p) => p.join("")),
			cuts: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 20 }),
			language: fc.constantFrom("ts", "python", "rust", "go", "bash", "json", "diff", "js"),
			widths: fc.array(fc.integer({ min: 4, max: 40 }), { minLength: 1, maxLength: 3 }),
		});
		const previousLevel = chalk.level;
		chalk.level = 1;
		try {
			assertTakenOften(
				stream,
				({ code, cuts, language, widths }) => {
					const before = reusedCodeLines();
					let end = 0;
					for (let step = 0; end < code.length; step++) {
						end = Math.min(code.length, end + cuts[step % cuts.length]);
						const width = widths[Math.floor(step / 3) % widths.length];
						const segments = highlightCode(code.slice(0, end), language)!;
						const rows = codeRows(segments, width);
						expect(bytes(rows)).toEqual(bytes(wholeBlock(segments, width)));
						expect(rows.map(rowAnsi)).toEqual(bytes(rows));
					}
					// The same lengths in other letters, then in other colours: lines at the same place that must not be reused.
					const last = widths[0];
					const other = highlightCode(code.replace(/x/g, "y"), language)!;
					for (const segments of [highlightCode(code, language)!, other, other.map((s) => ({ ...s, color: s.color ? "green" : "red" }))]) {
						expect(bytes(codeRows(segments, last))).toEqual(bytes(wholeBlock(segments, last)));
					}
					return reusedCodeLines() > before;
				},
				{ numRuns: 300, atLeast: 150 },
			);
		} finally {
			chalk.level = previousLevel;
		}
	});

	it("give the ANSI of the colour level in force, also for rows made at another", () => {
		const previousLevel = chalk.level;
		try {
			chalk.level = 1;
			const [row] = codeRows([{ text: "const a", color: "magenta" }], 40);
			expect(rowAnsi(row)).toBe(toAnsi(row));
			expect(rowAnsi(row)).toContain("\x1b[");
			chalk.level = 0;
			expect(rowAnsi(row)).toBe("  const a");
			chalk.level = 1;
			expect(rowAnsi(row)).toBe(toAnsi(row));
		} finally {
			chalk.level = previousLevel;
		}
	});

	it("give a line that fits the one row wrapSegments gives it, piece for piece, on random lines", () => {
		const piece = fc.record({
			text: fc
				.array(fc.constantFrom("a", "word", " ", "   ", "\t", "日本", "😀", "e\u0301", "x".repeat(20), "\u0001"), {
					minLength: 1,
					maxLength: 6,
				})
				.map((p) => p.join("")),
			style: fc.constantFrom(undefined, { color: "magenta" }, { color: "green" }),
		});
		assertTakenOften(
			fc.tuple(fc.array(piece, { maxLength: 8 }), fc.integer({ min: 1, max: 80 })),
			([pieces, width]) => {
				const row = oneRow(pieces, width);
				// Declining is always right: wrapSegments then wraps the line.
				if (row === undefined) return false;
				expect(wrapSegments(pieces, width, { firstPrefix: INDENT, restPrefix: INDENT, keepIndent: true })).toEqual([row]);
				return true;
			},
			{ numRuns: 3000, atLeast: 1000 },
		);
	});
});
