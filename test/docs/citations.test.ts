// Comments point at the repository's own docs (`docs/agent-contract.md §8`), never at design notes that
// live outside it. This walks the source, checks every `docs/….md §N` names a file and a section that
// exist, and that nothing cites the outside notes by name.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const FOLDERS = ["src", "scripts", "bench", "test", "bin"];
const SOURCE = /\.(ts|tsx|mjs|js)$/;
// Built from parts so this file does not cite them itself.
const OUTSIDE = [
	["STACK", ".md"],
	["agent-core", "-spec"],
	["spec ", "§"],
	["shared/", "docs"],
].map((p) => p.join(""));

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
		const path = join(dir, e.name);
		if (e.isDirectory()) return e.name === "node_modules" || e.name === "fixtures" ? [] : sourceFiles(path);
		return SOURCE.test(e.name) ? [path] : [];
	});
}

const files = FOLDERS.filter((f) => existsSync(join(root, f))).flatMap((f) => sourceFiles(join(root, f)));

describe("citations in the source", () => {
	it("name no design note outside the repository", () => {
		const found = files.flatMap((file) => {
			const text = readFileSync(file, "utf8");
			return OUTSIDE.filter((o) => text.includes(o)).map((o) => `${relative(root, file)}: ${o}`);
		});
		expect(found).toEqual([]);
	});

	it("point at docs files and sections that exist", () => {
		const cites = files.flatMap((file) =>
			[...readFileSync(file, "utf8").matchAll(/\b((?:docs|src\/tui\/ink(?:\/startup)?)\/[\w-]+\.md)((?:,? ?§\d+)*)/g)].map((m) => ({
				from: relative(root, file),
				doc: m[1],
				sections: [...m[2].matchAll(/§(\d+)/g)].map((s) => s[1]),
			})),
		);
		expect(cites.length).toBeGreaterThan(10);
		const broken = cites.flatMap(({ from, doc, sections }) => {
			const path = join(root, doc);
			if (!existsSync(path)) return [`${from}: ${doc}`];
			const text = readFileSync(path, "utf8");
			return sections.filter((s) => !new RegExp(`^#+ §${s} `, "m").test(text)).map((s) => `${from}: ${doc} §${s}`);
		});
		expect(broken).toEqual([]);
	});
});
