// The built CLI with hooks in a project's .claude/settings.json, against a scripted OpenAI-compatible
// server on 127.0.0.1: untrusted, they do not run and stderr says which; with --trust-project they run,
// json mode shows hook_started / hook_finished, and a blocking PreToolUse hook's stderr reaches the model.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textBody, toolCallBody } from "../helpers/openai-chunks.js";
import { putFile } from "../helpers/put-file.js";
import { cliPerTest, runCli } from "../helpers/rudder-cli.js";

const LONG = 60_000;
const { setUp } = cliPerTest();

const hooks = {
	hooks: {
		UserPromptSubmit: [{ hooks: [{ type: "command", command: "touch prompt-hook-ran" }] }],
		PreToolUse: [
			{ matcher: "Bash", hooks: [{ type: "command", command: 'echo "blocked by policy: $(jq -r .tool_input.command)" >&2; exit 2' }] },
		],
	},
};

describe("hooks through the CLI", () => {
	it("an untrusted project's hooks do not run, and one stderr notice names them and how to trust", { timeout: LONG }, async () => {
		const { server, home } = await setUp();
		putFile(join(home.cwd, ".claude", "settings.json"), JSON.stringify(hooks));
		server.enqueue({ kind: "sse", chunks: [textBody("fine")] });
		const result = await runCli(["-p", "hi", "--model", "mock/mock-1"], home);
		expect(result.code).toBe(0);
		expect(existsSync(join(home.cwd, "prompt-hook-ran"))).toBe(false);
		expect(result.stderr).toContain("This project's hooks were not run (not trusted yet)");
		expect(result.stderr).toContain("UserPromptSubmit: touch prompt-hook-ran");
		expect(result.stderr).toContain("--trust-project");
	});

	it("--trust-project runs them: json events for each hook, and the model reads the blocking hook's stderr", {
		timeout: LONG,
	}, async () => {
		const { server, home } = await setUp();
		putFile(join(home.cwd, ".claude", "settings.json"), JSON.stringify(hooks));
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "make deploy" })] }, { kind: "sse", chunks: [textBody("ok")] });
		const result = await runCli(["--mode", "json", "deploy", "--model", "mock/mock-1", "--trust-project"], home);
		expect(result.code).toBe(0);
		expect(existsSync(join(home.cwd, "prompt-hook-ran"))).toBe(true);
		const events = result.stdout
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line))
			.filter((e) => e.type === "hook_started" || e.type === "hook_finished");
		expect(events.map((e) => `${e.type} ${e.event}`)).toEqual([
			"hook_started UserPromptSubmit",
			"hook_finished UserPromptSubmit",
			"hook_started PreToolUse",
			"hook_finished PreToolUse",
		]);
		expect(events[3]).toMatchObject({ status: "blocked", exitCode: 2, file: join(home.cwd, ".claude", "settings.json") });
		const toolResult = server.requests[1].body.messages.find((m: any) => m.role === "tool");
		expect(toolResult.content).toContain("A hook refused this call: blocked by policy: make deploy");
		// Trusted once, remembered: a second run needs no flag.
		server.enqueue({ kind: "sse", chunks: [textBody("again")] });
		const again = await runCli(["-p", "hi", "--model", "mock/mock-1"], home);
		expect(again.stderr).not.toContain("were not run");
	});
});
