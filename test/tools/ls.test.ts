import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLsTool } from "../../src/tools/ls.js";
import { textOf, useTempFolder } from "./temp-folder.js";

describe("ls", () => {
	const tmp = useTempFolder();
	const ls = (args: Record<string, unknown>, signal?: AbortSignal) => createLsTool(tmp.path).execute("t1", args, signal);

	it("lists entries sorted, dotfiles included, folders with a slash", async () => {
		await tmp.write({ "b.txt": "", "A.md": "", ".env": "", "src/x.ts": "", ".config/y": "" });
		expect(textOf(await ls({}))).toBe(".config/\n.env\nA.md\nb.txt\nsrc/");
		expect(textOf(await ls({ path: "src" }))).toBe("x.ts");
	});

	it("stops at the limit with a note", async () => {
		await tmp.write({ a: "", b: "", c: "" });
		const result = await ls({ limit: 2 });
		expect(textOf(result)).toBe("a\nb\n\n[Showing 2 of 3 entries. Use limit=3 to see all]");
		expect(result.details).toEqual({ count: 3, entryLimitReached: 2 });
	});

	it("says when a folder is empty, and fails clearly on missing paths and files", async () => {
		await tmp.write({ "f.txt": "" });
		await mkdir(join(tmp.path, "empty"));
		expect(textOf(await ls({ path: "empty" }))).toBe("(empty directory)");
		await expect(ls({ path: "missing" })).rejects.toThrow(/^File not found: missing$/);
		await expect(ls({ path: "f.txt" })).rejects.toThrow("Not a directory: f.txt");
		await expect(ls({}, AbortSignal.abort())).rejects.toThrow("Operation aborted");
	});
});
