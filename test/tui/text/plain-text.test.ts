import fc from "fast-check";
import { eastAsianWidth } from "get-east-asian-width";
import { describe, expect, it } from "vitest";
// The two string-width releases in Ink's tree (Ink's own, and wrap-ansi's), as installed and unpatched.
import stringWidth8 from "../../../node_modules/string-width/index.js";
import stringWidth7 from "../../../node_modules/wrap-ansi/node_modules/string-width/index.js";
import { plainSegmenter, plainWidth, RANGES, standalone } from "../../../src/tui/text/plain-text.js";

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

describe("plainSegmenter", () => {
	const intl = new Intl.Segmenter(undefined, { granularity: "grapheme" });
	const plain = plainSegmenter({ granularity: "grapheme" });
	const fields = (segments: Iterable<{ segment: string; index: number; input: string }>) =>
		[...segments].map(({ segment, index, input }) => ({ segment, index, input }));
	const table = fc.oneof(...RANGES.map(([first, last]) => fc.integer({ min: first, max: last })));
	const other = fc.constantFrom(0x0301, 0x200d, 0xfe0f, 0x1100, 0x1161, 0xac00, 0xff9e, 0x00a9, 0x2194, 0xd83d, 0xdc4d);
	const text = fc
		.array(fc.oneof(fc.integer({ min: 0, max: 0x7f }), table, other), { maxLength: 12 })
		.map((codes) => String.fromCharCode(...codes));

	it("splits any text as Intl.Segmenter does, itself when every character stands alone", () => {
		let own = 0;
		fc.assert(
			fc.property(text, (s) => {
				if (standalone(s)) own++;
				expect(fields(plain.segment(s))).toEqual(fields(intl.segment(s)));
				const ours = plain.segment(s) as unknown as Intl.Segments;
				for (const at of [-1, 0, 1, s.length - 1, s.length, 2.5]) {
					const theirs = intl.segment(s).containing(at);
					expect(ours.containing(at) && fields([ours.containing(at) as Intl.SegmentData]), `${JSON.stringify(s)} @${at}`).toEqual(
						theirs && fields([theirs]),
					);
				}
			}),
			{ numRuns: 3000 },
		);
		expect(own).toBeGreaterThan(300);
	});

	it("leaves CR, marks, joiners, emoji and Hangul to Intl.Segmenter", () => {
		for (const s of ["a\r\nb", "e\u0301", "a\u200db", "\u2194\ufe0f", "\u1100\u1161", "👍", "©"])
			expect(standalone(s), JSON.stringify(s)).toBe(false);
		expect(standalone("\x1b[31m› a · b ↑0\x1b[0m\n⠋ 日本")).toBe(true);
	});
});
