import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INK_VERSION, inkVersionProblem, PATCHED_FILES, patchInkFile } from "../../../src/tui/ink/patches.js";

const root = join(import.meta.dirname, "..", "..", "..");
const inkBuild = (file: string) => readFileSync(join(root, "node_modules", "ink", "build", file), "utf8");

describe("the Ink patch table", () => {
	it("is written for the Ink that package.json pins and that is installed", () => {
		const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
		const installed = JSON.parse(readFileSync(join(root, "node_modules", "ink", "package.json"), "utf8")).version;
		expect(pkg.dependencies.ink).toBe(INK_VERSION);
		expect(inkVersionProblem(installed, pkg.dependencies.ink)).toBeUndefined();
	});

	it("stops the build on any other Ink, naming the folder and what to do", () => {
		const problem = inkVersionProblem("7.1.1", INK_VERSION);
		expect(problem).toMatch(/^Ink 7\.1\.1 is installed, but src\/tui\/ink\/ .*Ink 6\.8\.0/);
		expect(problem).toContain("src/tui/ink/README.md");
		expect(inkVersionProblem(INK_VERSION, "^6.8.0")).toMatch(/^package.json asks for ink "\^6\.8\.0"/);
	});

	it("applies every patch to the installed files exactly once", () => {
		for (const file of PATCHED_FILES) {
			const source = inkBuild(file);
			const patched = patchInkFile(file, source, "/x");
			expect(patched, file).not.toBe(source);
		}
		expect(patchInkFile("output.js", inkBuild("output.js"), "/x")).toContain('from "/x/row-cached-output.ts"');
		expect(patchInkFile("ink.js", inkBuild("ink.js"), "/x")).toContain('from "/x/ink-instances.ts"');
	});

	it("fails, naming the Ink file and the table, when an anchor is gone or doubled", () => {
		const source = inkBuild("measure-text.js");
		expect(() => patchInkFile("measure-text.js", source.replace("cache.set(text, dimensions);", ""), "")).toThrow(
			/^ink\/build\/measure-text\.js changed: "cache\.set\(text, dimensions\);" found 0 times; review the patch in src\/tui\/ink\/patches\.ts$/,
		);
		expect(() => patchInkFile("measure-text.js", `${source}\ncache.set(text, dimensions);`, "")).toThrow(/found 2 times/);
	});

	it("leaves files without patches alone", () => {
		expect(patchInkFile("cursor-helpers.js", "unchanged", "")).toBe("unchanged");
	});
});
