import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { createAllTools } from "../../src/tools/index.js";
import { textOf, useTempFolder } from "./temp-folder.js";

describe("write", () => {
	const tmp = useTempFolder();
	let tools: ReturnType<typeof createAllTools>;
	beforeEach(() => {
		tools = createAllTools(tmp.path);
	});
	const write = (args: Record<string, unknown>, signal?: AbortSignal) => tools.write.execute("t1", args, signal);

	it("creates parent folders and reports the bytes written", async () => {
		const result = await write({ path: "deep/er/file.txt", content: "héllo" });
		expect(textOf(result)).toBe("Wrote 6 bytes to deep/er/file.txt");
		expect(result.details).toEqual({ bytes: 6 });
		expect(await readFile(join(tmp.path, "deep/er/file.txt"), "utf8")).toBe("héllo");
	});

	it("overwrites an existing file", async () => {
		await tmp.write({ "a.txt": "old content" });
		await tools.read.execute("r", { path: "a.txt" });
		await write({ path: "a.txt", content: "new" });
		expect(await readFile(join(tmp.path, "a.txt"), "utf8")).toBe("new");
	});

	it("fails with one clear line when the path is a folder or under a file", async () => {
		await tmp.write({ "dir/x": "", "file.txt": "" });
		await expect(write({ path: "dir", content: "x" })).rejects.toThrow(/^Path is a directory, not a file: dir$/);
		await expect(write({ path: "file.txt/child", content: "x" })).rejects.toThrow(/file\.txt\/child/);
	});

	it("does nothing when already aborted", async () => {
		await expect(write({ path: "a.txt", content: "x" }, AbortSignal.abort())).rejects.toThrow("Operation aborted");
		await expect(readFile(join(tmp.path, "a.txt"))).rejects.toThrow();
	});
});
