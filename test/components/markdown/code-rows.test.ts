// Code rows wrapped a source line at a time through the cache are the rows the whole block wrapped at
// once gave, byte for byte, from the cache or not; the cache stays bounded.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CODE_ROW_CACHE_LINES, cachedCodeLines, codeRows } from "../../../components/markdown/code-rows.js";
import { type CodeSegment, highlightCode, loadHighlighter } from "../../../components/markdown/highlight.js";
import { renderMarkdown } from "../../../components/markdown/render-markdown.js";
import { type Line, toAnsi, wrapSegments } from "../../../components/render/styled-text.js";

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
});
