import { execFileSync } from "node:child_process";
import { appendFile, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { createAllTools } from "../../src/tools/index.js";
import { useTempFolder } from "./temp-folder.js";

// write and edit act only on files whose current content the model has seen (read or written by it in
// this session); everything else is refused with a message telling it to read the file again.
describe("read-before-write", () => {
	const tmp = useTempFolder();
	let tools: ReturnType<typeof createAllTools>;
	beforeEach(() => {
		tools = createAllTools(tmp.path);
	});
	const read = (path: string) => tools.read.execute("r", { path });
	const write = (path: string, content: string) => tools.write.execute("w", { path, content });
	const edit = (path: string, oldText: string, newText: string) => tools.edit.execute("e", { path, edits: [{ oldText, newText }] });
	const contents = (path: string) => readFile(join(tmp.path, path), "utf8");
	const NOT_READ = /^Cannot (write|edit) a\.txt: the file exists and has not been read in this session\. Read it first/;
	const CHANGED = /^Cannot (write|edit) a\.txt: it changed on disk since it was last read or written .*Read it again/;

	it("creates a new file without a read", async () => {
		await write("new/file.txt", "hello");
		expect(await contents("new/file.txt")).toBe("hello");
	});

	it("refuses to overwrite or edit an existing file the model never read, and leaves it alone", async () => {
		await tmp.write({ "a.txt": "the user's work\n" });
		await expect(write("a.txt", "clobbered")).rejects.toThrow(NOT_READ);
		await expect(edit("a.txt", "user", "model")).rejects.toThrow(NOT_READ);
		expect(await contents("a.txt")).toBe("the user's work\n");
		await read("a.txt");
		await edit("a.txt", "user", "model");
		expect(await contents("a.txt")).toBe("the model's work\n");
	});

	it("refuses a file changed outside since the read, until it is read again", async () => {
		await tmp.write({ "a.txt": "one\n" });
		await read("a.txt");
		await appendFile(join(tmp.path, "a.txt"), "two (added by the user)\n");
		await expect(write("a.txt", "one\n")).rejects.toThrow(CHANGED);
		await expect(edit("a.txt", "one", "ONE")).rejects.toThrow(CHANGED);
		expect(await contents("a.txt")).toBe("one\ntwo (added by the user)\n");
		await read("a.txt");
		await edit("a.txt", "one", "ONE");
		expect(await contents("a.txt")).toBe("ONE\ntwo (added by the user)\n");
	});

	it("sees a same-size rewrite whose mtime was set back", async () => {
		await tmp.write({ "a.txt": "aaaa" });
		await read("a.txt");
		const before = await stat(join(tmp.path, "a.txt"));
		await writeFile(join(tmp.path, "a.txt"), "bbbb");
		await utimes(join(tmp.path, "a.txt"), before.atime, before.mtime);
		await expect(write("a.txt", "cccc")).rejects.toThrow(CHANGED);
	});

	it("counts its own write and edit as seen, so a run can keep changing a file", async () => {
		await write("a.txt", "v1\n");
		await write("a.txt", "v2\n");
		await edit("a.txt", "v2", "v3");
		await edit("a.txt", "v3", "v4");
		expect(await contents("a.txt")).toBe("v4\n");
	});

	it("keeps one view per tool set: another session's read does not count", async () => {
		await tmp.write({ "a.txt": "x" });
		await createAllTools(tmp.path).read.execute("r", { path: "a.txt" });
		await expect(write("a.txt", "y")).rejects.toThrow(NOT_READ);
	});

	it("refuses to write into a FIFO instead of blocking on it", { timeout: 5_000 }, async () => {
		execFileSync("mkfifo", [join(tmp.path, "pipe")]);
		await expect(write("pipe", "x")).rejects.toThrow("Cannot write pipe: it is a FIFO (named pipe), not a regular file");
		await expect(edit("pipe", "x", "y")).rejects.toThrow("Cannot edit pipe: it is a FIFO (named pipe), not a regular file");
	});
});
