// Rewind never follows a symlink: after a snapshot, a (sandboxed) command replaces an ignored folder
// by a link to a folder outside the workspace, or to `.git/hooks`; a code rewind must then neither
// overwrite nor delete files there, nor plant an executable hook that the next commit runs. Each path
// that became a link is skipped and named in the restore's result.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openCheckpoints } from "../../../src/session/checkpoints/index.js";
import { shownPath } from "../../../src/session/checkpoints/shown-path.js";

let root: string;
let ws: string;
let outside: string;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "rudder-cp-links-"));
	ws = join(root, "project");
	outside = join(root, "outside");
	mkdirSync(ws);
	mkdirSync(outside);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const put = (path: string, text: string) => {
	mkdirSync(join(ws, path, ".."), { recursive: true });
	writeFileSync(join(ws, path), text);
};
const git = (...args: string[]) =>
	execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: ws, encoding: "utf8" });

describe.each([true, false])("rewind with a folder swapped for a link (git present: %s)", (withGit) => {
	it("skips and names each path that became a link; writes and deletes nothing outside, plants no hook", async () => {
		put(".gitignore", "dist/\n");
		put("dist/pre-commit", "original\n");
		put("dist/notes.txt", "notes\n");
		git("init", "-q");
		git("add", ".");
		git("commit", "-qm", "init");
		writeFileSync(join(outside, "victim.txt"), "outside file\n");
		const { engine, observer } = await openCheckpoints({
			workspace: ws,
			storeRoot: join(root, "store"),
			...(withGit ? {} : { gitBinary: join(root, "no-git") }),
		});
		const first = await engine.snapshot();
		// The tools changed two ignored files (copies are kept), then made a new one.
		for (const [path, text] of [
			["dist/pre-commit", "#!/bin/sh\ntouch ../hook-ran\n"],
			["dist/notes.txt", "changed\n"],
			["dist/new.txt", "new\n"],
		]) {
			await observer?.beforeMutate(join(ws, path));
			put(path, text);
		}
		// A command swaps dist for a link: first into .git/hooks, then (second case) outside.
		rmSync(join(ws, "dist"), { recursive: true });
		symlinkSync(join(ws, ".git", "hooks"), join(ws, "dist"));
		writeFileSync(join(ws, ".git", "hooks", "new.txt"), "a file of .git/hooks\n");
		const restored = await engine.restore(first);
		expect(existsSync(join(ws, ".git", "hooks", "pre-commit"))).toBe(false);
		expect(readFileSync(join(ws, ".git", "hooks", "new.txt"), "utf8")).toBe("a file of .git/hooks\n");
		const skipped = restored.filter((c) => c.skipped).map((c) => c.path);
		// The copies of dist/* are skipped; with git, the link `dist` itself (a new file to git) is not deleted either.
		expect(skipped.filter((p) => p !== "dist").sort()).toEqual(["dist/notes.txt", "dist/pre-commit"]);
		expect(existsSync(join(ws, "dist"))).toBe(true);
		expect(restored.find((c) => c.path === "dist/pre-commit")?.skipped).toMatch(/symbolic link/);
		git("commit", "-q", "--allow-empty", "-m", "after");
		expect(existsSync(join(root, "hook-ran"))).toBe(false);

		rmSync(join(ws, "dist"));
		symlinkSync(outside, join(ws, "dist"));
		writeFileSync(join(outside, "notes.txt"), "outside notes\n");
		writeFileSync(join(outside, "new.txt"), "outside new\n");
		await engine.restore(first);
		expect(readFileSync(join(outside, "notes.txt"), "utf8")).toBe("outside notes\n");
		expect(readFileSync(join(outside, "new.txt"), "utf8")).toBe("outside new\n");
		expect(readdirSync(outside).sort()).toEqual(["new.txt", "notes.txt", "victim.txt"]);
	});
});

describe("paths in the rewind menu", () => {
	it("show control characters and line breaks escaped, never raw", () => {
		expect(shownPath("a\nb\x1b[31mred\u0007.txt")).toBe("a\\nb\\x1b[31mred\\x07.txt");
		expect(shownPath("tab\there\r\u2028\u009b")).toBe("tab\\there\\r\\u2028\\x9b");
		expect(shownPath("src/ok.ts")).toBe("src/ok.ts");
	});
});

describe("the rewind menu's rows", () => {
	it("get escaped paths from the session: a name with a line break and an escape sequence stays one row", async () => {
		const { shownChanges, shownPreview } = await import("../../../src/session/checkpoints/shown-path.js");
		const change = { path: "x\n\x1b[2J.txt", status: "added" as const, added: 1, removed: 0, skipped: "x\n\x1b[2J.txt was skipped" };
		expect(shownChanges([change])[0]).toMatchObject({ path: "x\\n\\x1b[2J.txt", skipped: "x\\n\\x1b[2J.txt was skipped" });
		expect(shownPreview({ changes: [change], changedOutside: ["a\rb"] }).changedOutside).toEqual(["a\\rb"]);
	});
});
