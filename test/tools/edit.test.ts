import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { validateToolArguments } from "../../src/ai/validation.js";
import { createAllTools } from "../../src/tools/index.js";
import { textOf, useTempFolder } from "./temp-folder.js";

describe("edit", () => {
	const tmp = useTempFolder();
	// One session's tools: edit changes only files its read has seen.
	let tools: ReturnType<typeof createAllTools>;
	beforeEach(() => {
		tools = createAllTools(tmp.path);
	});
	const tool = () => tools.edit;
	const edit = (path: string, edits: { oldText: string; newText: string }[]) => tool().execute("t1", { path, edits });
	/** Files on disk that the model has read. */
	const given = async (files: Record<string, string>) => {
		await tmp.write(files);
		for (const path of Object.keys(files)) await tools.read.execute("r", { path });
	};
	const contents = (rel: string) => readFile(join(tmp.path, rel), "utf8");

	it("replaces text and returns a unified diff with the first changed line", async () => {
		await given({ "a.ts": "one\ntwo\nthree\nfour\nfive\n" });
		const result = await edit("a.ts", [{ oldText: "three\nfour", newText: "THREE\nfour" }]);
		expect(await contents("a.ts")).toBe("one\ntwo\nTHREE\nfour\nfive\n");
		expect(textOf(result)).toBe("Applied 1 edit to a.ts");
		expect(result.details.firstChangedLine).toBe(3);
		expect(result.details.diff).toContain("--- a.ts\n+++ a.ts\n@@ -1,5 +1,5 @@\n one\n two\n-three\n+THREE\n four\n five\n");
	});

	it("applies several edits, each matched against the original", async () => {
		await given({ "a.txt": "alpha beta gamma" });
		// The first replacement creates a second "gamma"; matching against the original keeps edit 2 unique.
		await edit("a.txt", [
			{ oldText: "alpha", newText: "gamma" },
			{ oldText: "gamma", newText: "delta" },
		]);
		expect(await contents("a.txt")).toBe("gamma beta delta");
	});

	it("names the edit whose oldText is missing, and changes nothing", async () => {
		await given({ "a.txt": "alpha beta" });
		await expect(
			edit("a.txt", [
				{ oldText: "alpha", newText: "A" },
				{ oldText: "zeta", newText: "Z" },
			]),
		).rejects.toThrow("Edit 2 of 2: oldText was not found in a.txt; it must match the file exactly, including whitespace and indentation");
		expect(await contents("a.txt")).toBe("alpha beta");
	});

	it("names the edit whose oldText matches more than once, with the count", async () => {
		await given({ "a.txt": "x = 1\nx = 1\nx = 1\n" });
		await expect(edit("a.txt", [{ oldText: "x = 1", newText: "x = 2" }])).rejects.toThrow(
			"The edit: oldText matches 3 times in a.txt; add surrounding lines so it matches exactly once",
		);
		expect(await contents("a.txt")).toBe("x = 1\nx = 1\nx = 1\n");
	});

	it("rejects overlapping edits", async () => {
		await given({ "a.txt": "abcdef" });
		await expect(
			edit("a.txt", [
				{ oldText: "cde", newText: "X" },
				{ oldText: "abc", newText: "Y" },
			]),
		).rejects.toThrow("Edits 1 and 2 overlap in a.txt; merge them into one edit");
		expect(await contents("a.txt")).toBe("abcdef");
	});

	it("rejects empty oldText and edits that change nothing", async () => {
		await given({ "a.txt": "abc" });
		await expect(edit("a.txt", [{ oldText: "", newText: "x" }])).rejects.toThrow("oldText is empty");
		await expect(edit("a.txt", [{ oldText: "b", newText: "b" }])).rejects.toThrow("No changes made to a.txt");
	});

	it("keeps CRLF line endings and a BOM", async () => {
		await given({ "win.txt": "\ufefffirst\r\nsecond\r\nthird\r\n" });
		// The model sees LF text (read normalises), so it sends LF in oldText and newText.
		const result = await edit("win.txt", [{ oldText: "first\nsecond", newText: "first\nmiddle\nsecond" }]);
		expect(await contents("win.txt")).toBe("\ufefffirst\r\nmiddle\r\nsecond\r\nthird\r\n");
		expect(result.details.diff).toContain("+middle");
		expect(result.details.diff).not.toContain("\r");
	});

	it("also matches oldText sent with CRLF", async () => {
		await given({ "win.txt": "a\r\nb\r\n" });
		await edit("win.txt", [{ oldText: "a\r\nb", newText: "A\r\nB" }]);
		expect(await contents("win.txt")).toBe("A\r\nB\r\n");
	});

	it("accepts the legacy single {oldText, newText} shape through prepareArguments", async () => {
		await given({ "a.txt": "hello world" });
		const t = tool();
		const raw = { path: "a.txt", oldText: "world", newText: "there" };
		const prepared = t.prepareArguments?.(raw) as Record<string, unknown>;
		const args = validateToolArguments(t, { type: "toolCall", id: "1", name: "edit", arguments: prepared });
		await t.execute("t1", args);
		expect(await contents("a.txt")).toBe("hello there");
		// Without preparation the legacy shape fails validation: the shim is what makes it work.
		expect(() => validateToolArguments(t, { type: "toolCall", id: "1", name: "edit", arguments: raw })).toThrow(/edits/);
	});

	it("throws a one-line error for a missing file", async () => {
		await expect(edit("missing.txt", [{ oldText: "a", newText: "b" }])).rejects.toThrow(/^File not found: missing\.txt$/);
	});

	it("serialises concurrent edits to one file so none is lost", async () => {
		const names = Array.from({ length: 20 }, (_, i) => `item${i}`);
		await given({ "list.txt": `${names.join("\n")}\n` });
		const t = tool();
		await Promise.all(names.map((n) => t.execute(n, { path: "list.txt", edits: [{ oldText: `${n}\n`, newText: `${n} done\n` }] })));
		expect(await contents("list.txt")).toBe(`${names.map((n) => `${n} done`).join("\n")}\n`);
	});
});
