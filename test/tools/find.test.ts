import { describe, expect, it } from "vitest";
import { createFindTool } from "../../src/tools/find.js";
import { textOf, useTempFolder } from "./temp-folder.js";

describe("find", () => {
	const tmp = useTempFolder();
	const find = (args: Record<string, unknown>, signal?: AbortSignal) => createFindTool(tmp.path).execute("t1", args, signal);

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
		const result = await createFindTool(tmp.path, { defaultLimit: 5000 }).execute("t1", { pattern: "*.txt" });
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

describe("find inside an ignored folder", () => {
	const tmp = useTempFolder();

	it("searches it when it is the requested path", async () => {
		await tmp.write({
			".git/HEAD": "",
			".gitignore": "vendor/\n",
			"vendor/lib/a.js": "",
			"vendor/.gitignore": "skip.js\n",
			"vendor/skip.js": "",
		});
		const find = createFindTool(tmp.path);
		expect(textOf(await find.execute("t1", { pattern: "*.js" }))).toBe("No files found matching pattern");
		expect(textOf(await find.execute("t1", { pattern: "*.js", path: "vendor" }))).toBe("lib/a.js");
	});
});
