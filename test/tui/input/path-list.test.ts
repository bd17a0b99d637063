import { describe, expect, it } from "vitest";
import { loweredScore } from "../../../src/tui/input/fuzzy.js";
import { alignedLower, PathList } from "../../../src/tui/input/path-list.js";

describe("PathList", () => {
	// Over several joined segments (1,024 paths each), with names a path's neighbours could complete:
	// a score looks only within its own path.
	const paths = Array.from(
		{ length: 2500 },
		(_, i) =>
			[`src/Module${i}/`, `a${i}`, `pkg-${i % 7}/deep/TargetWidget-${i}.tsx`, `x/İstanbul-${i}.md`, `ñandú/€uro_${i}.ts`, "t", `w/target`][
				i % 7
			] as string,
	);
	const list = PathList.of(paths);

	it("keeps every path, in order, across its joined segments", () => {
		expect(list.size).toBe(paths.length);
		expect(Array.from({ length: list.size }, (_, i) => list.path(i))).toEqual(paths);
	});

	it("scores each path in place as the path alone scores, the same case-blind matching included", () => {
		for (const query of ["t", "tw", "target", "widget-1", "module1/", "istanbul", "€uro", "ñ", "a1", "pkg-3/d", "zzz", "/"]) {
			for (let i = 0; i < paths.length; i++) {
				const path = paths[i] as string;
				expect(list.score(query, i), `${query} in ${path}`).toBe(loweredScore(query, path, alignedLower(path)));
			}
		}
		// "İ" lower-cases to two characters ("i" and a combining dot): its first keeps the offsets aligned.
		expect(alignedLower("x/İstanbul-3.md")).toBe("x/istanbul-3.md");
		expect(list.score("istanbul", 3)).toBe(loweredScore("istanbul", "x/İstanbul-3.md", "x/istanbul-3.md"));
		expect(list.score("istanbul", 3)).toBeGreaterThan(0);
	});

	it("tells an identical listing from a different one, and takes no path once finished", () => {
		expect(list.sameAs(PathList.of([...paths]))).toBe(true);
		expect(list.sameAs(PathList.of([...paths.slice(0, -1), "other"]))).toBe(false);
		expect(list.sameAs(PathList.of(paths.slice(1)))).toBe(false);
		expect(list.sameAs(undefined)).toBe(false);
		expect(() => list.push("late.ts")).toThrow("push after finish");
	});
});
