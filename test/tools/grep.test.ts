import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGrepTool } from "../../src/tools/grep.js";
import { ripgrepOnPath } from "../../src/tools/ripgrep-files.js";
import { textOf, useTempFolder } from "./temp-folder.js";

// Every test runs on both paths: through ripgrep (rg on PATH, installed by .ci/run) and the Node walk.
const paths: [string, string | false][] = [
	["rg", ripgrepOnPath()],
	["node", false],
];

it("finds rg on PATH (.ci/run installs it), so the rg runs below are real", () => expect(ripgrepOnPath()).not.toBe(false));

describe.each(paths)("grep (%s)", (_name, ripgrep) => {
	const tmp = useTempFolder();
	const grep = (args: Record<string, unknown>, signal?: AbortSignal) => createGrepTool(tmp.path, { ripgrep }).execute("t1", args, signal);

	it("prints path:line: text for matches, sorted by path", async () => {
		await tmp.write({ "b.ts": "const needle = 1;\n", "a/c.ts": "x\nneedle()\n", "d.md": "nothing" });
		const result = await grep({ pattern: "needle" });
		expect(textOf(result)).toBe("a/c.ts:2: needle()\nb.ts:1: const needle = 1;");
		expect(result.details.matchCount).toBe(2);
	});

	it("respects .gitignore (nested ones too) and skips .git and node_modules", async () => {
		await tmp.write({
			".git/HEAD": "needle",
			".gitignore": "dist/\n*.log\n",
			"dist/out.js": "needle",
			"app.log": "needle",
			"node_modules/pkg/index.js": "needle",
			"lib/.gitignore": "generated.ts\n",
			"lib/generated.ts": "needle",
			"lib/kept.ts": "needle",
			"other/generated.ts": "needle",
		});
		expect(textOf(await grep({ pattern: "needle" }))).toBe("lib/kept.ts:1: needle\nother/generated.ts:1: needle");
	});

	it("lets a nested !dist re-include what a parent .gitignore ignores, as git does", async () => {
		await tmp.write({ ".gitignore": "dist\n", "dist/top.js": "needle", "pkg/.gitignore": "!dist\n", "pkg/dist/out.js": "needle" });
		execFileSync("git", ["init", "--quiet"], { cwd: tmp.path });
		const gitSees = execFileSync("git", ["ls-files", "--others", "--exclude-standard"], { cwd: tmp.path, encoding: "utf8" });
		expect(gitSees).toContain("pkg/dist/out.js");
		expect(textOf(await grep({ pattern: "needle" }))).toBe("pkg/dist/out.js:1: needle");
	});

	it("applies .gitignore from the repository root when searching a subfolder", async () => {
		await tmp.write({ ".git/HEAD": "", ".gitignore": "secret.txt\n", "sub/secret.txt": "needle", "sub/open.txt": "needle" });
		expect(textOf(await grep({ pattern: "needle", path: "sub" }))).toBe("open.txt:1: needle");
	});

	it("refuses to search a device or a FIFO named as the path", { timeout: 5_000 }, async () => {
		execFileSync("mkfifo", [join(tmp.path, "pipe")]);
		await expect(grep({ pattern: "x", path: "/dev/zero" })).rejects.toThrow(
			"Cannot search /dev/zero: it is a character device, not a regular file",
		);
		await expect(grep({ pattern: "x", path: "pipe" })).rejects.toThrow("Cannot search pipe: it is a FIFO (named pipe), not a regular file");
	});

	it("skips binary files", async () => {
		await tmp.write({ "bin.dat": Buffer.from("needle\0\x01"), "text.txt": "needle" });
		expect(textOf(await grep({ pattern: "needle" }))).toBe("text.txt:1: needle");
	});

	it("supports ignoreCase, literal, glob and a single file path", async () => {
		await tmp.write({ "a.ts": "Foo(1)\nfoo\n", "b.js": "foo" });
		expect(textOf(await grep({ pattern: "FOO", ignoreCase: true, glob: "*.ts" }))).toBe("a.ts:1: Foo(1)\na.ts:2: foo");
		expect(textOf(await grep({ pattern: "Foo(1)", literal: true }))).toBe("a.ts:1: Foo(1)");
		expect(textOf(await grep({ pattern: "foo", path: "b.js" }))).toBe("b.js:1: foo");
	});

	it("shows context lines once each, in file order", async () => {
		await tmp.write({ "a.txt": "1\n2\nhit\n4\nhit\n6\n7\n8\n" });
		expect(textOf(await grep({ pattern: "hit", context: 1 }))).toBe("a.txt-2- 2\na.txt:3: hit\na.txt-4- 4\na.txt:5: hit\na.txt-6- 6");
	});

	it("stops at the limit with a note", async () => {
		await tmp.write({ "a.txt": Array.from({ length: 10 }, () => "hit").join("\n") });
		const result = await grep({ pattern: "hit", limit: 3 });
		expect(textOf(result)).toBe(
			"a.txt:1: hit\na.txt:2: hit\na.txt:3: hit\n\n[3 matches limit reached. Use limit=6 for more, or refine the pattern]",
		);
		expect(result.details.matchLimitReached).toBe(3);
	});

	it("cuts long lines", async () => {
		await tmp.write({ "min.js": `hit${"x".repeat(1000)}` });
		const text = textOf(await grep({ pattern: "hit" }));
		expect(text).toContain("... [line truncated, 1003 chars]");
		expect(text).toContain("Some lines were cut to 500 chars");
	});

	it("reports no matches, bad patterns and missing paths clearly", async () => {
		await tmp.write({ "a.txt": "x" });
		expect(textOf(await grep({ pattern: "zzz" }))).toBe("No matches found");
		await expect(grep({ pattern: "a(" })).rejects.toThrow(/^Invalid regular expression "a\(": .*Pass literal: true/);
		await expect(grep({ pattern: "x", path: "nope" })).rejects.toThrow(/^File not found: nope$/);
	});

	it("stops a walk already under way when aborted", async () => {
		await tmp.write(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`d${i}/f.txt`, "x"])));
		const controller = new AbortController();
		const run = grep({ pattern: "x" }, controller.signal);
		// execute has passed its first check and is walking; the walk must notice on its own.
		controller.abort();
		await expect(run).rejects.toThrow("Operation aborted");
	});

	it("honours an aborted signal", async () => {
		await tmp.write({ "a.txt": "x" });
		await expect(grep({ pattern: "x" }, AbortSignal.abort())).rejects.toThrow("Operation aborted");
	});
});
