import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_OUTPUT_BYTES, runHookProcess } from "../../../src/extensions/hooks/runner.js";
import { findShell } from "../../../src/tools/shell.js";
import { isRunning } from "../../helpers/processes.js";
import { waitUntil } from "../../helpers/wait-until.js";
import { type HookProject, hookProject } from "./hook-project.js";

let p: HookProject;
afterEach(() => p?.cleanup());

const shell = findShell();

describe("running a hook command", () => {
	it("runs in the project folder with the payload on stdin, the project variables set and no credentials", async () => {
		p = hookProject();
		const script = p.script(
			".claude/hooks/env.sh",
			'#!/bin/bash\nINPUT=$(cat)\necho "pwd=$(pwd)"\necho "claude=$CLAUDE_PROJECT_DIR"\necho "rudder=$RUDDER_PROJECT_DIR"\necho "key=${ANTHROPIC_API_KEY:-none} secret=${MY_SECRET:-none} gh=${GITHUB_TOKEN:-none} plain=$PLAIN"\necho "input=$INPUT"\n',
		);
		const result = await runHookProcess({
			command: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/env.sh`,
			stdin: '{"hook_event_name":"Stop"}',
			projectDir: p.cwd,
			timeoutMs: 10_000,
			shell,
			env: {
				...p.env,
				ANTHROPIC_API_KEY: "sk-ant-xxxxxxxxxxxx",
				MY_SECRET: "hunter2hunter2",
				GITHUB_TOKEN: "ghp_passed_on",
				PLAIN: "visible",
			},
			passEnv: ["GITHUB_TOKEN"],
		});
		expect(existsSync(script)).toBe(true);
		expect(result).toMatchObject({ exitCode: 0, timedOut: false, cancelled: false });
		expect(result.stdout.split("\n")).toEqual([
			`pwd=${p.cwd}`,
			`claude=${p.cwd}`,
			`rudder=${p.cwd}`,
			"key=none secret=none gh=ghp_passed_on plain=visible",
			'input={"hook_event_name":"Stop"}',
			"",
		]);
	});

	it("a hook past its timeout is stopped with everything it started", async () => {
		p = hookProject();
		p.script("slow.sh", "#!/bin/bash\nsleep 60 &\necho $! > child.pid\nwait\n");
		const result = await runHookProcess({ command: "./slow.sh", stdin: "{}", projectDir: p.cwd, timeoutMs: 1000, shell, env: p.env });
		expect(result).toMatchObject({ exitCode: null, timedOut: true, cancelled: false });
		const child = Number(readFileSync(join(p.cwd, "child.pid"), "utf8"));
		await waitUntil(() => !isRunning(child), "the hook's background sleep to be killed");
	});

	it("an abort (Esc) stops a running hook and its process group", async () => {
		p = hookProject();
		p.script("wait.sh", "#!/bin/bash\nsleep 60 &\necho $! > child.pid\nwait\n");
		const controller = new AbortController();
		const running = runHookProcess({
			command: "./wait.sh",
			stdin: "{}",
			projectDir: p.cwd,
			timeoutMs: 60_000,
			shell,
			env: p.env,
			signal: controller.signal,
		});
		await waitUntil(
			() => existsSync(join(p.cwd, "child.pid")) && readFileSync(join(p.cwd, "child.pid"), "utf8").trim() !== "",
			"the hook to start",
		);
		controller.abort();
		const result = await running;
		expect(result).toMatchObject({ exitCode: null, cancelled: true, timedOut: false });
		const child = Number(readFileSync(join(p.cwd, "child.pid"), "utf8"));
		await waitUntil(() => !isRunning(child), "the hook's background sleep to be killed");
	});

	it("a hook that does not read its input, one that floods its output, and one that cannot start", async () => {
		p = hookProject();
		const quiet = await runHookProcess({
			command: "exit 0",
			stdin: "x".repeat(1 << 20),
			projectDir: p.cwd,
			timeoutMs: 10_000,
			shell,
			env: p.env,
		});
		expect(quiet.exitCode).toBe(0);
		const flood = await runHookProcess({
			command: "head -c 3000000 /dev/zero | tr '\\0' a",
			stdin: "",
			projectDir: p.cwd,
			timeoutMs: 10_000,
			shell,
			env: p.env,
		});
		expect(flood.exitCode).toBe(0);
		expect(flood.stdout.length).toBe(MAX_OUTPUT_BYTES);
		const missing = await runHookProcess({
			command: "true",
			stdin: "",
			projectDir: join(p.cwd, "gone"),
			timeoutMs: 10_000,
			shell,
			env: p.env,
		});
		expect(missing.startError).toMatch(/ENOENT/);
	});
});
