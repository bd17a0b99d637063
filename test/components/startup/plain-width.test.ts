import fc from "fast-check";
import { eastAsianWidth } from "get-east-asian-width";
import { describe, expect, it } from "vitest";
import { plainWidth, RANGES } from "../../../components/startup/plain-width.js";
// The two string-width releases in Ink's tree (Ink's own, and wrap-ansi's), as installed and unpatched.
import stringWidth8 from "../../../node_modules/string-width/index.js";
import stringWidth7 from "../../../node_modules/wrap-ansi/node_modules/string-width/index.js";

const widths = [stringWidth8, stringWidth7] as ((text: string, options?: { ambiguousIsNarrow?: boolean }) => number)[];
const segmenter = new Intl.Segmenter();
const clusters = (text: string) => [...segmenter.segment(text)].length;

function* tableCodePoints(): Generator<number> {
	for (const [first, last] of RANGES) for (let code = first; code <= last; code++) yield code;
}

describe("plainWidth", () => {
	it("gives, for every character of its table it answers for, what both string-width releases give", () => {
		const wrong: string[] = [];
		let answered = 0;
		for (const code of tableCodePoints()) {
			const char = String.fromCharCode(code);
			for (const ambiguousIsNarrow of [true, false]) {
				const ours = plainWidth(char, eastAsianWidth, { ambiguousAsWide: !ambiguousIsNarrow });
				if (ours === -1) continue;
				answered++;
				for (const width of widths) if (width(char, { ambiguousIsNarrow }) !== ours) wrong.push(code.toString(16));
			}
		}
		expect(wrong).toEqual([]);
		expect(answered).toBeGreaterThan(40_000);
	});

	it("answers only for characters that are a grapheme cluster of their own next to any other", () => {
		const joining: string[] = [];
		for (const code of tableCodePoints()) {
			const char = String.fromCharCode(code);
			if (plainWidth(char, eastAsianWidth) === -1) continue;
			const property = /[\p{M}\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Grapheme_Extend}]/u.test(char);
			if (property || clusters(char + char) !== 2 || clusters(`a${char}a`) !== 3) joining.push(code.toString(16));
		}
		expect(joining).toEqual([]);
	});

	it("matches both releases on random text, and leaves everything outside its table to them", () => {
		const table = fc.oneof(...RANGES.map(([first, last]) => fc.integer({ min: first, max: last })));
		const other = fc.constantFrom(0x0301, 0x200d, 0xfe0f, 0x1100, 0x1161, 0xac00, 0x09, 0x0a, 0x1b, 0xad, 0xff9e, 0x00a9, 0x2194);
		const text = fc
			.array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), table, other), { maxLength: 12 })
			.map((codes) => String.fromCharCode(...codes));
		fc.assert(
			fc.property(text, (s) => {
				const ours = plainWidth(s, eastAsianWidth);
				if (ours === -1) return;
				for (const width of widths) expect(width(s)).toBe(ours);
			}),
			{ numRuns: 5000 },
		);
		for (const s of ["e\u0301", "a\u200db", "\u2194\ufe0f", "\u1100\u1161", "a\tb", "a\nb", "\u00ad", "ｶﾞ", "\x1b[1mx"]) {
			expect(plainWidth(s, eastAsianWidth), JSON.stringify(s)).toBe(-1);
		}
	});

	it("answers for the characters the first screen and the spinner draw", () => {
		for (const s of ["› ask, /command", "a · b · ↑0 ↓0 · $0.000", "…", "─────", "⠋⠙⠹⠸", "✓ ✗ ● ⎿", "日本語", "über"]) {
			expect(plainWidth(s, eastAsianWidth), s).toBe(stringWidth8(s));
		}
	});
});
