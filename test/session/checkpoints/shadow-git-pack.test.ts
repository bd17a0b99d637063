import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowGit } from "../../../src/session/checkpoints/shadow-git.js";

let root: string;
let ws: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "rudder-cp-pack-"));
	ws = join(root, "ws");
	mkdirSync(ws);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** git's count of loose and packed objects in the store. */
function objects(gitDir: string): { loose: number; packed: number } {
	const out = execFileSync("git", ["count-objects", "-v"], { env: { ...process.env, GIT_DIR: gitDir }, encoding: "utf8" });
	const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, "m").exec(out)?.[1]);
	return { loose: field("count"), packed: field("in-pack") };
}

describe("checkpoints: the store is packed in the background", () => {
	it("after the first snapshot of a large tree, its loose objects end up in a pack; snapshots and restores go on", async () => {
		// 400 files, past a threshold of 300 objects (5,000 by default).
		for (let d = 0; d < 4; d++) {
			mkdirSync(join(ws, `d${d}`));
			for (let f = 0; f < 100; f++) writeFileSync(join(ws, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`);
		}
		const gitDir = join(root, "store");
		const git = new ShadowGit({ workspace: ws, gitDir, maxFileBytes: 1 << 20, gitBinary: "git", packAfterObjects: 300 });
		await git.init();
		const first = await git.snapshot();
		await git.packed();
		const { loose, packed } = objects(gitDir);
		expect(packed).toBeGreaterThanOrEqual(400);
		expect(loose).toBe(0);
		writeFileSync(join(ws, "d0", "f0.txt"), "changed\n");
		await git.snapshot();
		await git.restore(first);
		expect(readFileSync(join(ws, "d0", "f0.txt"), "utf8")).toBe("file 0/0\n");
	});

	it("a store below the threshold is left loose (nothing to pack yet)", async () => {
		for (let f = 0; f < 100; f++) writeFileSync(join(ws, `f${f}.txt`), `${f}\n`);
		const gitDir = join(root, "store");
		const git = new ShadowGit({ workspace: ws, gitDir, maxFileBytes: 1 << 20, gitBinary: "git", packAfterObjects: 300 });
		await git.init();
		await git.snapshot();
		await git.packed();
		expect(objects(gitDir).packed).toBe(0);
	});

	it("a first snapshot of many files writes them into a pack at once, names read across chunks of git's listing", async () => {
		// 1,200 files (the bulk path starts at 1,000) with long names of two-byte characters: git's listing
		// (~300 KB) reaches Rudder in many chunks, some cutting a name, even a character, in two.
		const name = (i: number) => `dir-${i % 7}/${"é".repeat(60)}-${i}.txt`;
		for (let d = 0; d < 7; d++) mkdirSync(join(ws, `dir-${d}`));
		for (let i = 0; i < 1200; i++) writeFileSync(join(ws, name(i)), `file ${i}\n`);
		const gitDir = join(root, "store");
		const git = new ShadowGit({ workspace: ws, gitDir, maxFileBytes: 1 << 20, gitBinary: "git" });
		await git.init();
		const first = await git.snapshot();
		// Before any background pack: the blobs are in a pack already, none loose (the trees and the commit are).
		const { loose, packed } = objects(gitDir);
		expect(packed).toBeGreaterThanOrEqual(1200);
		expect(loose).toBeLessThan(50);
		writeFileSync(join(ws, name(1199)), "changed\n");
		writeFileSync(join(ws, "new.txt"), "new\n");
		const restored = await git.restore(first);
		expect(restored.map((c) => c.path).sort()).toEqual([name(1199), "new.txt"].sort());
		expect(readFileSync(join(ws, name(1199)), "utf8")).toBe("file 1199\n");
	});
});
