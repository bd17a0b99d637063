import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ripgrepOnPath } from "../../../src/tools/ripgrep-files.js";
import { FileIndex } from "../../../src/tui/input/file-index.js";
import type { SearchablePaths } from "../../../src/tui/input/path-search.js";
import { type PathLister, ripgrepLister, walkLister } from "../../../src/tui/input/project-paths.js";
import { useTempFolder } from "../../tools/temp-folder.js";

/** Every path of a listing, in order (none before the first). */
const all = (listing: SearchablePaths | undefined): string[] =>
	Array.from({ length: listing?.size ?? 0 }, (_, i) => (listing as SearchablePaths).path(i));

describe("FileIndex", () => {
	const temp = useTempFolder();
	const tree = async () => {
		await mkdir(join(temp.path, ".git"));
		await temp.write({
			".gitignore": "dist/\n*.log\n",
			"src/main.ts": "",
			"src/deep/er/leaf.ts": "",
			"dist/main.js": "",
			"debug.log": "",
			".git/HEAD": "",
			"node_modules/pkg/index.js": "",
		});
	};

	it("ripgrep is on PATH here (CI installs it), so the default listing runs in a child process", () => {
		expect(ripgrepOnPath()).toBeTruthy();
	});

	for (const [name, lister] of [
		["ripgrep", ripgrepLister],
		["the Node walk", walkLister],
	] as const) {
		it(`lists in the background through ${name}: files and the folders above them, not what .gitignore ignores`, async () => {
			await tree();
			let updates = 0;
			const index = new FileIndex(temp.path, () => updates++, { listers: [lister] });
			expect(index.current()).toBeUndefined();
			await index.refresh();
			expect(updates).toBe(1);
			const paths = all(index.current());
			expect([...paths].sort()).toEqual([".gitignore", "src/", "src/deep/", "src/deep/er/", "src/deep/er/leaf.ts", "src/main.ts"]);
			// A folder comes before what is in it.
			expect(paths.indexOf("src/deep/")).toBeLessThan(paths.indexOf("src/deep/er/leaf.ts"));
		});
	}

	it("falls back to the next lister when one cannot list, and keeps an unchanged listing (and its searches) as it was", async () => {
		await tree();
		const cannot: PathLister = async () => false;
		let updates = 0;
		const index = new FileIndex(temp.path, () => updates++, { listers: [cannot, walkLister] });
		await index.refresh();
		const first = index.current();
		expect(all(first)).toContain("src/main.ts");
		await index.refresh();
		expect(index.current()).toBe(first);
		expect(updates).toBe(1);
		await writeFile(join(temp.path, "src", "new.ts"), "");
		await index.refresh();
		expect(all(index.current())).toContain("src/new.ts");
		expect(updates).toBe(2);
	});

	it("lists again in the background once the listing is old, offering the old one meanwhile", async () => {
		await tree();
		let clock = 0;
		const index = new FileIndex(temp.path, () => {}, { now: () => clock });
		await index.refresh();
		const first = index.current();
		await writeFile(join(temp.path, "added.ts"), "");
		clock += 60_000;
		expect(index.current()).toBe(first);
		await index.refresh(); // joins the listing current() started
		expect(all(index.current())).toContain("added.ts");
	});

	it("keeps every path of a 120,000-file listing: no cap (the last ones, deep in the tree, are there)", async () => {
		const many: PathLister = async (_root, onPaths) => {
			for (let b = 0; b < 120; b++) onPaths(Array.from({ length: 1000 }, (_, i) => `pkg-${b}/src/deep/file-${i}.ts`));
			return true;
		};
		const index = new FileIndex(temp.path, () => {}, { listers: [many] });
		await index.refresh();
		const paths = all(index.current());
		expect(paths.length).toBe(120_000 + 120 * 3);
		expect(paths).toContain("pkg-119/src/deep/file-999.ts");
	});

	it("reads ripgrep's output across pipe chunks: paths and multi-byte names split between chunks come out whole", async () => {
		// ~190 KB of NUL-separated names: several 64 KiB pipe reads, boundaries falling inside names.
		const names = Array.from({ length: 3000 }, (_, i) => `ordner-${i % 7}/ñandú-€-${"x".repeat(i % 40)}-${i}.ts`);
		await Promise.all([...new Set(names.map((n) => n.split("/")[0]))].map((d) => mkdir(join(temp.path, d))));
		await Promise.all(names.map((n) => writeFile(join(temp.path, n), "")));
		const batches: string[][] = [];
		expect(await ripgrepLister(temp.path, (b) => batches.push(b), new AbortController().signal)).toBe(true);
		expect(batches.length).toBeGreaterThan(1);
		expect(batches.flat().sort()).toEqual([...names].sort());
	});

	it("dispose stops a listing under way: nothing is kept", async () => {
		await tree();
		let updates = 0;
		const index = new FileIndex(temp.path, () => updates++);
		const listing = index.refresh();
		index.dispose();
		await listing;
		expect(index.current()).toBeUndefined();
		expect(updates).toBe(0);
	});
});
