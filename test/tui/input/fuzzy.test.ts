import { describe, expect, it } from "vitest";
import { fuzzyFilter, fuzzyScore, TopMatches } from "../../../src/tui/input/fuzzy.js";

describe("fuzzyScore", () => {
	it("needs the query's characters in order, case-insensitive", () => {
		expect(fuzzyScore("abc", "a/b/c")).toBeDefined();
		expect(fuzzyScore("ABC", "abc")).toBeDefined();
		expect(fuzzyScore("cba", "abc")).toBeUndefined();
	});

	it("ranks segment starts, runs and file names above scattered matches", () => {
		expect(fuzzyFilter("st", ["best/x", "src/test.ts"], 5)[0]).toBe("src/test.ts");
		expect(fuzzyFilter("app", ["components/App.tsx", "a/p/p/long-name.ts"], 5)[0]).toBe("components/App.tsx");
		expect(fuzzyFilter("x", ["a", "b"], 5)).toEqual([]);
		expect(fuzzyFilter("a", ["a1", "a2", "a3"], 2)).toHaveLength(2);
	});
});

describe("TopMatches", () => {
	it("keeps the best in order as a full sort would: score, then the shorter path, then name order", () => {
		const top = new TopMatches(3);
		for (const [path, score] of [
			["b", 1],
			["a", 1],
			["long", 5],
			["cc", 1],
			["z", 0],
			["aa", 5],
		] as const)
			top.offer(path, score);
		expect(top.paths()).toEqual(["aa", "long", "a"]);
	});
});
