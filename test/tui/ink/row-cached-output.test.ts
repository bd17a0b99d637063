// The bundle replaces Ink's Output.get with renderOutput; a frame must come out byte for byte as
// Ink would have written it, first time (row built) and again (row taken from the cache).
import {
	ansiCodesToString,
	diffAnsiCodes,
	reduceAnsiCodesIncremental,
	styledCharsFromTokens,
	styledCharsToString,
	tokenize,
} from "@alcalzone/ansi-tokenize";
import chalk from "chalk";
import fc from "fast-check";
import sliceAnsi from "slice-ansi";
import { describe, expect, it } from "vitest";
import widestLine from "widest-line";
// Ink's package exports only its entry; the class is reached by path, as the bundle plugin does.
import Output from "../../../node_modules/ink/build/output.js";
import {
	type InkOutput,
	mergeStyleRuns,
	PLAIN,
	plainWidth,
	renderOutput,
	type StyledCell,
} from "../../../src/tui/ink/row-cached-output.js";
import { type Segment, toAnsi } from "../../../src/tui/text/styled-text.js";
import { assertTakenOften } from "../../helpers/shortcut-property.js";
import { type FilledOutput, type Frame, fillOutput, frame, type OutputClass, text } from "./output-frames.js";

// What the patched output.js passes (patches.ts).
const deps = { styledCharsToString, sliceAnsi, tokenize, reduceAnsiCodesIncremental, diffAnsiCodes, ansiCodesToString } as Parameters<
	typeof renderOutput
>[1];

/** The deps, counting the rows styledCharsToString builds. */
function countingBuilds() {
	let count = 0;
	const counting = {
		...deps,
		styledCharsToString: (cells: StyledCell[]) => {
			count++;
			return deps.styledCharsToString(cells);
		},
	};
	return { counting, built: () => count };
}

const inkOutput = (f: Frame) => fillOutput(Output as OutputClass, f) as InkOutput & FilledOutput;

describe("renderOutput (Ink's Output.get, row-cached)", () => {
	it("writes every random frame exactly as Ink does, built and cached", () => {
		fc.assert(
			fc.property(frame, (f) => {
				const expected = inkOutput(f).get();
				expect(renderOutput(inkOutput(f), deps)).toEqual(expected);
				expect(renderOutput(inkOutput(f), deps)).toEqual(expected);
			}),
			{ numRuns: 2000 },
		);
		// Thousands of frames: seconds on a loaded 2-core machine, past the default 5 s.
	}, 60_000);

	it("builds rows of one-cell characters (the fast path's whole set) exactly as Ink does", () => {
		let checked = 0;
		for (let code = 0x20; code <= 0xffff; code++) {
			const ch = String.fromCharCode(code);
			if (!PLAIN.test(ch)) continue;
			checked++;
			// A second piece over the first shows where Ink put each cell (a wide character takes two).
			const f = {
				width: 8,
				height: 1,
				operations: [
					{ type: "write", x: 0, y: 0, text: `${ch}${ch}b`, transformers: [] },
					{ type: "write", x: 1, y: 0, text: "Z", transformers: [] },
				],
			};
			expect(renderOutput(inkOutput(f), deps), `U+${code.toString(16)}`).toEqual(inkOutput(f).get());
		}
		expect(checked).toBeGreaterThan(700);
	}, 60_000);

	it("rebuilds a row whose pieces changed and keeps width in the key", () => {
		const a = renderOutput(
			inkOutput({ width: 10, height: 2, operations: [{ type: "write", x: 0, y: 0, text: "one\ntwo", transformers: [] }] }),
			deps,
		);
		const b = renderOutput(
			inkOutput({ width: 10, height: 2, operations: [{ type: "write", x: 0, y: 0, text: "one\ntwo!", transformers: [] }] }),
			deps,
		);
		expect(a.output).toBe("one\ntwo");
		expect(b.output).toBe("one\ntwo!");
		// A piece beyond the frame's width lands after the last column (Ink drops the holes), so the
		// same pieces give a different row at another width.
		const narrow = { height: 1, operations: [{ type: "write", x: 6, y: 0, text: "z", transformers: [] }] };
		expect(renderOutput(inkOutput({ width: 8, ...narrow }), deps).output).toBe("      z");
		expect(renderOutput(inkOutput({ width: 3, ...narrow }), deps).output).toBe("   z");
	});
});

describe("a row of one piece, built from its runs between SGR codes", () => {
	const oneWrite = (width: number, x: number, line: string) => ({
		width,
		height: 1,
		operations: [{ type: "write", x, y: 0, text: line, transformers: [] }],
	});
	const style = fc.record(
		{
			bold: fc.boolean(),
			dim: fc.boolean(),
			italic: fc.boolean(),
			underline: fc.boolean(),
			strikethrough: fc.boolean(),
			color: fc.constantFrom("cyan", "gray", "red", "#d7875f", "blueBright", "nocolor"),
		},
		{ requiredKeys: [] },
	);
	const segmentText = fc.constantFrom("a", "word ", " ", "  ", "世界", "👋", "e\u0301", "•", "─", "x y", "\u00a0", "\u3000");
	const segments = fc.array(fc.record({ text: segmentText, style: fc.option(style, { nil: undefined }) }), { maxLength: 8 });

	it("gives the row Ink's Output gives for rows we styled ourselves (toAnsi, at every colour level)", () => {
		const level = chalk.level;
		let styled = 0;
		try {
			fc.assert(
				fc.property(
					segments,
					fc.integer({ min: 0, max: 30 }),
					fc.integer({ min: 1, max: 40 }),
					fc.constantFrom(1, 2, 3),
					(line: Segment[], x, width, colours) => {
						chalk.level = colours as typeof chalk.level;
						const ansi = toAnsi(line);
						if (ansi.includes("\x1b[")) styled++;
						const f = oneWrite(width, x, ansi);
						expect(renderOutput(inkOutput(f), deps)).toEqual(inkOutput(f).get());
					},
				),
				{ numRuns: 3000 },
			);
		} finally {
			chalk.level = level;
		}
		expect(styled).toBeGreaterThan(1500);
	}, 60_000);

	it("gives Ink's row for any text Ink's tokenizer reads (links, stray escapes, marks after a code)", () => {
		const odd = fc.constantFrom("\x1b[1;2;36m", "\x1b[m", "\x1b[38;5;12m", "\x1b[1:2m", "\x1b[?25h", "\x1b", "\x9b1m", "\u0301", "\x1b[0m");
		const line = fc.array(fc.oneof(text, odd), { minLength: 1, maxLength: 6 }).map((parts) => parts.join("").split("\n")[0]);
		fc.assert(
			fc.property(line, fc.integer({ min: -3, max: 30 }), fc.integer({ min: 1, max: 30 }), (l, x, width) => {
				const f = oneWrite(width, x, l);
				expect(renderOutput(inkOutput(f), deps)).toEqual(inkOutput(f).get());
			}),
			{ numRuns: 3000 },
		);
	}, 60_000);

	// Runs that start below U+0300 (a run at or above it after a code is built cell by cell).
	const plainRuns = fc.array(
		fc.record({ text: fc.constantFrom("a", "word ", " ", "  ", "x y", "\u00a0", "é世界"), style: fc.option(style, { nil: undefined }) }),
		{ maxLength: 8 },
	);
	const styledRuns = fc.array(
		fc.record({
			text: fc.constantFrom("a", "word ", " ", "x y", "\u00a0", "é世界", "\u0301"),
			style: fc.option(style, { nil: undefined }),
		}),
		{ minLength: 1, maxLength: 4 },
	);
	const moreText = fc.array(fc.constantFrom("a", "word ", " ", "  ", "世界", "e\u0301", "\u0301", "•", "\u00a0"), {
		minLength: 1,
		maxLength: 4,
	});
	// Besides our own rows' codes, ones the runs decline (a C1 CSI, a link, a bare ESC) and raw SGR codes.
	const odd = fc.constantFrom("\x1b[0m", "\x1b[1;2;36m", "\x1b[m", "\x1b[38;5;12m", "\x9b1m", "\x1b]8;;x\x07", "\x1b", "\x1b[1:2m");
	const highlighted = fc.oneof({ weight: 5, arbitrary: styledRuns.map((line) => toAnsi(line)) }, { weight: 1, arbitrary: odd });

	// A styled row that fits (as the live frame's rows do) grows without being built again, but for a
	// mark after a code, a link or a C1 code (built whole). `counts`: which grown rows the share is of.
	interface Growth {
		start: fc.Arbitrary<Parameters<typeof toAnsi>[0]>;
		steps: fc.Arbitrary<string[]>;
		counts: (line: string) => boolean;
	}
	const growths: [string, Growth][] = [
		[
			"text (the streaming tail's last row), from the row before it",
			{ start: plainRuns, steps: moreText.map((added) => [added.join("")]), counts: () => true },
		],
		[
			"highlighted text (codes in what was added), frame after frame",
			{ start: styledRuns, steps: fc.array(highlighted, { minLength: 1, maxLength: 4 }), counts: (line) => line.includes("\x1b[") },
		],
	];
	it.each(growths)(
		"gives Ink's row for a row grown by %s",
		(_what, { start, steps, counts }) => {
			const level = chalk.level;
			let grown = 0;
			let tried = 0;
			try {
				fc.assert(
					fc.property(
						start,
						steps,
						fc.integer({ min: 0, max: 10 }),
						fc.integer({ min: 80, max: 120 }),
						fc.constantFrom(1, 2, 3),
						(runs, additions, x, width, colours) => {
							chalk.level = colours as typeof chalk.level;
							let line = toAnsi(runs);
							const { counting, built } = countingBuilds();
							expect(renderOutput(inkOutput(oneWrite(width, x, line)), counting)).toEqual(inkOutput(oneWrite(width, x, line)).get());
							for (const more of additions) {
								const before = built();
								line += more;
								expect(renderOutput(inkOutput(oneWrite(width, x, line)), counting)).toEqual(inkOutput(oneWrite(width, x, line)).get());
								if (before === 1 && counts(line)) {
									tried++;
									if (built() === 1) grown++;
								}
							}
						},
					),
					{ numRuns: 2000 },
				);
			} finally {
				chalk.level = level;
			}
			expect(grown).toBeGreaterThan(tried / 2);
		},
		60_000,
	);

	it("grows a row from its last build though another row was built in between (the status line under the tail)", () => {
		const { counting, built } = countingBuilds();
		const tail = "\x1b[1mbold\x1b[22m and a paragraph growing";
		const status = "\x1b[2mworking 1s · Esc stops\x1b[22m";
		for (const line of [tail, status, `${tail} by`, status.replace("1s", "2s"), `${tail} by a word`]) {
			const f = oneWrite(100, 0, line);
			expect(renderOutput(inkOutput(f), counting)).toEqual(inkOutput(f).get());
		}
		expect(built()).toBe(3);
	});

	it("tokenizes only the codes, not each character", () => {
		let tokenized = 0;
		const counting = {
			...deps,
			tokenize: (t: string) => {
				tokenized += t.length;
				return tokenize(t);
			},
		};
		const line = `\x1b[1m${"a".repeat(60)}\x1b[22m \x1b[38;5;200m${"b".repeat(60)}\x1b[39m`;
		const f = oneWrite(130, 2, line);
		expect(renderOutput(inkOutput(f), counting)).toEqual(inkOutput(f).get());
		expect(tokenized).toBeLessThan(40);
	});
});

describe("plainWidth (Ink's measure, without measuring)", () => {
	const plainChars: string[] = [];
	for (let code = 0x20; code <= 0xffff; code++) if (PLAIN.test(String.fromCharCode(code))) plainChars.push(String.fromCharCode(code));

	it("is widest-line's width for every PLAIN character it takes, and takes all but the soft hyphen", () => {
		const taken = plainChars.filter((ch) => plainWidth(ch) !== undefined);
		for (const ch of taken) expect(plainWidth(ch), `U+${ch.charCodeAt(0).toString(16)}`).toBe(widestLine(ch));
		expect(plainChars.length - taken.length).toBe(1);
	});

	it("is widest-line's width of random lines of them between SGR codes, or undefined", () => {
		const code = fc.constantFrom(
			"\x1b[1m",
			"\x1b[22m",
			"\x1b[1;2;36m",
			"\x1b[m",
			"\x1b[38;5;123m",
			"\x1b[38;2;255;0;10m",
			"\x1b[12345m",
			"\x1b[1:2m",
			"\x1b",
			"\x1b[?25h",
			"\x07",
			"\t",
			"世",
			"👋",
		);
		const line = fc.array(fc.oneof(fc.constantFrom(...plainChars), code), { maxLength: 12 }).map((parts) => parts.join(""));
		assertTakenOften(
			line,
			(l) => {
				const w = plainWidth(l);
				if (w === undefined) return false;
				expect(w).toBe(widestLine(l));
				return true;
			},
			{ numRuns: 5000, atLeast: 500 },
		);
	});
});

describe("mergeStyleRuns", () => {
	const cellsOf = (line: string) => styledCharsFromTokens(tokenize(line)) as unknown as StyledCell[];

	it("gives styledCharsToString the same string as the cells one by one", () => {
		fc.assert(
			fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (parts) => {
				const cells = cellsOf(parts.join(""));
				expect(styledCharsToString(mergeStyleRuns(cells) as never)).toBe(styledCharsToString(cells as never));
			}),
			{ numRuns: 2000 },
		);
	});

	it("turns a styled row into one cell per change of style, not one per column", () => {
		// A resumed history is hundreds of rows like this drawn at once: per column, the styles' diff
		// allocated three Sets and four arrays each.
		const line = `\x1b[1m${"a".repeat(60)}\x1b[22m\x1b[2m${"b".repeat(60)}\x1b[22m`;
		let cellsSeen = 0;
		const counting = {
			...deps,
			styledCharsToString: (cells: Parameters<typeof styledCharsToString>[0]) => {
				cellsSeen += cells.length;
				return styledCharsToString(cells);
			},
		};
		const f = { width: 120, height: 1, operations: [{ type: "write", x: 0, y: 0, text: line, transformers: [] }] };
		expect(renderOutput(inkOutput(f), counting)).toEqual(inkOutput(f).get());
		expect(cellsSeen).toBe(2);
	});
});
