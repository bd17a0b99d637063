// read, write and edit over the editor's files (the logic between the tools and fs/*; the requests
// themselves are driven end to end in acp-mode.test.ts): windows, the read-first rule, line endings.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ClientFiles, clientFileTools } from "../../../src/modes/acp/client-files.js";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Buffers as an editor holds them, answering with ACP's 1-based `line` / `limit` window. */
function editor(buffers: Map<string, string>): ClientFiles {
	return {
		read: async (path, window = {}) => {
			const text = buffers.get(path);
			if (text === undefined) throw new Error(`no buffer for ${path}`);
			if (window.line === undefined && window.limit === undefined) return text;
			const start = (window.line ?? 1) - 1;
			return text
				.split("\n")
				.slice(start, window.limit === undefined ? undefined : start + window.limit)
				.join("\n");
		},
		write: async (path, content) => {
			buffers.set(path, content);
		},
	};
}

function setUp() {
	const cwd = mkdtempSync(join(tmpdir(), "rudder-acp-files-"));
	dirs.push(cwd);
	const buffers = new Map<string, string>();
	const ownRead = async () => ({ content: [{ type: "text" as const, text: "own read" }], details: {} });
	return { cwd, buffers, tools: clientFileTools(editor(buffers), cwd, ownRead) };
}

const text = (result: { content: { type: string; text?: string }[] }) => result.content[0]?.text;

describe("clientFileTools", () => {
	it("reads a window and says where to go on when the file does", async () => {
		const { cwd, buffers, tools } = setUp();
		const lines = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`);
		buffers.set(join(cwd, "big.txt"), `${lines.join("\n")}\n`);
		const first = text(await tools.read("c1", { path: "big.txt" }));
		expect(first?.split("\n")[1999]).toBe("line 2000");
		expect(first).toMatch(/\[Showing lines 1-2000\. Use offset=2001 to continue\.\]$/);
		const rest = text(await tools.read("c2", { path: "big.txt", offset: 2001 }));
		expect(rest?.split("\n")).toHaveLength(500);
		expect(rest?.endsWith("line 2500")).toBe(true);
		expect(text(await tools.read("c3", { path: "big.txt", offset: 10, limit: 2 }))).toBe(
			"line 10\nline 11\n\n[Showing lines 10-11. Use offset=12 to continue.]",
		);
	});

	it("an existing file is written or edited only after it was read; a new file needs no read", async () => {
		const { cwd, buffers, tools } = setUp();
		const path = join(cwd, "a.txt");
		writeFileSync(path, "on disk\n");
		buffers.set(path, "buffer\n");
		await expect(tools.write("w1", { path: "a.txt", content: "x" })).rejects.toThrow("Cannot write a.txt: read it first");
		await expect(tools.edit("e1", { path: "a.txt", edits: [{ oldText: "buffer", newText: "y" }] })).rejects.toThrow(
			"Cannot edit a.txt: read it first",
		);
		await tools.write("w2", { path: "new.txt", content: "fresh" });
		expect(buffers.get(join(cwd, "new.txt"))).toBe("fresh");
		await tools.read("r1", { path: "a.txt" });
		await tools.write("w3", { path: "a.txt", content: "replaced\n" });
		expect(buffers.get(path)).toBe("replaced\n");
	});

	it("an edit keeps the buffer's CRLF line endings and reports its diff; images go to Rudder's own read", async () => {
		const { cwd, buffers, tools } = setUp();
		const path = join(cwd, "win.txt");
		buffers.set(path, "one\r\ntwo\r\n");
		await tools.read("r1", { path: "win.txt" });
		const result = await tools.edit("e1", { path: "win.txt", edits: [{ oldText: "two", newText: "2" }] });
		expect(buffers.get(path)).toBe("one\r\n2\r\n");
		expect(text(result)).toBe("Applied 1 edit to win.txt");
		expect(result.details).toMatchObject({ firstChangedLine: 2 });
		expect(text(await tools.read("r2", { path: "shot.png" }))).toBe("own read");
	});
});
