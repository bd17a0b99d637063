import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { invisibleSource, keptInEmoji } from "../../src/safety/invisible.js";
import { toJsonLine } from "../../src/safety/json-line.js";
import { anyInvisible, EMOJI_SEQUENCES, INVISIBLE_CODE_POINTS, ISSUE_EXAMPLES, ordinaryChar, ordinaryText } from "./invisible-fixtures.js";

const escapedUnits = (text: string): string =>
	Array.from({ length: text.length }, (_, i) => `\\u${text.charCodeAt(i).toString(16).padStart(4, "0")}`).join("");

describe("toJsonLine", () => {
	it("escapes DEL, C1 controls and U+2028/9, which JSON.stringify leaves raw", () => {
		expect(JSON.stringify("a\x9bb")).toBe('"a\x9bb"');
		expect(toJsonLine({ text: "a\x9b2J\x9d0;t\x9c\x7f\u2028\u2029" })).toBe('{"text":"a\\u009b2J\\u009d0;t\\u009c\\u007f\\u2028\\u2029"}');
		expect(toJsonLine({ text: "\x1b[2J" })).toBe('{"text":"\\u001b[2J"}');
	});

	it("escapes bidi controls, zero-width and tag characters, so a client printing the line sees them", () => {
		const line = toJsonLine({ text: "a\u202eb\u2066c\u200bd\ufeffe\u{e0041}f" });
		expect(line).toBe('{"text":"a\\u202eb\\u2066c\\u200bd\\ufeffe\\udb40\\udc41f"}');
		expect(JSON.parse(line).text).toBe("a\u202eb\u2066c\u200bd\ufeffe\u{e0041}f");
	});

	it("property: no raw control character leaves, and the line parses back to the same value", { timeout: 30_000 }, () => {
		fc.assert(
			fc.property(
				fc.dictionary(fc.string({ unit: "binary", maxLength: 8 }), fc.string({ unit: "binary", maxLength: 40 }), { maxKeys: 4 }),
				fc.string({ unit: "binary", maxLength: 50 }),
				(value, text) => {
					const line = toJsonLine({ value, text });
					if (/[\x00-\x1f\x7f-\x9f\u2028\u2029]/.test(line)) return false;
					// Invisible characters stay raw only as part of an emoji (a ZWJ between pictographs, VS16).
					if ([...line.matchAll(new RegExp(invisibleSource(""), "g"))].some((m) => !keptInEmoji(line, m.index))) return false;
					expect(JSON.parse(line)).toEqual(JSON.parse(JSON.stringify({ value, text })));
					return true;
				},
			),
			{ numRuns: 200 },
		);
	});

	it("escapes every default-ignorable code point of the table (the issue's examples among them)", () => {
		const missed = INVISIBLE_CODE_POINTS.filter((cp) => {
			const ch = String.fromCodePoint(cp);
			const line = toJsonLine({ t: `a${ch}b` });
			return line !== `{"t":"a${escapedUnits(ch)}b"}` || JSON.parse(line).t !== `a${ch}b`;
		});
		expect(missed.map((cp) => cp.toString(16))).toEqual([]);
		for (const cp of ISSUE_EXAMPLES) expect(toJsonLine(String.fromCodePoint(cp))).toMatch(/^"(\\u[0-9a-f]{4})+"$/);
	});

	it("property: an invisible character anywhere is escaped; ordinary text and emoji sequences stay raw", { timeout: 30_000 }, () => {
		fc.assert(
			fc.property(fc.array(ordinaryChar, { maxLength: 10 }), anyInvisible, ordinaryText, (before, hidden, text) => {
				const value = { text, hidden: `${before.join("")}${hidden}` };
				const line = toJsonLine(value);
				expect(line).toBe(JSON.stringify({ text, hidden: `${before.join("")}` }).replace(/"}$/, `${escapedUnits(hidden)}"}`));
				expect(JSON.parse(line)).toEqual(value);
			}),
			{ numRuns: 2000 },
		);
		for (const emoji of EMOJI_SEQUENCES) expect(toJsonLine(emoji)).toBe(`"${emoji}"`);
	});
});
