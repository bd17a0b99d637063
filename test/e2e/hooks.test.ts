// A project's hooks in the app, in a real terminal (tmux): before the app mounts, the trust prompt lists
// every hook with its event, matcher, file and command in full; trusted, a blocking hook shows one line
// naming it while the model reads its stderr. RUDDER_SAVE_CAPTURE=1 writes the prompt's screen to
// test/e2e/capture-hooks-trust.txt.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textBody, toolCallBody } from "../helpers/openai-chunks.js";
import { putFile } from "../helpers/put-file.js";
import { tmuxAppPerTest } from "../helpers/tmux-app.js";

const LONG = 90_000;
const term = tmuxAppPerTest("rudder-e2e-hooks");
const { capture, sendText, sendKey, waitForScreen, start, exitCode } = term;

const GUARD = `c=$(jq -r .tool_input.command); echo "No deploys from the agent: $c" >&2; exit 2`;
const CONTEXT = `echo "Branch: $(git branch --show-current 2>/dev/null || echo none)"`;

describe("hooks in a real terminal (tmux)", () => {
	it("the trust prompt lists each project hook in full; trusted, a blocking hook shows one line naming it", { timeout: LONG }, async () => {
		const { server, home } = await term.setUp();
		const file = join(home.cwd, ".claude", "settings.json");
		putFile(
			file,
			JSON.stringify({
				hooks: {
					PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: GUARD }] }],
					UserPromptSubmit: [{ hooks: [{ type: "command", command: CONTEXT, timeout: 5 }] }],
				},
			}),
		);
		const exitFile = await start(["--model", "mock/mock-1"], { ready: (s) => s.includes("Run this project's hooks?") });
		const prompt = capture();
		expect(prompt).toContain(`PreToolUse [Bash] from ${file}`);
		expect(prompt).toContain(GUARD);
		expect(prompt).toContain(`UserPromptSubmit from ${file}`);
		expect(prompt).toContain(CONTEXT);
		expect(prompt).toContain("as you, outside the sandbox");
		// Before the app: nothing of it is drawn yet.
		expect(prompt).not.toContain("mock/mock-1");
		if (process.env.RUDDER_SAVE_CAPTURE) writeFileSync(join(import.meta.dirname, "capture-hooks-trust.txt"), prompt.replace(/\n+$/, "\n"));
		sendText("y");
		const app = await waitForScreen((s) => s.includes("mock/mock-1"), "the app after the answer");
		expect(app).not.toContain("Run this project's hooks?");
		expect(app).not.toContain("were not run");
		const trust = JSON.parse(readFileSync(join(home.rudderHome, "data", "hooks-trust.json"), "utf8"));
		expect(Object.values(trust.projects).flatMap((p: any) => p.trusted.map((h: any) => h.command))).toEqual([GUARD, CONTEXT]);

		server.enqueue(
			{ kind: "sse", chunks: [toolCallBody("bash", { command: "make deploy" }, "call_1")] },
			{ kind: "sse", chunks: [textBody("I will not deploy.")] },
		);
		sendText("deploy it");
		sendKey("Enter");
		const blocked = await waitForScreen((s) => s.includes("I will not deploy."), "the reply after the blocked call");
		// One notice naming the hook (its command and file) and what it said; the terminal wraps it, so
		// the screen is read with its line breaks as spaces.
		const flat = blocked.replace(/\s+/g, " ");
		const notice = `PreToolUse hook "${GUARD}" (${file}) blocked: No deploys from the agent: make deploy`;
		expect(flat.split(notice)).toHaveLength(2);
		// The model read the hook's stderr as the call's result; the prompt carried the other hook's context.
		const second = server.requests[1].body.messages;
		expect(second.find((m: any) => m.role === "tool").content).toBe("A hook refused this call: No deploys from the agent: make deploy");
		expect(JSON.stringify(second.find((m: any) => m.role === "user").content)).toContain("UserPromptSubmit-hook-context");
		sendKey("C-c", "C-c");
		await exitCode(exitFile);
	});
});
