// The engine end to end on real scripts in a temporary project: configuration files, trust, running
// every matching hook, and what their exit codes and answers decide.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadHooks } from "../../../src/extensions/hooks/config.js";
import type { HookLifecycleEvent, HookSession } from "../../../src/extensions/hooks/types.js";
import { formatHookList, skippedHooksNotice, UserHooks } from "../../../src/extensions/hooks/user-hooks.js";
import { processSecrets } from "../../../src/safety/secrets.js";
import { findShell } from "../../../src/tools/shell.js";
import { commandHook, type HookProject, hookProject } from "./hook-project.js";

let p: HookProject;
afterEach(() => p?.cleanup());

/** Hooks as the session builds them: read from the files, trust from the data folder. */
function engine(project: HookProject, events: HookLifecycleEvent[] = []): UserHooks {
	const { hooks, problems } = loadHooks({ cwd: project.cwd, env: project.env });
	expect(problems).toEqual([]);
	return new UserHooks({ hooks, cwd: project.cwd, env: project.env, shell: findShell(), passEnv: [], onEvent: (e) => events.push(e) });
}

const globalFile = (project: HookProject) => join(project.env.RUDDER_HOME, "settings.json");
const session = (project: HookProject): HookSession => ({
	sessionId: "s-1",
	transcriptPath: join(project.root, "s.jsonl"),
	cwd: project.cwd,
	permissionMode: "ask",
});

describe("user hooks on real scripts", () => {
	it("PreToolUse exit 2 blocks the call with stderr for the model, and one line names the hook", async () => {
		p = hookProject();
		p.script(
			"hooks/no-rm.sh",
			'#!/bin/bash\ncmd=$(jq -r .tool_input.command)\nif [[ "$cmd" == *"rm -rf"* ]]; then echo "Refusing: $cmd is destructive" >&2; exit 2; fi\nexit 0\n',
		);
		p.settings(globalFile(p), { PreToolUse: [{ matcher: "Bash", hooks: [commandHook("./hooks/no-rm.sh")] }] });
		const hooks = engine(p);
		const blocked = await hooks.run({ event: "PreToolUse", tool: "bash", args: { command: "rm -rf build" } }, session(p));
		expect(blocked.blocked).toBe("Refusing: rm -rf build is destructive");
		expect(blocked.notices).toEqual([
			`PreToolUse hook "./hooks/no-rm.sh" (${globalFile(p)}) blocked: Refusing: rm -rf build is destructive`,
		]);
		const fine = await hooks.run({ event: "PreToolUse", tool: "bash", args: { command: "ls" } }, session(p));
		expect(fine).toMatchObject({ notices: [] });
		expect(fine.blocked).toBeUndefined();
		// The matcher is Bash: an edit does not run it.
		expect(hooks.hooksFor({ event: "PreToolUse", tool: "edit", args: {} })).toEqual([]);
	});

	it("PreToolUse JSON: deny with its reason, allow, ask; deny wins when hooks disagree", async () => {
		p = hookProject();
		const answer = (decision: string, reason: string) =>
			`echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, permissionDecisionReason: reason } })}'`;
		p.settings(globalFile(p), {
			PreToolUse: [
				{ matcher: "Write", hooks: [commandHook(answer("deny", "generated files are read-only"))] },
				{ matcher: "Write|Edit", hooks: [commandHook(answer("allow", "edits are fine"))] },
				{ matcher: "Read", hooks: [commandHook(answer("ask", "reading secrets?"))] },
			],
		});
		const hooks = engine(p);
		const write = await hooks.run({ event: "PreToolUse", tool: "write", args: { path: "a", content: "" } }, session(p));
		expect(write).toMatchObject({
			permission: "deny",
			permissionReason: "generated files are read-only",
			blocked: "generated files are read-only",
		});
		const edit = await hooks.run({ event: "PreToolUse", tool: "edit", args: { path: "a", edits: [] } }, session(p));
		expect(edit).toMatchObject({ permission: "allow", permissionReason: "edits are fine", notices: [] });
		expect(edit.blocked).toBeUndefined();
		const read = await hooks.run({ event: "PreToolUse", tool: "read", args: { path: "a" } }, session(p));
		expect(read).toMatchObject({ permission: "ask", permissionReason: "reading secrets?" });
	});

	it("PostToolUse: a formatter rewrites the edited file; its additionalContext is for the model", async () => {
		p = hookProject();
		p.script(
			"hooks/format.mjs",
			[
				"#!/usr/bin/env node",
				'import { readFileSync, writeFileSync } from "node:fs";',
				'const input = JSON.parse(readFileSync(0, "utf8"));',
				"const file = input.tool_input.file_path;",
				'writeFileSync(file, readFileSync(file, "utf8").replace(/[ \\t]+$/gm, "").replace(/\\t/g, "  "));',
				'console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: `formatted ${input.tool_name} ${file}` } }));',
			].join("\n"),
		);
		p.settings(join(p.home, ".claude", "settings.json"), {
			PostToolUse: [{ matcher: "Edit|MultiEdit|Write", hooks: [commandHook('node "$CLAUDE_PROJECT_DIR/hooks/format.mjs"')] }],
		});
		const file = join(p.cwd, "a.ts");
		writeFileSync(file, "if (x) {\n\treturn 1;   \n}\n");
		const outcome = await engine(p).run(
			{
				event: "PostToolUse",
				tool: "edit",
				args: { path: "a.ts", edits: [{ oldText: "0", newText: "1" }] },
				result: { text: "ok", isError: false },
			},
			session(p),
		);
		expect(readFileSync(file, "utf8")).toBe("if (x) {\n  return 1;\n}\n");
		expect(outcome.context).toBe(`formatted Edit ${file}`);
	});

	it("UserPromptSubmit: JSON and plain stdout add context; exit 2 drops the prompt with the reason", async () => {
		p = hookProject();
		p.settings(globalFile(p), {
			UserPromptSubmit: [
				{
					hooks: [
						commandHook(`echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"Branch: main"}}'`),
						commandHook("echo 'Today is a test day.'"),
						commandHook(`jq -r .prompt | grep -q password && { echo "Prompt mentions a password" >&2; exit 2; }; exit 0`),
					],
				},
			],
		});
		const hooks = engine(p);
		const ok = await hooks.run({ event: "UserPromptSubmit", prompt: "fix the bug" }, session(p));
		expect(ok.context).toBe("Branch: main\n\nToday is a test day.");
		expect(ok.blocked).toBeUndefined();
		const dropped = await hooks.run({ event: "UserPromptSubmit", prompt: "my password is x" }, session(p));
		expect(dropped.blocked).toBe("Prompt mentions a password");
	});

	it("Stop: decision block keeps the run going until a file exists; stop_hook_active reaches the script", async () => {
		p = hookProject();
		p.script(
			"hooks/until-done.sh",
			'#!/bin/bash\nactive=$(jq -r .stop_hook_active)\necho "$active" >> stop-calls.txt\nif [ -f DONE ]; then exit 0; fi\necho \'{"decision":"block","reason":"DONE does not exist yet: create it"}\'\n',
		);
		p.settings(globalFile(p), { Stop: [{ hooks: [commandHook("./hooks/until-done.sh")] }] });
		const hooks = engine(p);
		const first = await hooks.run({ event: "Stop", stopHookActive: false }, session(p));
		expect(first.blocked).toBe("DONE does not exist yet: create it");
		writeFileSync(join(p.cwd, "DONE"), "");
		const second = await hooks.run({ event: "Stop", stopHookActive: true }, session(p));
		expect(second.blocked).toBeUndefined();
		expect(readFileSync(join(p.cwd, "stop-calls.txt"), "utf8")).toBe("false\ntrue\n");
	});

	it("SessionStart: context for the first request, its matcher tested against the source", async () => {
		p = hookProject();
		p.settings(globalFile(p), {
			SessionStart: [
				{
					matcher: "startup",
					hooks: [commandHook(`echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Open issues: 3"}}'`)],
				},
				{ matcher: "resume", hooks: [commandHook("echo resumed")] },
			],
		});
		const hooks = engine(p);
		expect((await hooks.run({ event: "SessionStart", source: "startup" }, session(p))).context).toBe("Open issues: 3");
		expect((await hooks.run({ event: "SessionStart", source: "resume" }, session(p))).context).toBe("resumed");
	});

	it("SessionEnd, PreCompact and Notification hooks get their fields; exit 2 there blocks nothing and is shown", async () => {
		p = hookProject();
		const log = 'jq -c "{e: .hook_event_name, r: .reason, t: .trigger, m: .message}" >> events.jsonl';
		p.settings(globalFile(p), {
			SessionEnd: [{ hooks: [commandHook(log)] }],
			PreCompact: [{ matcher: "manual", hooks: [commandHook(`${log}; echo "compacting" >&2; exit 2`)] }],
			Notification: [{ hooks: [commandHook(log)] }],
		});
		const hooks = engine(p);
		await hooks.run({ event: "Notification", message: "Rudder needs your approval", notificationType: "permission_prompt" }, session(p));
		const compact = await hooks.run({ event: "PreCompact", trigger: "manual", customInstructions: "" }, session(p));
		await hooks.run({ event: "PreCompact", trigger: "auto", customInstructions: "" }, session(p));
		await hooks.run({ event: "SessionEnd", reason: "prompt_input_exit" }, session(p));
		expect(compact.notices).toEqual([expect.stringMatching(/PreCompact hook .* said \(exit code 2\): compacting$/)]);
		expect(
			readFileSync(join(p.cwd, "events.jsonl"), "utf8")
				.trim()
				.split("\n")
				.map((l) => JSON.parse(l)),
		).toEqual([
			{ e: "Notification", r: null, t: null, m: "Rudder needs your approval" },
			{ e: "PreCompact", r: null, t: "manual", m: null },
			{ e: "SessionEnd", r: "prompt_input_exit", t: null, m: null },
		]);
	});

	it("hooks of one event run at once: two that each wait for the other finish", async () => {
		p = hookProject();
		const meet = (mine: string, theirs: string) =>
			`touch ${mine}; for i in $(seq 1 200); do [ -f ${theirs} ] && exit 0; sleep 0.05; done; echo "never met ${theirs}" >&2; exit 1`;
		p.settings(globalFile(p), { Stop: [{ hooks: [commandHook(meet("a", "b"), 30), commandHook(meet("b", "a"), 30)] }] });
		const events: HookLifecycleEvent[] = [];
		const outcome = await engine(p, events).run({ event: "Stop", stopHookActive: false }, session(p));
		expect(outcome.verdicts.map((v) => v.status)).toEqual(["ok", "ok"]);
		expect(events.map((e) => e.type)).toEqual(["hook_started", "hook_started", "hook_finished", "hook_finished"]);
		expect(events[2]).toMatchObject({ event: "Stop", status: "ok", exitCode: 0, file: globalFile(p) });
	});

	it("a failing hook, a timed-out hook, continue:false; output sanitised for the screen and redacted everywhere", async () => {
		p = hookProject();
		processSecrets.add("sk-test-0123456789abcdef");
		p.settings(globalFile(p), {
			Stop: [
				{
					hooks: [
						commandHook("printf 'bad \\033]0;title\\007 sk-test-0123456789abcdef' >&2; exit 1"),
						commandHook("sleep 30", 1),
						commandHook(`echo '{"continue":false,"stopReason":"CI is red"}'`),
						commandHook(`echo '{"decision":"block","reason":"key sk-test-0123456789abcdef leaked"}'`),
					],
				},
			],
		});
		const outcome = await engine(p).run({ event: "Stop", stopHookActive: false }, session(p));
		expect(outcome.verdicts.map((v) => v.status)).toEqual(["error", "timeout", "ok", "blocked"]);
		expect(outcome.stop).toBe("CI is red");
		expect(outcome.blocked).toBe("key [redacted] leaked");
		expect(outcome.notices).toHaveLength(4);
		expect(outcome.notices[0]).toBe(
			`Stop hook "printf 'bad \\033]0;title\\007 sk-test-0123456789abcdef' >&2; exit 1" (${globalFile(p)}) failed (exit code 1): bad ^[]0;title^G [redacted]`.replace(
				"sk-test-0123456789abcdef",
				"[redacted]",
			),
		);
		expect(outcome.notices[1]).toMatch(/"sleep 30" .* timed out after 1 s and was stopped$/);
		for (const line of outcome.notices) {
			expect(line).not.toMatch(/[\x00-\x1f]/);
			expect(line).not.toContain("sk-test-0123456789abcdef");
		}
	});

	it("an abort stops every running hook of the event", async () => {
		p = hookProject();
		p.settings(globalFile(p), { Stop: [{ hooks: [commandHook("touch started; sleep 60"), commandHook("sleep 60")] }] });
		const controller = new AbortController();
		const running = engine(p).run({ event: "Stop", stopHookActive: false }, session(p), controller.signal);
		const end = Date.now() + 10_000;
		while (!existsSync(join(p.cwd, "started")) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
		controller.abort();
		const outcome = await running;
		expect(outcome.verdicts.map((v) => v.status)).toEqual(["cancelled", "cancelled"]);
		expect(outcome.notices).toEqual([]);
	});
});

describe("trusting a project's hooks", () => {
	it("a project's hooks do not run until trusted, then run; a changed command asks again; the user's own always run", async () => {
		p = hookProject();
		const projectFile = join(p.cwd, ".claude", "settings.json");
		p.settings(projectFile, { Stop: [{ hooks: [commandHook("touch ran-project")] }] });
		p.settings(globalFile(p), { Stop: [{ hooks: [commandHook("touch ran-global")] }] });
		const before = engine(p);
		expect(before.list().map((h) => [h.command, h.project, h.trust])).toEqual([
			["touch ran-global", false, "trusted"],
			["touch ran-project", true, "unknown"],
		]);
		await before.run({ event: "Stop", stopHookActive: false }, session(p));
		expect(existsSync(join(p.cwd, "ran-global"))).toBe(true);
		expect(existsSync(join(p.cwd, "ran-project"))).toBe(false);
		const notice = skippedHooksNotice(before.skipped(), "Trust them with /hooks trust.");
		expect(notice).toContain(`  Stop: touch ran-project  (${projectFile})`);
		expect(notice).toContain("Trust them with /hooks trust.");

		expect(before.answerTrust(true).map((h) => h.command)).toEqual(["touch ran-project"]);
		await before.run({ event: "Stop", stopHookActive: false }, session(p));
		expect(existsSync(join(p.cwd, "ran-project"))).toBe(true);
		// The record holds every trusted command in full, outside the project.
		const record = JSON.parse(readFileSync(join(p.env.RUDDER_HOME, "data", "hooks-trust.json"), "utf8"));
		expect(Object.values(record.projects)).toEqual([
			{ trusted: [{ event: "Stop", matcher: "", command: "touch ran-project", file: projectFile }], declined: [], at: expect.any(String) },
		]);
		expect(engine(p).skipped()).toEqual([]);

		// The repository changes the command: it is unknown again and does not run.
		p.settings(projectFile, { Stop: [{ hooks: [commandHook("touch ran-changed")] }] });
		const changed = engine(p);
		expect(changed.waitingForTrust().map((h) => h.command)).toEqual(["touch ran-changed"]);
		await changed.run({ event: "Stop", stopHookActive: false }, session(p));
		expect(existsSync(join(p.cwd, "ran-changed"))).toBe(false);
	});

	it("declined hooks stay skipped without asking again, until trusted", async () => {
		p = hookProject();
		p.settings(join(p.cwd, ".rudder", "settings.json"), { Stop: [{ hooks: [commandHook("touch ran")] }] });
		const hooks = engine(p);
		hooks.answerTrust(false);
		const again = engine(p);
		expect(again.waitingForTrust()).toEqual([]);
		expect(again.skipped().map((h) => h.command)).toEqual(["touch ran"]);
		expect(again.list()[0].trust).toBe("declined");
		await again.run({ event: "Stop", stopHookActive: false }, session(p));
		expect(existsSync(join(p.cwd, "ran"))).toBe(false);
		again.answerTrust(true);
		await again.run({ event: "Stop", stopHookActive: false }, session(p));
		expect(existsSync(join(p.cwd, "ran"))).toBe(true);
	});

	it("/hooks lists every hook with event, matcher, file and trust, sanitised", () => {
		p = hookProject();
		p.settings(join(p.cwd, ".claude", "settings.local.json"), {
			PreToolUse: [{ matcher: "Bash", hooks: [commandHook("echo \u001b[2Jhi")] }],
		});
		p.settings(globalFile(p), { Stop: [{ matcher: "ignored", hooks: [commandHook("true")] }] });
		const text = formatHookList(engine(p).list());
		expect(text).toBe(
			[
				"Hooks:",
				"Stop  [trusted (your own settings)]",
				"    true",
				`    from ${globalFile(p)}`,
				"PreToolUse  matcher: Bash  [unknown]",
				"    echo ^[[2Jhi",
				`    from ${join(p.cwd, ".claude", "settings.local.json")}`,
			].join("\n"),
		);
	});
});
