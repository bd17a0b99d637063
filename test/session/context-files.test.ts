import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { foldersRootToCwd, loadContextFiles, readContextFiles } from "../../src/session/context-files.js";

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
	// A monorepo: the root's AGENTS.md is inside the workspace (the repository), so it is read untrusted.
	mkdirSync(join(repo, ".git"));
	writeFileSync(join(home, "AGENTS.md"), "global rules");
	writeFileSync(join(repo, "AGENTS.md"), "repo rules");
	writeFileSync(join(repo, "CLAUDE.md"), "repo claude rules");
	writeFileSync(join(pkg, "CLAUDE.md"), "package rules");
	const files = loadContextFiles({ cwd: pkg, env: { RUDDER_HOME: home }, home: join(root, "nobody") });
	expect(files.map((f) => f.content)).toEqual(["global rules", "repo rules", "repo claude rules", "package rules"]);
	expect(files[3].path).toBe(join(pkg, "CLAUDE.md"));
});

it("reads a CLAUDE.md that links to AGENTS.md only once", () => {
	writeFileSync(join(root, "AGENTS.md"), "shared");
	symlinkSync(join(root, "AGENTS.md"), join(root, "CLAUDE.md"));
	const files = loadContextFiles({ cwd: root, env: { RUDDER_HOME: join(root, "none") }, home: join(root, "nobody") });
	expect(files.map((f) => f.content)).toEqual(["shared"]);
});

describe("context files outside the trusted tree wait for trust (issue 30 item 6)", () => {
	/** root/outside/id_rsa (a file the repo must not reach), root/home (the user's), root/repo/.git. */
	function layout() {
		const outside = join(root, "outside");
		const home = join(root, "home");
		const repo = join(root, "repo");
		mkdirSync(outside, { recursive: true });
		mkdirSync(home, { recursive: true });
		mkdirSync(join(repo, ".git"), { recursive: true });
		writeFileSync(join(outside, "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY----- secret");
		return { outside, home, repo, config: { RUDDER_HOME: join(root, "config") } };
	}

	it("a repo-shipped AGENTS.md that links out of the workspace is not read; one notice names the link and target", () => {
		const { outside, home, repo, config } = layout();
		symlinkSync(join(outside, "id_rsa"), join(repo, "AGENTS.md"));
		writeFileSync(join(repo, "CLAUDE.md"), "repo rules");
		const notices: string[] = [];
		const { files, held } = readContextFiles({ cwd: repo, env: config, home, notices });
		expect(files.map((f) => f.content)).toEqual(["repo rules"]);
		expect(held).toEqual([{ path: join(repo, "AGENTS.md"), target: join(outside, "id_rsa") }]);
		expect(notices).toEqual([
			`Not read as instructions until this folder is trusted: ${join(repo, "AGENTS.md")} (a link to ${join(outside, "id_rsa")}, outside the workspace). Start rudder with --trust-project to read them.`,
		]);
		const trusted = readContextFiles({ cwd: repo, env: config, home, trusted: true, notices: [] });
		expect(trusted.files.map((f) => f.content)).toEqual([expect.stringContaining("PRIVATE KEY"), "repo rules"]);
		expect(trusted.held).toEqual([]);
	});

	it("a link from a subfolder of the workspace to the outside is held too; a link within it is read", () => {
		const { outside, home, repo, config } = layout();
		const sub = join(repo, "pkg");
		mkdirSync(sub);
		writeFileSync(join(repo, "AGENTS.md"), "root rules");
		symlinkSync(join(repo, "AGENTS.md"), join(sub, "CLAUDE.md"));
		symlinkSync(outside, join(sub, "linked"));
		symlinkSync(join(sub, "linked", "id_rsa"), join(sub, "AGENTS.md"));
		const { files, held } = readContextFiles({ cwd: sub, env: config, home });
		expect(files.map((f) => f.path)).toEqual([join(repo, "AGENTS.md")]);
		expect(held).toEqual([{ path: join(sub, "AGENTS.md"), target: join(outside, "id_rsa") }]);
	});

	it("a file above the workspace is read inside the home folder, held outside it (anyone may write /tmp)", () => {
		const { home, config } = layout();
		const project = join(home, "code", "proj");
		mkdirSync(join(project, ".git"), { recursive: true });
		writeFileSync(join(home, "code", "AGENTS.md"), "my code rules");
		writeFileSync(join(root, "AGENTS.md"), "planted in a shared folder");
		const notices: string[] = [];
		const { files, held } = readContextFiles({ cwd: project, env: config, home, notices });
		expect(files.map((f) => f.content)).toEqual(["my code rules"]);
		expect(held).toEqual([{ path: join(root, "AGENTS.md") }]);
		expect(notices).toEqual([expect.stringContaining(`${join(root, "AGENTS.md")} (outside the workspace and your home folder)`)]);
	});

	it("the user's global AGENTS.md is always read, a link included", () => {
		const { outside, home, repo } = layout();
		const configDir = join(root, "config");
		mkdirSync(configDir);
		writeFileSync(join(outside, "mine.md"), "my global rules");
		symlinkSync(join(outside, "mine.md"), join(configDir, "AGENTS.md"));
		const { files, held } = readContextFiles({ cwd: repo, env: { RUDDER_HOME: configDir }, home });
		expect(files.map((f) => f.content)).toEqual(["my global rules"]);
		expect(held).toEqual([]);
	});
});
