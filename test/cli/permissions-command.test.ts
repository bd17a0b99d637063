// `rudder permissions list|add|remove` on the BUILT CLI, in an isolated home: rules listed with where they
// live, added to and removed from the right file (atomically, private files 0600, the rest of the file
// kept), one-line errors, and rule text from a hostile project file never reaching the terminal raw.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dataDir } from "../../src/config/paths.js";
import { trustFilePath } from "../../src/permissions/trust.js";
import { globalSettingsPath } from "../../src/session/settings.js";
import { type CliHome, makeHome, runCli } from "../helpers/rudder-cli.js";

let home: CliHome | undefined;
afterEach(() => {
	home?.cleanup();
	home = undefined;
});

const LONG = 30_000;

function setUp() {
	home = makeHome();
	const globalFile = globalSettingsPath(home.env);
	mkdirSync(dirname(globalFile), { recursive: true });
	writeFileSync(
		globalFile,
		JSON.stringify({ defaultModel: "x/y", permissions: { mode: "ask", allow: ["bash(npm test*)"], deny: ["read(.env)"] } }),
		{ mode: 0o600 },
	);
	mkdirSync(join(home.cwd, ".rudder"));
	writeFileSync(
		join(home.cwd, ".rudder", "settings.json"),
		JSON.stringify({ permissions: { allow: ["bash(make*)"], deny: ["bash(curl*)", "bash(\u001b]0;pwned\u0007x*)"] } }),
	);
	return { home, globalFile, projectFile: join(home.cwd, ".rudder", "settings.json") };
}

const rudder = (args: string[], h: CliHome) => runCli(["permissions", ...args], h);

describe("rudder permissions", () => {
	it("lists every rule in force with its scope and file; an untrusted project's allow rules are named as ignored", {
		timeout: LONG,
	}, async () => {
		const { home, globalFile, projectFile } = setUp();
		const listed = await rudder(["list"], home);
		expect(listed.code).toBe(0);
		const lines = listed.stdout.trimEnd().split("\n");
		expect(lines).toHaveLength(4);
		expect(lines[0]).toMatch(new RegExp(`^allow +bash\\(npm test\\*\\) +global +${globalFile}$`));
		expect(lines[1]).toMatch(new RegExp(`^deny +read\\(\\.env\\) +global +${globalFile}$`));
		expect(lines[2]).toMatch(/^deny +bash\(curl\*\) +project-settings +/);
		// The escape sequence is shown marked, never sent: no ESC or BEL reaches the terminal.
		expect(listed.stdout).not.toMatch(/[\u001b\u0007]/);
		expect(lines[3]).toContain("project-settings");
		expect(listed.stderr).toContain(`Ignored permissions.allow "bash(make*)" in ${projectFile}`);
		const json = JSON.parse((await rudder(["list", "--json"], home)).stdout);
		expect(json[0]).toEqual({ kind: "allow", text: "bash(npm test*)", scope: "global", file: globalFile });
	});

	it("a rule holding a line break: add refuses it in one line; one from a project file is listed on one row", {
		timeout: LONG,
	}, async () => {
		const { home, projectFile } = setUp();
		const added = await rudder(["add", "bash(ls)\nbash(rm -rf*)"], home);
		expect(added.code).toBe(1);
		expect(added.stderr).toMatch(
			/^rudder permissions: the <rule> argument: a permission rule is one line; "bash\(ls\)⏎bash\(rm -rf\*\)" holds a line break\n$/,
		);
		expect((await rudder(["list", "--json"], home)).stdout).not.toContain("bash(ls)");
		// Removing such a text says in one line that there is none (it was cut at the line break).
		expect((await rudder(["remove", "bash(x)\nbash(y)"], home)).stderr).toBe(
			'rudder permissions: no rule "bash(x)⏎bash(y)" (rudder permissions list shows them)\n',
		);
		// A cloned repository's file cannot draw a row that looks like a rule of yours.
		writeFileSync(projectFile, JSON.stringify({ permissions: { deny: ["bash(a\nallow  bash(*)  global)"] } }));
		const listed = await rudder(["list"], home);
		const rows = listed.stdout.trimEnd().split("\n");
		expect(rows).toHaveLength(3);
		expect(rows[2]).toMatch(/^deny +bash\(a⏎allow {2}bash\(\*\) {2}global\) +project-settings +/);
	});

	it("adds an allow rule to your approvals for the folder (0600) and removes it again", { timeout: LONG }, async () => {
		const { home } = setUp();
		const added = await rudder(["add", "bash(ls*)"], home);
		expect(added).toMatchObject({ code: 0, stderr: "" });
		const approvals = trustFilePath(dataDir(home.env));
		expect(added.stdout).toBe(`Added allow bash(ls*) (project, ${approvals})\n`);
		expect(statSync(approvals).mode & 0o777).toBe(0o600);
		expect((await rudder(["list"], home)).stdout).toMatch(/allow +bash\(ls\*\) +project +/);
		const removed = await rudder(["remove", "bash(ls*)"], home);
		expect(removed).toMatchObject({ code: 0, stdout: `Removed allow bash(ls*) (project, ${approvals})\n` });
		expect((await rudder(["list"], home)).stdout).not.toContain("bash(ls*)");
	});

	it("removes a global rule from settings.json, keeping the rest of the file and its 0600", { timeout: LONG }, async () => {
		const { home, globalFile } = setUp();
		const removed = await rudder(["remove", "bash(npm test*)"], home);
		expect(removed).toMatchObject({ code: 0, stderr: "" });
		const data = JSON.parse(readFileSync(globalFile, "utf8"));
		expect(data).toEqual({ defaultModel: "x/y", permissions: { mode: "ask", allow: [], deny: ["read(.env)"] } });
		expect(statSync(globalFile).mode & 0o777).toBe(0o600);
		// A deny rule added to the project's settings file, which stays readable as it was.
		const projectFile = join(home.cwd, ".rudder", "settings.json");
		const before = statSync(projectFile).mode & 0o777;
		expect((await rudder(["add", "--deny", "--scope", "project-settings", "bash(rm -rf*)"], home)).code).toBe(0);
		expect(JSON.parse(readFileSync(projectFile, "utf8")).permissions.deny).toContain("bash(rm -rf*)");
		expect(statSync(projectFile).mode & 0o777).toBe(before);
	});

	it("fails with one line: an unknown rule, a malformed rule, a bad scope, an ambiguous text", { timeout: LONG }, async () => {
		const { home } = setUp();
		const none = await rudder(["remove", "bash(nope*)"], home);
		expect(none).toEqual({
			code: 1,
			stdout: "",
			stderr: 'rudder permissions: no rule "bash(nope*)" (rudder permissions list shows them)\n',
		});
		const malformed = await rudder(["add", "bash("], home);
		expect(malformed.code).toBe(1);
		expect(malformed.stderr.split("\n")).toHaveLength(2);
		// It names the argument the rule came from, not the approvals file it would have been kept in.
		expect(malformed.stderr).toMatch(
			/^rudder permissions: the <rule> argument: permission rule "bash\(" must be a tool name or tool\(pattern\)/,
		);
		expect(malformed.stderr).not.toContain("project-permissions.json");
		const scope = await rudder(["add", "--scope", "everywhere", "bash(ls*)"], home);
		expect(scope.code).toBe(2);
		expect(scope.stderr.split("\n")).toHaveLength(2);
		expect(scope.stderr).toContain("everywhere");
		await rudder(["add", "--scope", "global", "bash(git status*)"], home);
		await rudder(["add", "bash(git status*)"], home);
		const ambiguous = await rudder(["remove", "bash(git status*)"], home);
		expect(ambiguous.code).toBe(1);
		expect(ambiguous.stderr).toContain("say which with --scope");
		expect((await rudder(["remove", "--scope", "global", "bash(git status*)"], home)).code).toBe(0);
	});
});
