import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { foldersRootToCwd, loadContextFiles } from "../../src/session/context-files.js";

let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "rudder-ctx-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it("lists folders from the filesystem root down to cwd", () => {
	expect(foldersRootToCwd("/a/b/c")).toEqual(["/", "/a", "/a/b", "/a/b/c"]);
});

it("reads the global file first, then each folder from the root down to cwd", () => {
	const home = join(root, "home");
	const repo = join(root, "repo");
	const pkg = join(repo, "packages", "app");
	mkdirSync(home, { recursive: true });
	mkdirSync(pkg, { recursive: true });
	writeFileSync(join(home, "AGENTS.md"), "global rules");
	writeFileSync(join(repo, "AGENTS.md"), "repo rules");
	writeFileSync(join(repo, "CLAUDE.md"), "repo claude rules");
	writeFileSync(join(pkg, "CLAUDE.md"), "package rules");
	const files = loadContextFiles({ cwd: pkg, env: { RUDDER_HOME: home } });
	expect(files.map((f) => f.content)).toEqual(["global rules", "repo rules", "repo claude rules", "package rules"]);
	expect(files[3].path).toBe(join(pkg, "CLAUDE.md"));
});

it("reads a CLAUDE.md that links to AGENTS.md only once", () => {
	writeFileSync(join(root, "AGENTS.md"), "shared");
	symlinkSync(join(root, "AGENTS.md"), join(root, "CLAUDE.md"));
	const files = loadContextFiles({ cwd: root, env: { RUDDER_HOME: join(root, "none") } });
	expect(files.map((f) => f.content)).toEqual(["shared"]);
});
