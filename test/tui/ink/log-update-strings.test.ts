import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keptErases, lineCount } from "../../../src/tui/ink/log-update-strings.js";

describe("log-update's per-frame strings", () => {
	it("counts the lines split would give, for any text", () => {
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom("a", "\n", "─", "\r", " ") }), (text) => {
				expect(lineCount(text)).toBe(text.split("\n").length);
			}),
			{ numRuns: 2000 },
		);
		expect(lineCount("")).toBe(1);
		expect(lineCount("\n")).toBe(2);
	});

	it("gives the erase it wraps for every count, built once per kept height", () => {
		// The erase's bytes against Ink's own: test/tui/ink/patched/log-update.test.ts.
		const eraseLines = (count: number) => `${"x".repeat(count)}${count}`;
		const counts: number[] = [];
		const erase = keptErases((count) => {
			counts.push(count);
			return eraseLines(count);
		});
		for (const count of [0, 1, 2, 39, 255, 256, 400, 39, 1, 0, 256]) expect(erase(count)).toBe(eraseLines(count));
		// Heights past the kept ones are built each time.
		expect(counts).toEqual([0, 1, 2, 39, 255, 256, 400, 256]);
	});
});
