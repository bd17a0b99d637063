// A hook script published for Claude Code (test/fixtures/hooks/torka-claude-qol: auto_approve_safe.py
// from the npm package @torka/claude-qol 0.3.0, MIT), installed unchanged in a project the way its
// package's example configuration installs it, answering our tool calls by Claude Code's names.
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadHooks } from "../../../src/extensions/hooks/config.js";
import { UserHooks } from "../../../src/extensions/hooks/user-hooks.js";
import { findShell } from "../../../src/tools/shell.js";
import { type HookProject, hookProject } from "./hook-project.js";

const fixture = resolve(import.meta.dirname, "../../fixtures/hooks/torka-claude-qol");

let p: HookProject;
afterEach(() => p?.cleanup());

describe("a published Claude Code hook, unchanged", () => {
	it("auto_approve_safe.py allows, denies and asks on our calls as it would in Claude Code", async () => {
		p = hookProject();
		const scripts = join(p.cwd, ".claude", "scripts");
		mkdirSync(scripts, { recursive: true });
		for (const name of ["auto_approve_safe.py", "auto_approve_safe.rules.json"]) copyFileSync(join(fixture, name), join(scripts, name));
		// The configuration its package's examples/settings.local.example.json gives, verbatim.
		p.settings(join(p.cwd, ".claude", "settings.local.json"), {
			PreToolUse: [
				{
					matcher: "Bash|Read|Grep|Glob|Write|Edit|MultiEdit",
					hooks: [{ type: "command", command: 'python3 "$CLAUDE_PROJECT_DIR"/.claude/scripts/auto_approve_safe.py' }],
				},
			],
		});
		const { hooks } = loadHooks({ cwd: p.cwd, env: p.env });
		const engine = new UserHooks({ hooks, cwd: p.cwd, env: p.env, shell: findShell(), passEnv: [], onEvent: () => {} });
		expect(engine.answerTrust(true)).toHaveLength(1);
		const session = { sessionId: "s", transcriptPath: "", cwd: p.cwd };
		const decide = (tool: string, args: unknown) => engine.run({ event: "PreToolUse", tool, args }, session);

		expect(await decide("bash", { command: "git status" })).toMatchObject({
			permission: "allow",
			permissionReason: "Matches safe allowlist",
		});
		expect(await decide("bash", { command: "sudo rm -rf /" })).toMatchObject({
			permission: "deny",
			blocked: "Command matches dangerous pattern",
		});
		expect(await decide("bash", { command: "make deploy" })).toMatchObject({
			permission: "ask",
			permissionReason: "Command not in allowlist: make deploy",
		});
		expect(await decide("write", { path: ".env", content: "A=1" })).toMatchObject({
			permission: "deny",
			permissionReason: "Cannot modify sensitive files",
		});
		expect(await decide("edit", { path: "src/a.ts", edits: [{ oldText: "a", newText: "b" }] })).toMatchObject({ permission: "allow" });
		expect(await decide("read", { path: "id_rsa" })).toMatchObject({
			permission: "ask",
			permissionReason: "File may contain sensitive data",
		});
		expect(await decide("find", { pattern: "*.ts" })).toMatchObject({
			permission: "allow",
			permissionReason: "Search operations are read-only",
		});
		// `ls` is Claude Code's LS, which the configuration's matcher does not name: the hook does not run.
		expect((await decide("ls", {})).verdicts).toEqual([]);

		// Its own decision log shows it read Claude Code's names and absolute file paths.
		const log = readFileSync(join(p.cwd, ".claude", "auto_approve_safe.decisions.jsonl"), "utf8")
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line));
		expect(log.map((r) => [r.tool_name, r.decision])).toEqual([
			["Bash", "allow"],
			["Bash", "deny"],
			["Bash", "ask"],
			["Write", "deny"],
			["Edit", "allow"],
			["Read", "ask"],
			["Glob", "allow"],
		]);
		expect(log[3].input).toEqual({ file_path: join(p.cwd, ".env") });
		expect(log[0].cwd).toBe(p.cwd);
	});
});
