import { execFileSync } from "node:child_process";
import { open, symlink } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createReadTool } from "../../src/tools/read.js";
import { textOf, useTempFolder } from "./temp-folder.js";

// A real 1x1 PNG.
const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

describe("read", () => {
	const tmp = useTempFolder();
	const read = (args: Record<string, unknown>, signal?: AbortSignal) => createReadTool(tmp.path).execute("t1", args, signal);

	it("returns a small file's text as is, resolved against the cwd", async () => {
		await tmp.write({ "src/a.txt": "one\ntwo\n" });
		const result = await read({ path: "src/a.txt" });
		expect(textOf(result)).toBe("one\ntwo");
		expect(result.details).toEqual({});
	});

	it("reads a window with offset and limit and says how to continue", async () => {
		await tmp.write({ "a.txt": "1\n2\n3\n4\n5\n" });
		const result = await read({ path: "a.txt", offset: 2, limit: 2 });
		expect(textOf(result)).toBe("2\n3\n\n[Showing lines 2-3 of 5. Use offset=4 to continue.]");
	});

	it("stops at 2,000 lines with a note giving the next offset", async () => {
		const body = Array.from({ length: 2500 }, (_, i) => `L${i + 1}`).join("\n");
		await tmp.write({ "big.txt": body });
		const text = textOf(await read({ path: "big.txt" }));
		const [shown, note] = text.split("\n\n");
		expect(shown?.split("\n")).toHaveLength(2000);
		expect(shown?.endsWith("L2000")).toBe(true);
		expect(note).toBe("[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]");
		const next = textOf(await read({ path: "big.txt", offset: 2001 }));
		expect(next.startsWith("L2001\n")).toBe(true);
		expect(next.endsWith("L2500")).toBe(true);
	});

	it("stops at 50 KB with a note naming the byte limit", async () => {
		const line = "x".repeat(999);
		await tmp.write({ "wide.txt": Array.from({ length: 100 }, () => line).join("\n") });
		const result = await read({ path: "wide.txt" });
		expect(textOf(result)).toMatch(/\n\n\[Showing lines 1-51 of 100 \(50\.0KB limit\)\. Use offset=52 to continue\.\]$/);
		expect(result.details.truncation?.truncatedBy).toBe("bytes");
	});

	it("cuts lines longer than 2,000 characters", async () => {
		await tmp.write({ "long.txt": `${"y".repeat(5000)}\nshort` });
		const lines = textOf(await read({ path: "long.txt" })).split("\n");
		expect(lines[0]).toBe(`${"y".repeat(2000)}... [line truncated, 5000 chars]`);
		expect(lines[1]).toBe("short");
	});

	it("shows CRLF files with LF line endings and without a BOM", async () => {
		await tmp.write({ "win.txt": "\ufeffa\r\nb\r\n" });
		expect(textOf(await read({ path: "win.txt" }))).toBe("a\nb");
	});

	it("returns images as base64 image content with a text note", async () => {
		await tmp.write({ "pic.dat": PNG_1X1 });
		const result = await read({ path: "pic.dat" });
		expect(result.content[0]).toMatchObject({ type: "text" });
		expect(textOf(result)).toContain("image/png");
		expect(result.content[1]).toEqual({ type: "image", mimeType: "image/png", data: PNG_1X1.toString("base64") });
	});

	it("recognises jpeg, gif and webp by their magic bytes", async () => {
		const webp = Buffer.concat([Buffer.from("RIFF"), Buffer.from([1, 0, 0, 0]), Buffer.from("WEBPVP8 ")]);
		await tmp.write({ a: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0]), b: Buffer.from("GIF89a\0\0"), c: webp });
		const types = await Promise.all(["a", "b", "c"].map(async (p) => (await read({ path: p })).content[1]));
		expect(types.map((c) => (c as { mimeType: string }).mimeType)).toEqual(["image/jpeg", "image/gif", "image/webp"]);
	});

	it("refuses binary files with a clear text", async () => {
		await tmp.write({ "blob.bin": Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]) });
		const result = await read({ path: "blob.bin" });
		expect(result.content).toHaveLength(1);
		expect(textOf(result)).toMatch(/^Cannot show blob\.bin: it is a binary file/);
	});

	it("throws a one-line error for a missing path", async () => {
		await expect(read({ path: "nope/missing.txt" })).rejects.toThrow(/^File not found: nope\/missing\.txt$/);
	});

	it("throws a clear error for an offset past the end", async () => {
		await tmp.write({ "a.txt": "1\n2\n3\n" });
		await expect(read({ path: "a.txt", offset: 9 })).rejects.toThrow("Offset 9 is past the end of a.txt (3 lines)");
	});

	it("throws for a folder", async () => {
		await tmp.write({ "dir/x": "" });
		await expect(read({ path: "dir" })).rejects.toThrow("Path is a directory, not a file: dir");
	});

	it("reads absolute paths and honours an aborted signal", async () => {
		await tmp.write({ "a.txt": "abs" });
		expect(textOf(await read({ path: join(tmp.path, "a.txt") }))).toBe("abs");
		await expect(read({ path: "a.txt" }, AbortSignal.abort())).rejects.toThrow("Operation aborted");
	});
});

// Files that are not regular files, and files too large to load: each must answer quickly and without
// growing memory. Before these guards /dev/zero grew the process to gigabytes and a FIFO hung forever
// (and four hung reads used up libuv's pool, so every later file call hung too).
describe("read guards", () => {
	const tmp = useTempFolder();
	const read = (args: Record<string, unknown>) => createReadTool(tmp.path).execute("t1", args);
	const rssGrowth = async (work: () => Promise<unknown>) => {
		const before = process.memoryUsage().rss;
		await work();
		return process.memoryUsage().rss - before;
	};

	it("refuses /dev/zero with one line, without reading from it", { timeout: 5_000 }, async () => {
		let error: unknown;
		const growth = await rssGrowth(() => read({ path: "/dev/zero" }).catch((e) => (error = e)));
		expect(String(error)).toBe("Error: Cannot read /dev/zero: it is a character device, not a regular file");
		expect(growth).toBeLessThan(20 * 1024 * 1024);
	});

	it("refuses a FIFO at once, eight times over, and a normal read still works after", { timeout: 5_000 }, async () => {
		execFileSync("mkfifo", [join(tmp.path, "pipe")]);
		await tmp.write({ "ok.txt": "still fine\n" });
		for (let i = 0; i < 8; i++) {
			await expect(read({ path: "pipe" })).rejects.toThrow("Cannot read pipe: it is a FIFO (named pipe), not a regular file");
		}
		expect(textOf(await read({ path: "ok.txt" }))).toBe("still fine");
	});

	it("refuses a symlink to a FIFO and a unix socket", { timeout: 5_000 }, async () => {
		execFileSync("mkfifo", [join(tmp.path, "pipe")]);
		await symlink(join(tmp.path, "pipe"), join(tmp.path, "link"));
		await expect(read({ path: "link" })).rejects.toThrow("Cannot read link: it is a FIFO (named pipe)");
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(join(tmp.path, "sock"), resolve));
		try {
			await expect(read({ path: "sock" })).rejects.toThrow("Cannot read sock: it is a socket");
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});

	it("asks for offset/limit on a file over the size limit", async () => {
		await tmp.write({ "big.txt": "x\n".repeat(600) });
		const small = () => createReadTool(tmp.path, { maxFileBytes: 1000 });
		await expect(small().execute("t", { path: "big.txt" })).rejects.toThrow(
			"big.txt is 1.2KB, over the 1000B limit for reading a whole file: pass offset and limit to read a part (e.g. offset=1, limit=2000), or search it with grep",
		);
		const part = textOf(await small().execute("t", { path: "big.txt", offset: 10, limit: 2 }));
		expect(part).toBe("x\nx\n\n[Showing lines 10-11 of a 1.2KB file. Use offset=12 to continue.]");
	});

	it("reads a window deep in a 64 MB file without loading it", { timeout: 20_000 }, async () => {
		const line = (n: number) => `line ${String(n).padStart(9, "0")} ${"p".repeat(48)}`;
		const lines = (64 * 1024 * 1024) / 64;
		const handle = await open(join(tmp.path, "huge.log"), "w");
		for (let first = 0; first < lines; first += 65_536) {
			const block = Array.from({ length: 65_536 }, (_, i) => line(first + i + 1)).join("\n");
			await handle.write(`${block}\n`);
		}
		await handle.close();
		let text = "";
		const growth = await rssGrowth(async () => {
			text = textOf(await read({ path: "huge.log", offset: lines - 2, limit: 2 }));
		});
		expect(text).toBe(
			`${line(lines - 2)}\n${line(lines - 1)}\n\n[Showing lines ${lines - 2}-${lines - 1} of a 64.0MB file. Use offset=${lines} to continue.]`,
		);
		// Loading it whole would cost 64 MB of buffer plus the decoded string.
		expect(growth).toBeLessThan(24 * 1024 * 1024);
	});

	it("cuts one enormous line while counting its characters", async () => {
		await tmp.write({ "min.js": `${"é".repeat(300_000)}\nnext\n` });
		const shown = textOf(await read({ path: "min.js" })).split("\n");
		expect(shown[0]).toBe(`${"é".repeat(2000)}... [line truncated, 300000 chars]`);
		expect(shown[1]).toBe("next");
	});

	it("counts an empty file as one empty line and a final newline as the end of the last line", async () => {
		await tmp.write({ "empty.txt": "", "nl.txt": "a\n\n" });
		expect(textOf(await read({ path: "empty.txt" }))).toBe("");
		expect(textOf(await read({ path: "nl.txt", offset: 2 }))).toBe("");
		await expect(read({ path: "nl.txt", offset: 3 })).rejects.toThrow("Offset 3 is past the end of nl.txt (2 lines)");
	});
});
