// A file's other names (hard links) found in the workspace, on real folders, and the copies' answer
// when the walk gives up: the point they belong to cannot be made whole.
import { linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileCopies } from "../../../src/session/checkpoints/file-copies.js";
import { otherNames } from "../../../src/session/checkpoints/link-names.js";

let root: string;
let ws: string;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "rudder-links-"));
	ws = join(root, "project");
	mkdirSync(join(ws, "deep/er"), { recursive: true });
	mkdirSync(join(ws, ".git"));
	writeFileSync(join(ws, "a.ts"), "a\n");
	for (let i = 0; i < 20; i++) writeFileSync(join(ws, `f${i}.ts`), `${i}\n`);
	linkSync(join(ws, "a.ts"), join(ws, "deep/er/b.ts"));
	linkSync(join(ws, "a.ts"), join(ws, ".git/c.ts"));
	linkSync(join(ws, "a.ts"), join(root, "outside.ts"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("a file's other names", () => {
	it("finds them in subfolders, not in .git nor outside the workspace", async () => {
		expect(await otherNames(ws, "a.ts", lstatSync(join(ws, "a.ts")))).toEqual(["deep/er/b.ts"]);
	});

	it("gives up past its limit of entries", async () => {
		expect(await otherNames(ws, "a.ts", lstatSync(join(ws, "a.ts")), 10)).toBeUndefined();
	});

	it("copies: an edit copies the other names too; when they cannot be found, the copies refuse to make a point whole", async () => {
		const found = new FileCopies(ws, join(root, "store-1"), 1 << 20);
		await found.load();
		const id = await found.snapshot();
		await found.beforeMutate(join(ws, "a.ts"));
		writeFileSync(join(ws, "a.ts"), "edited\n");
		expect([...(await found.copied(id)).keys()].sort()).toEqual(["a.ts", "deep/er/b.ts"]);
		await found.restore(id);
		expect(readFileSync(join(ws, "deep/er/b.ts"), "utf8")).toBe("a\n");
		expect(readFileSync(join(root, "outside.ts"), "utf8")).toBe("edited\n");

		linkSync(join(ws, "a.ts"), join(ws, "deep/again.ts"));
		const lost = new FileCopies(ws, join(root, "store-2"), 1 << 20, 5);
		await lost.load();
		const lostId = await lost.snapshot();
		await lost.beforeMutate(join(ws, "a.ts"));
		await expect(lost.copied(lostId)).rejects.toThrow(/a\.ts has hard links/);
	});
});
