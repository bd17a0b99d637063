import { describe, expect, it } from "vitest";
import { DEFAULT_IGNORABLE_RANGES, DEFAULT_IGNORABLE_UNICODE_VERSION } from "../../src/safety/default-ignorable.js";

const inTable = (cp: number): boolean => DEFAULT_IGNORABLE_RANGES.some(([first, last]) => cp >= first && cp <= last);

describe("the generated Default_Ignorable_Code_Point table", () => {
	it("was generated from this Node's Unicode version (else run scripts/gen-default-ignorable.mjs)", () => {
		expect(DEFAULT_IGNORABLE_UNICODE_VERSION).toBe(process.versions.unicode);
	});

	it("holds exactly the code points the property names, over all of Unicode", () => {
		const property = /^\p{Default_Ignorable_Code_Point}$/u;
		const differing: string[] = [];
		for (let cp = 0; cp <= 0x10ffff; cp++) {
			if (cp >= 0xd800 && cp <= 0xdfff) continue;
			if (property.test(String.fromCodePoint(cp)) !== inTable(cp)) differing.push(cp.toString(16));
		}
		expect(differing).toEqual([]);
	});

	it("ranges are ascending, disjoint and not adjacent", () => {
		for (let i = 1; i < DEFAULT_IGNORABLE_RANGES.length; i++) {
			expect(DEFAULT_IGNORABLE_RANGES[i][0]).toBeGreaterThan(DEFAULT_IGNORABLE_RANGES[i - 1][1] + 1);
		}
	});
});
