import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayWidth, lastRows, wrapLine } from "../../../src/tui/text/text-width.js";

describe("text width", () => {
	it("counts wide characters as two cells and combining marks as none", () => {
		expect(displayWidth("abc")).toBe(3);
		expect(displayWidth("日本")).toBe(4);
		expect(displayWidth("😀")).toBe(2);
		expect(displayWidth("e\u0301")).toBe(1);
	});

	it("wraps without splitting a wide character across rows", () => {
		expect(wrapLine("日本語です", 5)).toEqual(["日本", "語で", "す"]);
		expect(wrapLine("abcdef", 4)).toEqual(["abcd", "ef"]);
	});

	it("returns the last rows of a long text, wrapped", () => {
		const text = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join("\n");
		expect(lastRows(text, 80, 3)).toEqual(["line 997", "line 998", "line 999"]);
		expect(lastRows("abcdefghij", 4, 2)).toEqual(["efgh", "ij"]);
		expect(lastRows("a\n\nb", 10, 5)).toEqual(["a", "", "b"]);
	});
});

describe("displayWidth over char codes", () => {
	/** The code-point walk it replaced (one code point at a time, so only the walk differs). */
	const byCodePoints = (text: string) => {
		let width = 0;
		for (const ch of text) width += displayWidth(ch);
		return width;
	};

	it("equals the sum over code points for random text: wide, combining, astral and lone surrogates", () => {
		const chars = ["a", " ", "é", "\u0301", "日", "😀", "🧪", "\u200b", "\ufe0f", "\ud83d", "\ude00", "가", "ｱ", "𠀀", "\u{3fffe}"];
		fc.assert(
			fc.property(
				fc.array(
					fc.oneof(
						fc.constantFrom(...chars),
						fc.string({ unit: "binary", maxLength: 3 }),
						fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
					),
				),
				(parts) => {
					const text = parts.join("");
					expect(displayWidth(text)).toBe(byCodePoints(text));
				},
			),
			{ numRuns: 500 },
		);
	});

	it("counts a lone surrogate as one cell and a pair as its code point", () => {
		expect(displayWidth("\ud83d")).toBe(1);
		expect(displayWidth("\ude00x")).toBe(2);
		expect(displayWidth("\ud83d\ude00")).toBe(2);
		expect(displayWidth("\ud840\udc00")).toBe(2);
	});
});
