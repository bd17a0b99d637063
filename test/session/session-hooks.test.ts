// The session's side of the user's hooks, on real scripts: what each moment's hooks decide, in the
// session's terms (a gate verdict, an amended tool result, a dropped prompt, the next instruction).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AfterToolCallContext } from "../../src/agent/types.js";
import { loadHooks } from "../../src/extensions/hooks/config.js";
import type { HookLifecycleEvent } from "../../src/extensions/hooks/types.js";
import { UserHooks } from "../../src/extensions/hooks/user-hooks.js";
import { SessionHooks, STOP_HOOK_LIMIT } from "../../src/session/session-hooks.js";
import { findShell } from "../../src/tools/shell.js";
import { commandHook, type HookProject, hookProject } from "../extensions/hooks/hook-project.js";

let p: HookProject;
afterEach(() => p?.cleanup());

function sessionHooks(project: HookProject, hooks: unknown, untrackedChangesMayStart = (_signal: AbortSignal) => Promise.resolve()) {
	project.settings(join(project.env.RUDDER_HOME, "settings.json"), hooks);
	const loaded = loadHooks({ cwd: project.cwd, env: project.env });
	const events: HookLifecycleEvent[] = [];
	const notices: string[] = [];
	const user = new UserHooks({
		hooks: loaded.hooks,
		cwd: project.cwd,
		env: project.env,
		shell: findShell(),
		passEnv: [],
		onEvent: (e) => events.push(e),
	});
	const session = new SessionHooks({
		hooks: user,
		identity: () => ({ sessionId: "s-9", transcriptPath: join(project.root, "s-9.jsonl"), cwd: project.cwd, permissionMode: "ask" }),
		notify: (_level, text) => notices.push(text),
		// Unless a test holds it: no checkpoint snapshot to wait for (test/session/checkpoints/untracked-changes-wait.test.ts).
		untrackedChangesMayStart,
	});
	return { session, events, notices };
}

const afterCtx = (tool: string, args: unknown, text: string): AfterToolCallContext =>
	({
		toolCall: { type: "toolCall", id: "c1", name: tool, arguments: args },
		args,
		result: { content: [{ type: "text", text }], details: {} },
		isError: false,
	}) as unknown as AfterToolCallContext;

describe("session hooks", () => {
	it("PreToolUse: exit 2 is the gate's deny with stderr; the hook is named in one notice", async () => {
		p = hookProject();
		const { session, notices, events } = sessionHooks(p, {
			PreToolUse: [{ matcher: "Bash", hooks: [commandHook("echo 'use npm run build' >&2; exit 2")] }],
		});
		expect(await session.preToolUse({ id: "c1", tool: "bash", args: { command: "make" } })).toEqual({
			decision: "deny",
			reason: "use npm run build",
		});
		expect(notices).toEqual([
			expect.stringMatching(/^PreToolUse hook "echo 'use npm run build' >&2; exit 2" \(.*settings\.json\) blocked: use npm run build$/),
		]);
		expect(events.map((e) => e.type)).toEqual(["hook_started", "hook_finished"]);
		expect(await session.preToolUse({ id: "c2", tool: "read", args: { path: "x" } })).toBeUndefined();
	});

	it("PostToolUse: block reasons and context join the result the model reads, after the gate's own amendment", async () => {
		p = hookProject();
		const { session } = sessionHooks(p, {
			PostToolUse: [
				{
					matcher: "Write",
					hooks: [
						commandHook(`echo '{"decision":"block","reason":"lint failed: missing semicolon"}'`),
						commandHook(`echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"formatted with prettier"}}'`),
					],
				},
			],
		});
		const amend = session.withPostToolUse(async () => ({ content: [{ type: "text", text: "gate's text" }] }));
		const result = await amend(afterCtx("write", { path: "a.ts", content: "x" }, "Wrote a.ts"));
		expect(result?.content).toEqual([
			{ type: "text", text: "gate's text" },
			{ type: "text", text: "[PostToolUse hook] lint failed: missing semicolon\n\n[PostToolUse hook context] formatted with prettier" },
		]);
		// A tool the matcher does not name: the result is the gate's, unchanged.
		expect(await amend(afterCtx("read", { path: "a.ts" }, "text"))).toEqual({ content: [{ type: "text", text: "gate's text" }] });
	});

	it("UserPromptSubmit: blocked prompts are not sent and say why; context is returned for the request", async () => {
		p = hookProject();
		const { session } = sessionHooks(p, {
			UserPromptSubmit: [
				{
					hooks: [
						commandHook(`p=$(jq -r .prompt); [ "$p" = "deploy" ] && { echo "no deploys on Friday" >&2; exit 2; }; echo "branch: main"`),
					],
				},
			],
		});
		expect(await session.userPromptSubmit("deploy")).toEqual({ send: false, reason: "no deploys on Friday" });
		expect(await session.userPromptSubmit("fix it")).toEqual({ send: true, context: "branch: main" });
	});

	it("a hook's command waits for the snapshot of an edits-only checkpoint; abort ends the wait and it never runs", async () => {
		p = hookProject();
		let letGo: () => void = () => {};
		const snapshot = new Promise<void>((resolve) => {
			letGo = resolve;
		});
		// The checkpoint store's wait: the snapshot's end, or the signal.
		const wait = (signal: AbortSignal) =>
			new Promise<void>((resolve) => {
				signal.addEventListener("abort", () => resolve(), { once: true });
				void snapshot.then(resolve);
			});
		const { session } = sessionHooks(p, { UserPromptSubmit: [{ hooks: [commandHook("echo ran >> ran.txt")] }] }, wait);
		const stopped = session.userPromptSubmit("first");
		await new Promise((resolve) => setImmediate(resolve));
		session.abort();
		await stopped;
		const waiting = session.userPromptSubmit("second");
		await new Promise((resolve) => setImmediate(resolve));
		expect(existsSync(join(p.cwd, "ran.txt"))).toBe(false);
		letGo();
		expect(await waiting).toEqual({ send: true });
		// Once: the aborted one never ran.
		expect(readFileSync(join(p.cwd, "ran.txt"), "utf8")).toBe("ran\n");
	});

	it("Esc while UserPromptSubmit waits for the snapshot: the prompt is not sent (its hooks never had their say)", async () => {
		p = hookProject();
		// A snapshot that does not end by itself: only the signal ends the wait.
		const wait = (signal: AbortSignal) =>
			new Promise<void>((resolve) => {
				signal.addEventListener("abort", () => resolve(), { once: true });
			});
		const { session } = sessionHooks(p, { UserPromptSubmit: [{ hooks: [commandHook("echo ran >> ran.txt")] }] }, wait);
		const stopped = session.userPromptSubmit("send me past the policy hook");
		await new Promise((resolve) => setImmediate(resolve));
		session.abort();
		expect(await stopped).toEqual({ send: false, reason: expect.any(String) });
		expect(existsSync(join(p.cwd, "ran.txt"))).toBe(false);
	});

	it(`Stop: the reason is the next instruction while it blocks, stop_hook_active from the second round, at most ${STOP_HOOK_LIMIT} rounds`, async () => {
		p = hookProject();
		const { session, notices } = sessionHooks(p, {
			Stop: [{ hooks: [commandHook(`jq -r .stop_hook_active >> rounds.txt; echo '{"decision":"block","reason":"tests still fail"}'`)] }],
		});
		const answers: (string | undefined)[] = [];
		for (let round = 0; round <= STOP_HOOK_LIMIT; round++) answers.push(await session.stop(round));
		expect(answers).toEqual([...Array(STOP_HOOK_LIMIT).fill("tests still fail"), undefined]);
		expect(readFileSync(join(p.cwd, "rounds.txt"), "utf8").trim().split("\n")).toEqual(["false", ...Array(STOP_HOOK_LIMIT).fill("true")]);
		expect(notices.at(-1)).toMatch(/kept the run going 5 times in a row; it stops here/);
	});

	it("SessionStart context, SessionEnd and PreCompact run; Notification does not wait; abort stops hooks outside a tool call", async () => {
		p = hookProject();
		const { session } = sessionHooks(p, {
			SessionStart: [{ matcher: "startup", hooks: [commandHook("echo 'TODO.md lists 2 items'")] }],
			PreCompact: [{ hooks: [commandHook("jq -r .trigger > compact.txt")] }],
			Notification: [{ hooks: [commandHook("jq -r .message > notified.txt")] }],
			SessionEnd: [{ hooks: [commandHook("touch ending; sleep 60")] }],
		});
		expect(await session.sessionStart("startup")).toBe("TODO.md lists 2 items");
		expect(await session.sessionStart("resume")).toBeUndefined();
		await session.preCompact("auto");
		expect(readFileSync(join(p.cwd, "compact.txt"), "utf8")).toBe("auto\n");
		session.notification("Rudder needs your approval for bash");
		const ending = session.sessionEnd("prompt_input_exit");
		const end = Date.now() + 10_000;
		const notified = () => (existsSync(join(p.cwd, "notified.txt")) ? readFileSync(join(p.cwd, "notified.txt"), "utf8") : "");
		while (!(existsSync(join(p.cwd, "ending")) && notified().endsWith("\n")) && Date.now() < end)
			await new Promise((r) => setTimeout(r, 20));
		session.abort();
		await ending;
		expect(notified()).toBe("Rudder needs your approval for bash\n");
	});
});
