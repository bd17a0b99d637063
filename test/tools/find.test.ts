import { readdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createFindTool } from "../../src/tools/find.js";
import { ripgrepOnPath } from "../../src/tools/ripgrep-files.js";
import { textOf, useTempFolder } from "./temp-folder.js";

// Every test runs on both paths: through ripgrep (rg on PATH, installed by .ci/run) and the Node walk.
const paths: [string, string | false][] = [
	["rg", ripgrepOnPath()],
	["node", false],
];

it("finds rg on PATH (.ci/run installs it), so the rg runs below are real", () => expect(ripgrepOnPath()).not.toBe(false));

describe.each(paths)("find (%s)", (_name, ripgrep) => {
	const tmp = useTempFolder();
	const find = (args: Record<string, unknown>, signal?: AbortSignal) => createFindTool(tmp.path, { ripgrep }).execute("t1", args, signal);

	it("returns sorted relative paths matching the glob", async () => {
		await tmp.write({ "z.ts": "", "src/b.ts": "", "src/a.ts": "", "src/a.md": "", "src/deep/c.ts": "" });
		expect(textOf(await find({ pattern: "*.ts" }))).toBe("src/a.ts\nsrc/b.ts\nsrc/deep/c.ts\nz.ts");
		expect(textOf(await find({ pattern: "src/*.ts" }))).toBe("src/a.ts\nsrc/b.ts");
		expect(textOf(await find({ pattern: "*.ts", path: "src" }))).toBe("a.ts\nb.ts\ndeep/c.ts");
	});

	it("lets a nested !dist re-include what a parent .gitignore ignores, as git does", async () => {
		await tmp.write({ ".gitignore": "dist\n", "dist/top.js": "", "pkg/.gitignore": "!dist\n", "pkg/dist/out.js": "", "pkg/a.js": "" });
		expect(textOf(await find({ pattern: "*.js" }))).toBe("pkg/a.js\npkg/dist/out.js");
	});

	it("respects .gitignore and skips node_modules and .git", async () => {
		await tmp.write({
			".gitignore": "build/\n!keep.ts\n*.gen.ts\n",
			"build/x.ts": "",
			"a.gen.ts": "",
			"a.ts": "",
			"node_modules/m/index.ts": "",
			".git/hooks/h.ts": "",
			"sub/.gitignore": "local.ts\n",
			"sub/local.ts": "",
			"sub/other.ts": "",
		});
		expect(textOf(await find({ pattern: "*.ts" }))).toBe("a.ts\nsub/other.ts");
	});

	it("hides what deny rules name, counting a denied folder once", async () => {
		await tmp.write({ "a.ts": "", "secret/x.ts": "", "secret/deep/y.ts": "", "key.ts": "", "open/z.ts": "" });
		const real = realpathSync(tmp.path);
		const denied = (path: string) => (path === join(real, "secret") || path === join(real, "key.ts") ? "Read(secret)" : undefined);
		const result = await createFindTool(tmp.path, { denied, ripgrep }).execute("t1", { pattern: "*.ts" });
		expect(textOf(result)).toBe("a.ts\nopen/z.ts\n\n[2 paths hidden by permissions.deny rules]");
	});

	it("lists linked files (not linked folders), and counts the links whose target a read would ask for", async () => {
		await tmp.write({ "notes/a.md": "", "other/b.md": "" });
		symlinkSync(join(tmp.path, "notes", "a.md"), join(tmp.path, "in.md"));
		symlinkSync(join(tmp.path, "other", "b.md"), join(tmp.path, "out.md"));
		symlinkSync(join(tmp.path, "notes"), join(tmp.path, "notes-link"));
		const real = realpathSync(tmp.path);
		const links = (target: string) => !target.startsWith(join(real, "other"));
		const result = await createFindTool(tmp.path, { links, ripgrep }).execute("t1", { pattern: "*.md" });
		expect(textOf(result)).toBe(
			"in.md\nnotes/a.md\nother/b.md\n\n[1 linked entry outside the workspace skipped (read one by its path to be asked)]",
		);
	});

	it("lists linked files at any depth but not in ignored folders, whatever their names say", async () => {
		await tmp.write({ ".gitignore": "build/\n", "src/deep/a.md": "", "build/x.md": "" });
		const target = join(tmp.path, "src", "deep", "a.md");
		symlinkSync(target, join(tmp.path, "src", "deep", "l.md"));
		symlinkSync(target, join(tmp.path, "build", "l2.md"));
		// A name holding the phrase ripgrep's log puts after a path it passed over.
		symlinkSync(target, join(tmp.path, "src", "x: failed to pass subject filter: y.md"));
		expect(textOf(await find({ pattern: "*.md" }))).toBe("src/deep/a.md\nsrc/deep/l.md\nsrc/x: failed to pass subject filter: y.md");
	});

	it("lists folders with a trailing slash when they match", async () => {
		await tmp.write({ "src/x.ts": "" });
		expect(textOf(await find({ pattern: "src" }))).toBe("src/");
	});

	it("stops at the limit with a note", async () => {
		await tmp.write(Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`f${i}.txt`, ""])));
		const result = await find({ pattern: "*.txt", limit: 2 });
		expect(textOf(result)).toBe("f0.txt\nf1.txt\n\n[2 results limit reached. Use limit=4 for more, or refine the pattern]");
		expect(result.details).toEqual({ count: 2, resultLimitReached: 2 });
	});

	it("cuts a listing over the byte cap with a note", async () => {
		const names = Array.from({ length: 600 }, (_, i) => `${String(i).padStart(3, "0")}-${"n".repeat(92)}.txt`);
		await tmp.write(Object.fromEntries(names.map((name) => [name, ""])));
		const result = await createFindTool(tmp.path, { defaultLimit: 5000, ripgrep }).execute("t1", { pattern: "*.txt" });
		const text = textOf(result);
		expect(text.endsWith("\n\n[Output cut at 50.0KB]")).toBe(true);
		expect(text.startsWith(`${names[0]}\n${names[1]}\n`)).toBe(true);
		expect(result.details).toEqual({ count: 600, byteLimitReached: true });
	});

	it("reports no matches, missing folders and files clearly", async () => {
		await tmp.write({ "a.txt": "" });
		expect(textOf(await find({ pattern: "*.rs" }))).toBe("No files found matching pattern");
		await expect(find({ pattern: "*", path: "missing" })).rejects.toThrow(/^File not found: missing$/);
		await expect(find({ pattern: "*", path: "a.txt" })).rejects.toThrow("Not a directory: a.txt");
	});

	it("honours an aborted signal", async () => {
		await expect(find({ pattern: "*" }, AbortSignal.abort())).rejects.toThrow("Operation aborted");
	});
});

describe.each(paths)("find inside an ignored folder (%s)", (_name, ripgrep) => {
	const tmp = useTempFolder();

	it("searches it when it is the requested path", async () => {
		await tmp.write({
			".git/HEAD": "",
			".gitignore": "vendor/\n",
			"vendor/lib/a.js": "",
			"vendor/.gitignore": "skip.js\n",
			"vendor/skip.js": "",
		});
		const find = createFindTool(tmp.path, { ripgrep });
		expect(textOf(await find.execute("t1", { pattern: "*.js" }))).toBe("No files found matching pattern");
		expect(textOf(await find.execute("t1", { pattern: "*.js", path: "vendor" }))).toBe("lib/a.js");
	});
});

describe("find through ripgrep lists what the Node walk lists", () => {
	const tmp = useTempFolder();

	it("on a tree of nested negations, ignored and hidden folders, links, and names holding glob characters", async () => {
		await tmp.write({
			".gitignore": "build/\n*.gen.ts\n!keep.gen.ts\ndist\n.cache/\n",
			"a.gen.ts": "",
			"keep.gen.ts": "",
			"build/out.ts": "",
			"dist/top.ts": "",
			"pkg/.gitignore": "!dist\nlocal/\n",
			"pkg/dist/re.ts": "",
			"pkg/local/no.ts": "",
			"pkg/deep/er/.gitignore": "*.md\n!README.md\n",
			"pkg/deep/er/notes.md": "",
			"pkg/deep/er/README.md": "",
			"pkg/deep/er/x.ts": "",
			".hidden.ts": "",
			".config/conf.ts": "",
			".cache/c.ts": "",
			"node_modules/m/i.ts": "",
			"src/a.ts": "",
			"src/b.md": "",
			"src/[abc].ts": "",
			"src/a{b,c}.ts": "",
			"src/q?.ts": "",
			"src/star*.ts": "",
			"src/back\\slash.ts": "",
			"src/colon:name.ts": "",
			"src/comma,name.ts": "",
			"src/ünï.ts": "",
			"src/x.ts/inside.md": "",
			"src/a.ts.d/y.md": "",
		});
		symlinkSync(join(tmp.path, "src", "a.ts"), join(tmp.path, "link.ts"));
		symlinkSync(join(tmp.path, "src"), join(tmp.path, "srclink"));
		symlinkSync(join(tmp.path, "src", "b.md"), join(tmp.path, "pkg", "dist", "inlink.md"));
		symlinkSync(join(tmp.path, "src", "a.ts"), join(tmp.path, "build", "ignored-link.ts"));
		const patterns = [
			"*",
			"*.ts",
			"**/*.ts",
			"*.{ts,md}",
			"src/**",
			"src/*",
			"[ab]*.ts",
			"[!a]*.ts",
			"?.ts",
			"q?.ts",
			"*[*]*",
			"*,*",
			"*:*",
			"x.ts",
			"*.ts*",
			"**/er/*",
			"pkg/**/*.md",
			"README.md",
			"{a,b}*",
			"*\\*",
			"[",
			".*",
		];
		for (const pattern of patterns) {
			const viaRipgrep = await createFindTool(tmp.path, { ripgrep: ripgrepOnPath() }).execute("t1", { pattern });
			const viaNode = await createFindTool(tmp.path, { ripgrep: false }).execute("t1", { pattern });
			expect(textOf(viaRipgrep), pattern).toBe(textOf(viaNode));
		}
		// And the tree is what it should be: the negations re-include, ignored folders stay out.
		expect(textOf(await createFindTool(tmp.path, { ripgrep: ripgrepOnPath() }).execute("t1", { pattern: "*.ts" }))).toBe(
			[
				".config/conf.ts",
				".hidden.ts",
				"keep.gen.ts",
				"link.ts",
				"pkg/deep/er/x.ts",
				"pkg/dist/re.ts",
				"src/[abc].ts",
				"src/a.ts",
				"src/a{b,c}.ts",
				"src/back\\slash.ts",
				"src/colon:name.ts",
				"src/comma,name.ts",
				"src/q?.ts",
				"src/star*.ts",
				"src/x.ts/",
				"src/ünï.ts",
			].join("\n"),
		);
	});
});

describe("ripgrep's log (the linked files it passed over)", () => {
	const tmp = useTempFolder();
	const logs = useTempFolder();

	it("is read from a file removed at once, or through a pipe when no file can be made: the links are listed either way", async () => {
		await tmp.write({ "src/a.ts": "" });
		symlinkSync(join(tmp.path, "src", "a.ts"), join(tmp.path, "link.ts"));
		const before = process.env.TMPDIR;
		try {
			for (const dir of [logs.path, join(logs.path, "missing")]) {
				process.env.TMPDIR = dir;
				const result = await createFindTool(tmp.path, { ripgrep: ripgrepOnPath() }).execute("t1", { pattern: "*.ts" });
				expect(textOf(result)).toBe("link.ts\nsrc/a.ts");
			}
			expect(readdirSync(logs.path)).toEqual([]);
		} finally {
			if (before === undefined) delete process.env.TMPDIR;
			else process.env.TMPDIR = before;
		}
	});
});
