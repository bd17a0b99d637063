// The user's hooks in a running session, on real scripts in a temporary project: what the model is
// sent, what runs, what the user is told. The faux provider records every request.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../src/ai/index.js";
import type { AgentSession } from "../../src/session/agent-session.js";
import { commandHook } from "../extensions/hooks/hook-project.js";
import { putFile } from "../helpers/put-file.js";
import { waitUntil } from "../helpers/wait-until.js";
import { createFixture, type Fixture, userTexts } from "./session-fixture.js";

let fx: Fixture;
afterEach(async () => {
	await fx?.cleanup();
});

const globalSettings = (f: Fixture) => join(f.env.RUDDER_HOME, "settings.json");
const writeHooks = (file: string, hooks: unknown) => putFile(file, JSON.stringify({ hooks }));

/** The tool results the model was sent in request `index`, as text. */
function toolResults(f: Fixture, index: number): string[] {
	return f.faux.calls[index].context.messages
		.filter((m) => m.role === "toolResult")
		.map((m) => (m as { content: { type: string; text?: string }[] }).content.map((c) => c.text ?? "").join(""));
}

async function session(f: Fixture, tools = ["read", "write", "bash"]): Promise<AgentSession> {
	return f.open({ tools });
}

describe("hooks in a session", () => {
	it("PreToolUse exit 2 refuses the call, the model reads stderr; a JSON allow runs bash in print mode without asking", async () => {
		fx = await createFixture();
		writeHooks(globalSettings(fx), {
			PreToolUse: [
				{
					matcher: "Bash",
					hooks: [
						commandHook(
							`c=$(jq -r .tool_input.command); case "$c" in *rm*) echo "rm is not allowed here: $c" >&2; exit 2;; esac; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`,
						),
					],
				},
			],
		});
		writeFileSync(join(fx.cwd, "keep.txt"), "x");
		const s = await session(fx);
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "rm keep.txt" })]),
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo made > made.txt" })]),
			fauxAssistantMessage([fauxText("done")]),
		]);
		await s.prompt("clean up");
		expect(existsSync(join(fx.cwd, "keep.txt"))).toBe(true);
		expect(toolResults(fx, 1)).toEqual(["A hook refused this call: rm is not allowed here: rm keep.txt"]);
		// The default mode asks before commands and print mode cannot ask: the hook's allow let it run.
		expect(readFileSync(join(fx.cwd, "made.txt"), "utf8")).toBe("made\n");
		expect(fx.notices()).toContainEqual(
			expect.stringMatching(/^PreToolUse hook ".*" \(.*settings\.json\) blocked: rm is not allowed here: rm keep\.txt$/),
		);
		const hookEvents = fx.events.filter((e) => e.type === "hook_started" || e.type === "hook_finished");
		expect(hookEvents.map((e) => e.type)).toEqual(["hook_started", "hook_finished", "hook_started", "hook_finished"]);
		expect(hookEvents[1]).toMatchObject({ type: "hook_finished", event: "PreToolUse", status: "blocked", exitCode: 2 });
	});

	it("PostToolUse: a formatter rewrites the written file; its context reaches the model with the result", async () => {
		fx = await createFixture();
		writeHooks(join(fx.cwd, ".claude", "settings.json"), {
			PostToolUse: [
				{
					matcher: "Write|Edit",
					hooks: [
						commandHook(
							`f=$(jq -r .tool_input.file_path); sed -i 's/[[:space:]]*$//' "$f"; echo "{\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"PostToolUse\\",\\"additionalContext\\":\\"formatted $(basename $f)\\"}}"`,
						),
					],
				},
			],
		});
		const s = await session(fx);
		expect(s.answerHooksTrust(true)).toHaveLength(1);
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("write", { path: "a.txt", content: "one   \ntwo\t\n" })]),
			fauxAssistantMessage([fauxText("written")]),
		]);
		await s.submit("/permissions auto-edit");
		await s.prompt("write it");
		expect(readFileSync(join(fx.cwd, "a.txt"), "utf8")).toBe("one\ntwo\n");
		expect(toolResults(fx, 1)[0]).toMatch(/\[PostToolUse hook context\] formatted a\.txt$/);
	});

	it("UserPromptSubmit adds context to the request, or drops the prompt (no request) with a notice naming the hook", async () => {
		fx = await createFixture();
		writeHooks(globalSettings(fx), {
			UserPromptSubmit: [
				{
					hooks: [
						commandHook(`p=$(jq -r .prompt); [ "$p" = "ship it" ] && { echo "not on Fridays" >&2; exit 2; }; echo "Current branch: main"`),
					],
				},
			],
		});
		const s = await session(fx);
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await s.prompt("fix the bug");
		expect(userTexts(fx.faux, 0)).toEqual([
			"fix the bug<UserPromptSubmit-hook-context>\nCurrent branch: main\n</UserPromptSubmit-hook-context>",
		]);
		await s.prompt("ship it");
		expect(fx.faux.calls).toHaveLength(1);
		expect(fx.notices()).toContainEqual(expect.stringMatching(/UserPromptSubmit hook .* blocked: not on Fridays$/));
		expect(fx.notices()).toContain("The prompt was not sent.");
	});

	describe("UserPromptSubmit on messages steered or queued during a run", () => {
		/** A run held in a bash call until the test creates `go`. */
		const heldRun = (...after: string[]) => [
			fauxAssistantMessage([fauxToolCall("bash", { command: "while [ ! -f go ]; do sleep 0.05; done; echo waited" })]),
			...after.map((text) => fauxAssistantMessage([fauxText(text)])),
		];
		const hookRuns = (f: Fixture) => f.events.filter((e) => e.type === "hook_finished").length;

		it("a block drops the message (the user sees why); context goes with the steered and the queued one", async () => {
			fx = await createFixture();
			writeHooks(globalSettings(fx), {
				UserPromptSubmit: [
					{
						hooks: [
							commandHook(`p=$(jq -r .prompt); case "$p" in *secret*) echo "no secrets in steering" >&2; exit 2;; esac; echo "seen: $p"`),
						],
					},
				],
			});
			const s = await session(fx);
			fx.faux.setResponses(heldRun("steered", "followed up"));
			const running = s.prompt("start");
			await fx.waitForEvent("tool_execution_start");
			expect(await s.submit("use the cache")).toEqual({ kind: "steered" });
			s.steer("here is my secret");
			s.followUp("then run tests");
			await waitUntil(() => hookRuns(fx) === 4);
			writeFileSync(join(fx.cwd, "go"), "");
			await running;
			await s.waitForIdle();
			const context = (p: string) => `<UserPromptSubmit-hook-context>\nseen: ${p}\n</UserPromptSubmit-hook-context>`;
			expect(fx.faux.calls).toHaveLength(3);
			expect(userTexts(fx.faux, 1)).toEqual([`start${context("start")}`, `use the cache${context("use the cache")}`]);
			expect(userTexts(fx.faux, 2).at(-1)).toBe(`then run tests${context("then run tests")}`);
			expect(JSON.stringify(fx.faux.calls.map((c) => c.context.messages))).not.toContain("secret");
			expect(fx.notices()).toContain('The steering message "here is my secret" was not sent: no secrets in steering');
			expect(fx.notices()).toContainEqual(expect.stringMatching(/UserPromptSubmit hook .* blocked: no secrets in steering$/));
		});

		it("a message whose hooks finish after the run ended starts a run of its own", async () => {
			fx = await createFixture();
			writeHooks(globalSettings(fx), {
				UserPromptSubmit: [
					{ hooks: [commandHook(`case "$(jq -r .prompt)" in late*) while [ ! -f release ]; do sleep 0.05; done;; esac`)] },
				],
			});
			const s = await session(fx);
			fx.faux.setResponses(heldRun("done", "read your late note"));
			void s.prompt("start");
			await fx.waitForEvent("tool_execution_start");
			s.steer("late note");
			await waitUntil(() => fx.events.filter((e) => e.type === "hook_started").length === 2);
			writeFileSync(join(fx.cwd, "go"), "");
			await waitUntil(() => fx.faux.calls.length === 2 && s.getState().phase.kind === "idle");
			expect(userTexts(fx.faux, 1)).toEqual(["start"]);
			writeFileSync(join(fx.cwd, "release"), "");
			await s.waitForIdle();
			expect(fx.faux.calls).toHaveLength(3);
			expect(userTexts(fx.faux, 2).at(-1)).toBe("late note");
		});
	});

	it("SessionStart's context goes with the first request only", async () => {
		fx = await createFixture();
		writeHooks(globalSettings(fx), { SessionStart: [{ matcher: "startup", hooks: [commandHook("echo 'Open TODOs: 2'")] }] });
		const s = await session(fx);
		fx.faux.setResponses([fauxAssistantMessage([fauxText("a")]), fauxAssistantMessage([fauxText("b")])]);
		await s.prompt("first");
		await s.prompt("second");
		expect(userTexts(fx.faux, 0)).toEqual(["first<SessionStart-hook-context>\nOpen TODOs: 2\n</SessionStart-hook-context>"]);
		expect(userTexts(fx.faux, 1).at(-1)).toBe("second");
	});

	it("a Stop hook keeps the run going until a file exists, with stop_hook_active on the rounds after the first", async () => {
		fx = await createFixture();
		writeHooks(globalSettings(fx), {
			Stop: [
				{
					hooks: [
						commandHook(
							`jq -r .stop_hook_active >> stops.txt; [ -f DONE ] && exit 0; echo '{"decision":"block","reason":"Create DONE first"}'`,
						),
					],
				},
			],
		});
		const s = await session(fx);
		fx.faux.setResponses([
			fauxAssistantMessage([fauxText("finished, I think")]),
			fauxAssistantMessage([fauxToolCall("write", { path: "DONE", content: "yes" })]),
			fauxAssistantMessage([fauxText("now it exists")]),
		]);
		await s.submit("/permissions auto-edit");
		await s.prompt("make DONE");
		expect(fx.faux.calls).toHaveLength(3);
		expect(userTexts(fx.faux, 1).at(-1)).toBe("Stop hook feedback (the run continues): Create DONE first");
		expect(readFileSync(join(fx.cwd, "stops.txt"), "utf8")).toBe("false\ntrue\n");
		expect(s.getState().phase.kind).toBe("idle");
	});

	it("a hook past its timeout is stopped and named once; the call goes on", async () => {
		fx = await createFixture();
		writeHooks(globalSettings(fx), { PreToolUse: [{ matcher: "Read", hooks: [commandHook("sleep 30", 1)] }] });
		writeFileSync(join(fx.cwd, "a.txt"), "content of a");
		const s = await session(fx);
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("read", { path: "a.txt" })]), fauxAssistantMessage([fauxText("read it")])]);
		await s.prompt("read a");
		expect(toolResults(fx, 1)[0]).toContain("content of a");
		expect(fx.notices()).toContainEqual(expect.stringMatching(/^PreToolUse hook "sleep 30" .* timed out after 1 s and was stopped$/));
	});

	it("Esc during a PreToolUse hook stops it, and the call does not run", async () => {
		fx = await createFixture();
		writeHooks(globalSettings(fx), {
			PreToolUse: [
				{ matcher: "Bash", hooks: [commandHook(`touch started; sleep 60; echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`)] },
			],
		});
		const s = await session(fx);
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "touch ran" })]),
			fauxAssistantMessage([fauxText("never")]),
		]);
		const running = s.prompt("go");
		const end = Date.now() + 10_000;
		while (!existsSync(join(fx.cwd, "started")) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
		s.abort();
		await running;
		expect(existsSync(join(fx.cwd, "ran"))).toBe(false);
		expect(fx.events.filter((e) => e.type === "hook_finished").map((e) => (e as { status: string }).status)).toEqual(["cancelled"]);
		expect(s.getState().phase.kind).toBe("idle");
	});

	it("hooks run outside the sandbox, as the user: one writes beside the workspace", async () => {
		fx = await createFixture();
		writeHooks(globalSettings(fx), {
			UserPromptSubmit: [{ hooks: [commandHook('echo "$RUDDER_PROJECT_DIR" > "$CLAUDE_PROJECT_DIR/../hook-was-here"')] }],
		});
		const s = await session(fx);
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await s.prompt("hi");
		expect(readFileSync(join(fx.root, "hook-was-here"), "utf8")).toBe(`${fx.cwd}\n`);
	});

	it("Esc during a UserPromptSubmit hook stops it and sends nothing", async () => {
		fx = await createFixture();
		writeHooks(globalSettings(fx), { UserPromptSubmit: [{ hooks: [commandHook("touch started; sleep 60")] }] });
		const s = await session(fx);
		fx.faux.setResponses([fauxAssistantMessage([fauxText("never")])]);
		const running = s.prompt("hello");
		const end = Date.now() + 10_000;
		while (!existsSync(join(fx.cwd, "started")) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
		s.abort();
		await running;
		expect(fx.faux.calls).toHaveLength(0);
		expect(fx.events.filter((e) => e.type === "hook_finished").map((e) => (e as { status: string }).status)).toEqual(["cancelled"]);
	});

	it("an untrusted project's hooks do not run (one notice lists them); after /hooks trust they do", async () => {
		fx = await createFixture();
		const projectFile = join(fx.cwd, ".claude", "settings.json");
		writeHooks(projectFile, { UserPromptSubmit: [{ hooks: [commandHook("touch hook-ran")] }] });
		const s = await session(fx);
		expect(fx.notices()).toContainEqual(expect.stringContaining(`This project's hooks were not run (not trusted yet)`));
		expect(fx.notices().find((n) => n.startsWith("This project's hooks"))).toContain(
			`  UserPromptSubmit: touch hook-ran  (${projectFile})`,
		);
		fx.faux.setResponses([fauxAssistantMessage([fauxText("a")]), fauxAssistantMessage([fauxText("b")])]);
		await s.prompt("one");
		expect(existsSync(join(fx.cwd, "hook-ran"))).toBe(false);
		await s.submit("/hooks");
		expect(fx.notices().at(-1)).toContain("UserPromptSubmit  [unknown]");
		await s.submit("/hooks trust");
		expect(fx.notices().at(-1)).toBe("Trusted (they run from now on), remembered for this folder:\n  touch hook-ran");
		await s.prompt("two");
		expect(existsSync(join(fx.cwd, "hook-ran"))).toBe(true);
	});
});
