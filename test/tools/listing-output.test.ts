import { describe, expect, it } from "vitest";
import { capListing, LISTING_CUT_NOTE, limitNote, withNotes } from "../../src/tools/listing-output.js";
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

	it("appends notes as one bracketed line, and nothing without notes", () => {
		expect(withNotes("a", [])).toBe("a");
		expect(withNotes("a", [limitNote(5, "matches"), LISTING_CUT_NOTE])).toBe(
			"a\n\n[5 matches limit reached. Use limit=10 for more, or refine the pattern. Output cut at 50.0KB]",
		);
	});
});
