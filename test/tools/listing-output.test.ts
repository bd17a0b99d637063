import { describe, expect, it } from "vitest";
import { capListing, capSortedListing, LISTING_CUT_NOTE, limitNote, withNotes } from "../../src/tools/listing-output.js";
import { DEFAULT_MAX_BYTES } from "../../src/tools/truncate.js";

describe("listing output", () => {
	it("keeps a listing under the byte cap whole", () => {
		expect(capListing(["a", "b"])).toEqual({ text: "a\nb", cut: false });
	});

	it("cuts an oversized listing to whole lines under the cap", () => {
		const line = "x".repeat(99);
		const lines = Array.from({ length: 1000 }, () => line);
		const { text, cut } = capListing(lines);
		expect(cut).toBe(true);
		expect(Buffer.byteLength(text)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
		expect(text.split("\n").every((l) => l === line)).toBe(true);
		expect(text.split("\n")).toHaveLength(Math.floor((DEFAULT_MAX_BYTES + 1) / 100));
	});

	it("shows of an unsorted listing what sorting it whole and cutting would show, at any size and byte cut", () => {
		// A small deterministic generator: paths of mixed lengths, shared prefixes, multi-byte names and duplicates.
		let seed = 7;
		const next = (n: number) => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return seed % n;
		};
		const name = () => `${["src", "lib", "ñandú", "a"][next(4)]}/${"x".repeat(next(60))}${next(100_000)}${next(5) === 0 ? "€" : ""}.ts`;
		for (const size of [0, 1, 50, 4095, 4096, 5000, 40_000]) {
			const lines = Array.from({ length: size }, name);
			if (size > 10) lines.push(lines[3] as string, lines[3] as string);
			const unsorted = [...lines];
			expect(capSortedListing(lines)).toEqual(capListing([...lines].sort()));
			expect(lines).toEqual(unsorted); // left as it was
		}
		// Lines that together just fit, and one byte more.
		const fit = Array.from({ length: 5000 }, (_, i) => `${String(4999 - i).padStart(4, "0")}${"y".repeat(5)}`);
		expect(capSortedListing(fit.slice(0, Math.floor((DEFAULT_MAX_BYTES + 1) / 10)))).toEqual(
			capListing(fit.slice(0, Math.floor((DEFAULT_MAX_BYTES + 1) / 10)).sort()),
		);
		expect(capSortedListing(fit)).toEqual(capListing([...fit].sort()));
	});

	it("appends notes as one bracketed line, and nothing without notes", () => {
		expect(withNotes("a", [])).toBe("a");
		expect(withNotes("a", [limitNote(5, "matches"), LISTING_CUT_NOTE])).toBe(
			"a\n\n[5 matches limit reached. Use limit=10 for more, or refine the pattern. Output cut at 50.0KB]",
		);
	});
});
