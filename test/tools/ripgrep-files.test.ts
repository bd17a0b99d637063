import { describe, expect, it } from "vitest";
import { listingThreads } from "../../src/tools/ripgrep-files.js";

describe("listingThreads", () => {
	it("uses every core while the machine has one to spare", () => {
		expect(listingThreads(2, 0.3)).toBe(2);
		expect(listingThreads(2, 1.9)).toBe(2);
		expect(listingThreads(8, 7.5)).toBe(8);
	});

	it("leaves a core for the reader once the machine is busy", () => {
		expect(listingThreads(2, 2)).toBe(1);
		expect(listingThreads(2, 8.7)).toBe(1);
		expect(listingThreads(8, 8)).toBe(7);
	});

	it("never asks for fewer than one thread", () => {
		expect(listingThreads(1, 0)).toBe(1);
		expect(listingThreads(1, 20)).toBe(1);
		expect(listingThreads(0, 0)).toBe(1);
	});
});
