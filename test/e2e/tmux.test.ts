// The built app in a real terminal (test/helpers/tmux-app.ts: tmux on a private socket, a scripted
// OpenAI chat-completions server on 127.0.0.1, a temp home). We type a prompt, steer while it streams,
// queue a follow-up, press Esc, and check what the screen shows (`capture-pane`) and what the model was
// sent (the server's request log).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textBody, textRecords, toolCallBody } from "../helpers/openai-chunks.js";
import { tmuxAppPerTest } from "../helpers/tmux-app.js";

const LONG = 90_000;
const SESSION = "app";

const term = tmuxAppPerTest("rudder-e2e");
const { tmux, capture, captureAll, sendText, sendKey, waitForScreen, start, exitCode } = term;

/** Sends `line` (a command whose output is a snapshot) every 2 s until the screen shows what `predicate` wants. */
async function askUntil(line: string, predicate: (screen: string) => boolean, what: string): Promise<void> {
	for (let attempt = 0; attempt < 10; attempt++) {
		sendText(line);
		sendKey("Enter");
		if (
			await waitForScreen(predicate, what, 2_000).then(
				() => true,
				() => false,
			)
		)
			return;
	}
	throw new Error(`screen never showed ${what}; last capture:\n${capture()}`);
}

async function waitFor(predicate: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!predicate()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${capture()}`);
		await new Promise((r) => setTimeout(r, 100));
	}
}

const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i} `);
const userTexts = (body: any): string[] =>
	body.messages
		.filter((m: any) => m.role === "user")
		.map((m: any) => (typeof m.content === "string" ? m.content : m.content.map((c: any) => c.text ?? "").join("")));

/** SGR parameters that set a foreground or background colour, found in `text`. */
function colourCodes(text: string): string[] {
	const found: string[] = [];
	for (const m of text.matchAll(/\x1b\[([0-9;]*)m/g)) {
		for (const p of m[1].split(";").map(Number))
			if ((p >= 30 && p <= 38) || (p >= 40 && p <= 48) || (p >= 90 && p <= 107)) found.push(m[0]);
	}
	return found;
}

describe("rudder in a real terminal (tmux)", () => {
	it("steers, queues a follow-up and stops with Esc", { timeout: LONG }, async () => {
		const { server } = await term.setUp();
		// First reply: ~4.5 s of streaming, long enough to steer into. Second: ~20 s, cut short by Esc.
		server.enqueue(
			{ kind: "sse", chunks: textRecords(["Working on it: ", ...words("alpha", 60), "done."]), delayMs: 75 },
			{ kind: "sse", chunks: textRecords(["Brief answer: ", ...words("beta", 200)]), delayMs: 100 },
		);
		const exitFile = await start(["--model", "mock/mock-1"]);
		sendText("say hello");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("alpha3"), "the first reply streaming");

		// Enter while streaming steers: queued on screen, then delivered with the next model call.
		sendText("be brief");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("Steering: be brief"), "the steering line");
		await waitFor(() => server.requests.length === 2, "the steered request");
		expect(userTexts(server.requests[1].body)).toEqual(["say hello", "be brief"]);
		await waitForScreen((s) => s.includes("beta3") && !s.includes("Steering:"), "the second reply");

		// Alt+Enter queues a follow-up; Esc stops the stream and puts the follow-up back in the input.
		sendText("then summarise");
		sendKey("M-Enter");
		const queued = await waitForScreen((s) => s.includes("Follow-up: then summarise"), "the follow-up line");
		// NO_COLOR (set by makeHome) is honoured: the screen has bold / dim / inverse but no colours.
		expect(colourCodes(tmux("capture-pane", "-e", "-p", "-t", SESSION))).toEqual([]);
		expect(tmux("capture-pane", "-e", "-p", "-t", SESSION)).toMatch(/\x1b\[[0-9;]*2[;m]/);
		sendKey("Escape");
		const screen = await waitForScreen((s) => s.includes("Aborted"), "Aborted");
		if (process.env.RUDDER_SAVE_CAPTURE) {
			const trim = (t: string) => t.replace(/\n+$/, "\n");
			writeFileSync(
				join(import.meta.dirname, "capture-example.txt"),
				`--- streaming, after Enter (steer) and Alt+Enter (follow-up) ---\n${trim(queued)}--- after Esc ---\n${trim(screen)}`,
			);
		}

		expect(screen).toContain("› say hello");
		expect(screen).toContain("done.");
		expect(screen).toContain("› be brief");
		expect(screen).toContain("Brief answer: beta0");
		expect(screen).not.toContain("Follow-up:");
		expect(screen).toMatch(/› then summarise\s*\n.*mock\/mock-1/);
		// Nothing more was sent: the follow-up waits in the input, the aborted reply ended the run.
		await new Promise((r) => setTimeout(r, 500));
		expect(server.requests).toHaveLength(2);
		expect(capture()).not.toContain("beta199");

		// A narrower window re-lays out the live region without leaving copies of it behind; once the width
		// settles the history is printed again at 60 columns (as Ctrl+L), the earlier print left above it.
		tmux("resize-window", "-t", SESSION, "-x", "60", "-y", "30");
		const narrow = await waitForScreen(
			(s) => s.split("\n").every((l) => l.length <= 60) && s.includes("› then summarise") && s.includes("a55 alpha56"),
			"the narrow layout",
		);
		await new Promise((r) => setTimeout(r, 500));
		expect(captureAll().match(/› say hello/g)).toHaveLength(2);
		expect(narrow.match(/mock\/mock-1/g)).toHaveLength(1);
		expect(narrow.match(/› then summarise/g)).toHaveLength(1);

		// Ctrl+L clears the screen and prints the history and the live region again, once each.
		sendKey("C-l");
		await new Promise((r) => setTimeout(r, 300));
		const redrawn = await waitForScreen((s) => s.includes("› say hello") && s.includes("› then summarise"), "the redrawn screen");
		expect(redrawn.match(/› say hello/g)).toHaveLength(1);
		expect(redrawn.match(/mock\/mock-1/g)).toHaveLength(1);

		// Ctrl+C clears the input, a second Ctrl+C quits with exit code 0.
		sendKey("C-c");
		await waitForScreen((s) => !s.includes("› then summarise"), "the cleared input");
		// Two presses in one go: "within a second" must not depend on how loaded the machine is.
		sendKey("C-c", "C-c");
		// The exit code as the shell saw it: tmux 3.3 can leave the pane's status unrecorded for a while.
		expect(await exitCode(exitFile)).toBe("0");
	});

	it("asks before starting a project's MCP servers, shows the command line, and remembers the answer", { timeout: LONG }, async () => {
		const { server, home } = await term.setUp();
		const fixture = join(import.meta.dirname, "..", "fixtures", "mcp", "stdio-server.mjs");
		writeFileSync(join(home.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [fixture] } } }));
		let exitFile = await start(["--model", "mock/mock-1"], { ready: (s) => s.includes("Start this project's MCP servers?") });
		const prompt = capture();
		// The prompt comes before the app: nothing of the app is drawn yet, and it is gone once answered.
		expect(prompt).toContain("stdio-server.mjs");
		expect(prompt).not.toContain("mock/mock-1");
		sendText("y");
		const answered = await waitForScreen((s) => s.includes("mock/mock-1"), "the app after the answer");
		expect(answered).not.toContain("Start this project's MCP servers?");
		await askUntil("/mcp ", (s) => /proj {2}ready/.test(s) && s.includes("mcp__proj__echo"), "/mcp listing the server ready");
		sendKey("C-c", "C-c");
		await exitCode(exitFile);

		// The answer is remembered for this folder: the next start goes straight to the app.
		exitFile = await start(["--model", "mock/mock-1"]);
		expect(capture()).not.toContain("Start this project's MCP servers?");
		await askUntil("/mcp ", (s) => /proj {2}ready/.test(s), "the remembered server ready");
		sendKey("C-c", "C-c");
		await exitCode(exitFile);
	});
});

// What a new user sees the first time the model wants to run a command and to edit a file, in the
// default mode (ask). RUDDER_SAVE_CAPTURE=1 writes both screens to test/e2e/capture-permissions.txt.
describe("approvals in a real terminal (tmux)", () => {
	it("asks before the first command and before the first edit (with its diff), in ask mode", { timeout: LONG }, async () => {
		const { server, home } = await term.setUp();
		writeFileSync(join(home.cwd, "README.md"), "# Demo\n\nRun the tests with npm test.\n");
		server.enqueue(
			{ kind: "sse", chunks: [toolCallBody("bash", { command: "npm test" }, "call_1")] },
			{ kind: "sse", chunks: [toolCallBody("read", { path: "README.md" }, "call_2")] },
			{
				kind: "sse",
				chunks: [toolCallBody("edit", { path: "README.md", edits: [{ oldText: "npm test", newText: "npm test -- --run" }] }, "call_3")],
			},
			{ kind: "sse", chunks: [textBody("Updated the README.")] },
		);
		// ask, not auto (the default where bwrap works, in which a sandboxed command runs without asking).
		await start(["--model", "mock/mock-1", "--permission-mode", "ask"]);
		expect(capture()).toMatch(/ · ask · mock\/mock-1/);
		sendText("fix the readme");
		sendKey("Enter");

		const bashScreen = await waitForScreen((s) => s.includes("bash wants to run"), "the bash approval");
		expect(bashScreen).toContain("$ npm test");
		expect(bashScreen).toContain("runs in the sandbox: writes only inside the workspace and /tmp, no network");
		expect(bashScreen).toContain("1  Allow once");
		expect(bashScreen).toContain("waiting for approval");
		expect(bashScreen).not.toMatch(/working/);
		sendKey("1");
		sendKey("Enter");

		// Where npm tries the network (its update check) the sandbox sees it fail and asks whether to run
		// the command outside; "Do not" is preselected, so Enter (no reason) and Enter keep it inside.
		const next = await waitForScreen((s) => s.includes("edit wants to run") || s.includes("failed inside the sandbox"), "the next prompt");
		if (next.includes("failed inside the sandbox")) {
			expect(next).toMatch(/› 1 {2}Do not/);
			sendKey("Enter");
			sendKey("Enter");
		}
		const editScreen = await waitForScreen((s) => s.includes("edit wants to run"), "the edit approval");
		expect(editScreen).toContain("-Run the tests with npm test.");
		expect(editScreen).toContain("+Run the tests with npm test -- --run.");
		expect(readFileSync(join(home.cwd, "README.md"), "utf8")).toContain("with npm test.\n");
		sendKey("1");
		sendKey("Enter");

		await waitForScreen((s) => s.includes("Updated the README."), "the final answer");
		expect(readFileSync(join(home.cwd, "README.md"), "utf8")).toBe("# Demo\n\nRun the tests with npm test -- --run.\n");
		// The command ran (in the sandbox; there is no package.json, so npm fails) and its result reached the model.
		expect(JSON.stringify(server.requests[1].body.messages.at(-1))).toContain('"role":"tool"');
		if (process.env.RUDDER_SAVE_CAPTURE) {
			const trim = (t: string) => t.replace(/\n+$/, "\n");
			writeFileSync(
				join(import.meta.dirname, "capture-permissions.txt"),
				`# The first bash call in ask mode\n${trim(bashScreen)}\n# The first edit\n${trim(editScreen)}`,
			);
		}
	});
});

// Typing at an open approval in a real terminal grants nothing (issue 30): words sent as keystrokes go
// to the paused input, no rule is saved, the command does not run. At 60 columns a long && chain wraps
// with its end on screen. RUDDER_SAVE_CAPTURE=1 writes the screen to test/e2e/capture-approval-60.txt.
describe("typing at an approval in a real terminal (tmux)", () => {
	it("words typed at an open bash approval grant nothing; the whole chain shows at 60 columns", { timeout: LONG }, async () => {
		const { server, home } = await term.setUp();
		const chain = [
			"npm ci",
			"npm run build",
			...Array.from({ length: 12 }, (_, i) => `cp dist/part-${i}.js /srv/app/releases/current/part-${i}.js`),
			"rm -rf ~/important",
		].join(" && ");
		server.enqueue(
			{ kind: "sse", chunks: [toolCallBody("bash", { command: chain }, "call_1")] },
			{ kind: "sse", chunks: [textBody("Not run.")] },
		);
		// ask: in auto, the default where bwrap works, the sandboxed command would run without asking.
		await start(["--model", "mock/mock-1", "--permission-mode", "ask"], { columns: 60, rows: 26 });
		sendText("deploy it");
		sendKey("Enter");
		const screen = await waitForScreen((s) => s.includes("typing goes to the input"), "the bash approval");
		const prompt = screen.slice(screen.indexOf("bash wants to run"), screen.indexOf("typing goes to the input"));
		// Too long for the screen: the head, a count of the hidden rows and the key, and the tail with the rm.
		expect(prompt).toMatch(/⟨\d+ more lines hidden · Ctrl\+O shows all⟩/);
		expect(prompt.replace(/\n {2}/g, "")).toContain("&& rm -rf ~/important");
		expect(prompt).not.toContain("…");
		// Ctrl+O pages through all of it; q comes back to the choices.
		sendKey("C-o");
		await waitForScreen((s) => /bash: rows 1–\d+ of \d+/.test(s), "the pager");
		sendKey("q");
		await waitForScreen((s) => s.includes("Deny, and tell the model why"), "the choices again");
		if (process.env.RUDDER_SAVE_CAPTURE) writeFileSync(join(import.meta.dirname, "capture-approval-60.txt"), screen.replace(/\n+$/, "\n"));
		// Words, as keystrokes (one key per write, then one write of a whole phrase), the way people type.
		for (const ch of "please ") sendText(ch);
		sendText("stop, always allow");
		const typed = await waitForScreen((s) => s.includes("please stop, always allow"), "the typed words in the paused input");
		expect(typed).toContain("input paused");
		expect(typed).toContain("bash wants to run");
		expect(typed).not.toContain("Save rule");
		expect(server.requests).toHaveLength(1);
		const rulesFile = join(home.rudderHome, "data", "project-permissions.json");
		expect(existsSync(rulesFile) ? readFileSync(rulesFile, "utf8") : "").not.toContain("rm -rf");
		// Enter now takes the highlighted choice: deny (the safe one), which asks for a reason.
		sendKey("Enter");
		await waitForScreen((s) => s.includes("reason:"), "the reason field");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("Not run."), "the reply after the denial");
		expect(JSON.stringify(server.requests[1].body.messages.at(-1))).toContain("The user denied this call");
		expect(existsSync(rulesFile) ? readFileSync(rulesFile, "utf8") : "").not.toContain("rm -rf");
		// The words are still in the input, ready to send.
		expect(capture()).toContain("› please stop, always allow");
	});
});

describe("project trust in a real terminal (tmux)", () => {
	it("asks once before a project's settings may widen permissions; no leaves them ignored, remembered", { timeout: LONG }, async () => {
		const { server, home } = await term.setUp();
		mkdirSync(join(home.cwd, ".rudder"));
		writeFileSync(join(home.cwd, ".rudder", "settings.json"), JSON.stringify({ permissions: { mode: "yolo", allow: ["bash(curl*)"] } }));
		let exitFile = await start(["--model", "mock/mock-1"], { ready: (s) => s.includes("Trust this folder's settings?") });
		const prompt = capture();
		expect(prompt).toContain('permissions.mode "yolo"');
		expect(prompt).toContain('permissions.allow "bash(curl*)"');
		expect(prompt).not.toContain("mock/mock-1");
		sendText("n");
		const app = await waitForScreen((s) => s.includes("mock/mock-1") && s.includes("Ignored permissions.mode"), "the app and the notice");
		// The default where bwrap works: the sandbox-first mode.
		expect(app).toMatch(/ · auto · mock\/mock-1/);
		expect(app).toContain('Ignored permissions.mode "yolo", permissions.allow "bash(curl*)"');
		sendKey("C-c", "C-c");
		await exitCode(exitFile);

		// Remembered: the next start does not ask again and still ignores the widening.
		exitFile = await start(["--model", "mock/mock-1"]);
		const again = capture();
		expect(again).not.toContain("Trust this folder's settings?");
		expect(again).toMatch(/ · auto · mock\/mock-1/);
		sendKey("C-c", "C-c");
		await exitCode(exitFile);
	});
});
