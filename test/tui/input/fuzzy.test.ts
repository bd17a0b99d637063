import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileIndex } from "../../../src/tui/input/file-index.js";
import { fuzzyFilter, fuzzyScore } from "../../../src/tui/input/fuzzy.js";
import { useTempFolder } from "../../tools/temp-folder.js";

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

describe("FileIndex", () => {
	const temp = useTempFolder();

	it("walks the folder once in the background, leaving out what .gitignore ignores", async () => {
		const root = temp.path;
		await mkdir(join(root, ".git"));
		await temp.write({ ".gitignore": "dist/\n*.log\n", "src/main.ts": "", "dist/main.js": "", "debug.log": "", ".git/HEAD": "" });
		let updates = 0;
		const index = new FileIndex(root, () => updates++);
		expect(index.list()).toBeUndefined();
		await index.refresh();
		expect(updates).toBeGreaterThan(0);
		expect(index.list()).toEqual(expect.arrayContaining(["src/", "src/main.ts", ".gitignore"]));
		expect(index.list()).not.toContain("dist/main.js");
		expect(index.list()).not.toContain("debug.log");
		expect(index.list()!.some((p) => p.startsWith(".git/"))).toBe(false);
	});
});
