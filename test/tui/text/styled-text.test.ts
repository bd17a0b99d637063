import { Chalk } from "chalk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Line, type Segment, segmentsWidth, toAnsi, tokenize, truncateLine, wrapSegments } from "../../../src/tui/text/styled-text.js";
import { displayWidth } from "../../../src/tui/text/text-width.js";

const rows = (lines: Line[]) => lines.map((l) => l.map((s) => s.text).join(""));

describe("wrapSegments", () => {
	it("breaks at spaces, dropping them at the break, and starts a row at every newline", () => {
		expect(rows(wrapSegments([{ text: "the quick brown fox jumps" }], 10))).toEqual(["the quick", "brown fox", "jumps"]);
		expect(rows(wrapSegments([{ text: "one\ntwo three" }], 6))).toEqual(["one", "two", "three"]);
		expect(rows(wrapSegments([{ text: "a  b" }], 10))).toEqual(["a  b"]);
		expect(rows(wrapSegments([{ text: "" }], 10))).toEqual([""]);
	});

	it("keeps a word made of several styled pieces together and each piece's style", () => {
		const lines = wrapSegments([{ text: "see " }, { text: "bold", style: { bold: true } }, { text: ", then" }], 8);
		expect(rows(lines)).toEqual(["see", "bold,", "then"]);
		expect(lines[1]).toEqual([
			{ text: "bold", style: { bold: true } },
			{ text: ",", style: undefined },
		]);
	});

	it("splits words longer than a row by characters, wide characters as two cells", () => {
		expect(rows(wrapSegments([{ text: "abcdefghij" }], 4))).toEqual(["abcd", "efgh", "ij"]);
		expect(rows(wrapSegments([{ text: "x 漢字漢字漢" }], 4))).toEqual(["x", "漢字", "漢字", "漢"]);
		expect(rows(wrapSegments([{ text: "ab漢" }], 3))).toEqual(["ab", "漢"]);
		// A wide character cannot fit a one-cell row: printed anyway instead of looping forever.
		expect(rows(wrapSegments([{ text: "漢字" }], 1))).toEqual(["漢", "字"]);
	});

	it("puts the first prefix on the first row and the hanging prefix on the others, hard breaks included", () => {
		const lines = wrapSegments([{ text: "alpha beta gamma\ndelta" }], 10, { firstPrefix: [{ text: "› " }], restPrefix: [{ text: "  " }] });
		expect(rows(lines)).toEqual(["› alpha", "  beta", "  gamma", "  delta"]);
	});

	it("repeats a source line's indentation on its wrapped rows when asked", () => {
		const source = [{ text: "fn()\n    call(alpha, beta)" }];
		expect(rows(wrapSegments(source, 16, { keepIndent: true }))).toEqual(["fn()", "    call(alpha,", "    beta)"]);
		expect(rows(wrapSegments(source, 16))).toEqual(["fn()", "    call(alpha,", "beta)"]);
	});

	it("never makes a row wider than the width, and loses no character but spaces at breaks", () => {
		const word = fc.stringMatching(/^[a-z漢字é]{1,12}$/);
		const text = fc.array(fc.oneof(word, fc.constantFrom(" ", "  ", "\n")), { maxLength: 40 }).map((p) => p.join(""));
		fc.assert(
			fc.property(text, fc.integer({ min: 4, max: 30 }), (t, width) => {
				const lines = wrapSegments([{ text: t, style: { bold: true } }], width, {
					firstPrefix: [{ text: "> " }],
					restPrefix: [{ text: "  " }],
				});
				for (const line of lines) expect(segmentsWidth(line)).toBeLessThanOrEqual(width);
				const kept = rows(lines)
					.map((r) => r.slice(2))
					.join("")
					.replace(/ /g, "");
				expect(kept).toBe(t.replace(/[ \n]/g, ""));
			}),
			{ numRuns: 500 },
		);
	});
});

describe("truncateLine", () => {
	it("cuts a row to the width with an ellipsis, keeping styles", () => {
		const line: Segment[] = [{ text: "✓ " }, { text: "bash", style: { bold: true } }, { text: " ls -la /tmp", style: { dim: true } }];
		expect(truncateLine(line, 40)).toEqual(line);
		const cut = truncateLine(line, 10);
		expect(rows([cut])).toEqual(["✓ bash ls…"]);
		expect(segmentsWidth(cut)).toBe(10);
		expect(cut.at(-1)?.style).toEqual({ dim: true });
		expect(rows([truncateLine([{ text: "漢字漢字" }], 5)])).toEqual(["漢字…"]);
	});
});

describe("toAnsi", () => {
	it("prints plain text when chalk has no colour level (as in tests)", () => {
		expect(toAnsi([{ text: "a", style: { bold: true, color: "red" } }, { text: "b" }])).toBe("ab");
	});

	it("emits the SGR codes Ink's <Text> would, one pair per run of the same style", async () => {
		const chalk = new Chalk({ level: 1 });
		const { default: defaultChalk } = await import("chalk");
		const saved = defaultChalk.level;
		defaultChalk.level = 1;
		try {
			const line: Segment[] = [
				{ text: "› ", style: { bold: true, color: "cyan" } },
				{ text: "a", style: { dim: true, italic: true } },
				{ text: "b", style: { dim: true, italic: true } },
				{ text: " plain " },
				{ text: "x", style: { underline: true, strikethrough: true, color: "#ff0000" } },
			];
			expect(toAnsi(line)).toBe(
				chalk.bold(chalk.cyan("› ")) +
					chalk.italic(chalk.dim("ab")) +
					" plain " +
					chalk.strikethrough(chalk.underline(chalk.hex("#ff0000")("x"))),
			);
		} finally {
			defaultChalk.level = saved;
		}
	});
});

describe("tokenize", () => {
	/** What it did before: a regex split of each segment, neighbours of a kind joined. */
	function bySplit(line: readonly Segment[]) {
		const tokens: { pieces: Segment[]; width: number; space: boolean }[] = [];
		for (const segment of line) {
			for (const text of segment.text.split(/( +)/)) {
				if (!text) continue;
				const space = text.charCodeAt(0) === 32;
				const last = tokens[tokens.length - 1];
				const piece = { text, style: segment.style };
				const width = displayWidth(text);
				if (last && last.space === space) {
					last.pieces.push(piece);
					last.width += width;
				} else tokens.push({ pieces: [piece], width, space });
			}
		}
		return tokens;
	}

	it("cuts random styled lines into the words and space runs the regex split gave", () => {
		const part = fc.constantFrom("a", "word", " ", "  ", "\t", "日本", "😀", "", "x y", " lead", "trail ", "é\u0301");
		const segment = fc.record({
			text: fc.array(part, { maxLength: 6 }).map((p) => p.join("")),
			style: fc.constantFrom(undefined, { bold: true }, { color: "green" }),
		});
		fc.assert(
			fc.property(fc.array(segment, { maxLength: 8 }), (line) => {
				expect(tokenize(line)).toEqual(bySplit(line));
			}),
			{ numRuns: 2000 },
		);
	});
});
