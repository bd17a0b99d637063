// The first hour of a new user, in a real terminal (test/helpers/tmux-app.ts: tmux on a private
// socket runs the built app, `npm run build` first, against a scripted OpenAI chat-completions server
// on 127.0.0.1). Checked on the screen (`capture-pane`), the scrollback (`capture-pane -S -`) and the
// server's request log. With RUDDER_SAVE_CAPTURE set, the screens are written to capture-first-hour.txt.
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionsDir } from "../../src/session/session-store.js";
import { textRecords } from "../helpers/openai-chunks.js";
import { tmuxAppPerTest } from "../helpers/tmux-app.js";

const LONG = 90_000;
const SESSION = "app";
const CAPTURES = join(import.meta.dirname, "capture-first-hour.txt");

const term = tmuxAppPerTest("rudder-first-hour");
const { tmux, capture, captureAll, sendText, sendKey, waitForScreen } = term;
const start = (args: string[], options: Parameters<typeof term.start>[1] = {}) => term.start(["--model", "mock/mock-1", ...args], options);

function save(title: string, screen: string): void {
	if (process.env.RUDDER_SAVE_CAPTURE) appendFileSync(CAPTURES, `--- ${title} ---\n${screen.replace(/\n+$/, "")}\n`);
}

if (process.env.RUDDER_SAVE_CAPTURE) {
	writeFileSync(
		CAPTURES,
		[
			"# capture-pane excerpts of the first hour, from a real run of test/e2e/first-hour.test.ts:",
			"#   npm run build && RUDDER_SAVE_CAPTURE=1 npx vitest run test/e2e/first-hour.test.ts --project unit",
			"# tmux 3.3 on a private socket, TERM=screen-256color, NO_COLOR=1, against the scripted",
			"# chat-completions server on 127.0.0.1 (test/helpers/sse-server.ts). Each block is `tmux capture-pane -p`.",
			"",
		].join("\n"),
	);
}

/**
 * A picker draws before its key handler is attached (an effect after the commit): keys sent in that
 * moment would reach the input below it. A loaded machine can stretch it; this waits it out.
 */
const settle = () => new Promise((r) => setTimeout(r, 300));

const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i} `);

/** Session files as the app writes them, for the picker to list. */
function writeSessions(cwd: string, env: Record<string, string>, sessions: { id: string; first: string; minutesAgo: number }[]) {
	const dir = sessionsDir(cwd, env);
	mkdirSync(dir, { recursive: true });
	for (const s of sessions) {
		const when = new Date(Date.now() - s.minutesAgo * 60_000);
		const header = { type: "session", id: s.id, cwd, timestamp: when.toISOString(), version: 1 };
		const user = { type: "message", message: { role: "user", content: s.first, timestamp: when.getTime() } };
		const path = join(dir, `${when.toISOString().replace(/[:.]/g, "-")}_${s.id}.jsonl`);
		writeFileSync(path, `${JSON.stringify(header)}\n${JSON.stringify(user)}\n`);
		execFileSync("touch", ["-d", when.toISOString(), path]);
	}
}

describe("the first hour, in tmux", () => {
	it("keeps the scrollback from before it started through a message, a resize and Ctrl+L", { timeout: LONG }, async () => {
		await start([], { before: "seq 1 100" });
		term.server.enqueue({ kind: "sse", chunks: textRecords(["Hello ", "from ", "the ", "model."]) });
		sendText("hi");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("from the model."), "the reply");
		const count = () => {
			const lines = new Set(captureAll().split("\n"));
			return Array.from({ length: 100 }, (_, i) => String(i + 1)).filter((n) => lines.has(n)).length;
		};
		expect(count()).toBe(100);
		tmux("resize-window", "-t", SESSION, "-x", "60", "-y", "30");
		await waitForScreen((s) => s.split("\n").every((l) => l.length <= 60) && s.includes("from the model."), "the narrow layout");
		await new Promise((r) => setTimeout(r, 500));
		expect(count()).toBe(100);
		tmux("resize-window", "-t", SESSION, "-x", "100", "-y", "30");
		await new Promise((r) => setTimeout(r, 500));
		expect(count()).toBe(100);
		sendKey("C-l");
		await new Promise((r) => setTimeout(r, 500));
		await waitForScreen((s) => s.includes("from the model."), "the redrawn history");
		expect(count()).toBe(100);
		save(
			"`seq 1 100`, then rudder: lines 1–100 found in `capture-pane -p -S -`",
			`after one message: 100 of 100; after resizing to 60 columns and back to 100: 100 of 100; after Ctrl+L: ${count()} of 100`,
		);
	});

	it("/resume and rudder -r open the session picker; typing searches, Enter opens", { timeout: LONG }, async () => {
		const { home } = await term.setUp();
		writeSessions(home.cwd, home.env, [
			{ id: "1111aaaa-0000-4000-8000-000000000001", first: "fix the flaky parser test", minutesAgo: 60 },
			{ id: "2222bbbb-0000-4000-8000-000000000002", first: "write the release notes", minutesAgo: 5 },
		]);
		await start(["-r"]);
		const picker = await waitForScreen((s) => s.includes("Resume a session (2)"), "the picker");
		save("rudder -r: the session picker", picker);
		// Newest first.
		expect(picker.indexOf("write the release notes")).toBeLessThan(picker.indexOf("fix the flaky parser test"));
		expect(picker).toMatch(/1 msg · \d+ B/);
		await settle();
		sendText("flaky");
		const filtered = await waitForScreen((s) => !s.includes("release notes") && s.includes("search: flaky"), "the search");
		save("the picker, searching 'flaky'", filtered);
		sendKey("Enter");
		await waitForScreen((s) => s.includes("› fix the flaky parser test") && s.includes("Resumed session 1111aaaa"), "the resumed session");
		// And /resume from inside the app: Esc closes it, a second one searches and opens the other session.
		sendText("/resume");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("Resume a session"), "the /resume picker");
		sendKey("Escape");
		await waitForScreen((s) => !s.includes("Resume a session"), "the closed picker");
		sendText("/resume");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("Resume a session"), "the /resume picker again");
		await settle();
		sendText("release");
		await waitForScreen((s) => s.includes("search: release") && !/flaky parser test +1 msg/.test(s), "the /resume search");
		sendKey("Enter");
		await waitForScreen(
			(s) => s.includes("› write the release notes") && s.includes("Resumed session 2222bbbb") && !s.includes("Resume a session"),
			"the other session",
		);
	});

	it("Ctrl+C while the reply streams stops the run and the app stays, ready for the next prompt", { timeout: LONG }, async () => {
		const exitFile = await start([]);
		term.server.enqueue(
			{ kind: "sse", chunks: textRecords(["Long answer: ", ...words("beta", 300)]), delayMs: 60 },
			{ kind: "sse", chunks: textRecords(["Second ", "answer."]) },
		);
		sendText("tell me everything");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("beta3"), "the reply streaming");
		sendKey("C-c");
		await waitForScreen((s) => s.includes("Aborted"), "the stopped run");
		// Stopped for good: nothing more streams in, the app did not quit.
		await new Promise((r) => setTimeout(r, 700));
		expect(capture()).not.toContain("beta299");
		expect(existsSync(exitFile)).toBe(false);
		sendText("and now?");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("Second answer."), "the next reply");
		expect(term.server.requests).toHaveLength(2);
	});

	it("Esc with the / popup open while streaming closes the popup and the run goes on; a second Esc stops it", {
		timeout: LONG,
	}, async () => {
		await start([]);
		term.server.enqueue({ kind: "sse", chunks: textRecords(["Long answer: ", ...words("gamma", 300)]), delayMs: 60 });
		sendText("tell me everything");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("gamma3"), "the reply streaming");
		sendText("/");
		await waitForScreen((s) => /1–8 of \d+/.test(s), "the completion popup");
		sendKey("Escape");
		const closed = await waitForScreen((s) => !/1–8 of \d+/.test(s), "the popup closed");
		expect(closed).not.toContain("Aborted");
		// Still streaming: later words arrive after the Esc.
		const last = Math.max(...[...closed.matchAll(/gamma(\d+)/g)].map((m) => Number(m[1])));
		await waitForScreen((s) => s.includes(`gamma${last + 5}`), "more of the reply");
		expect(capture()).not.toContain("Aborted");
		sendKey("Escape");
		await waitForScreen((s) => s.includes("Aborted"), "the stopped run");
		await new Promise((r) => setTimeout(r, 700));
		expect(capture()).not.toContain("gamma299");
	});

	it("the / completion window scrolls through every command and Tab takes the selection", { timeout: LONG }, async () => {
		await start([]);
		sendText("/");
		const menu = await waitForScreen((s) => /1–8 of \d+/.test(s), "the completion window");
		save("typing / : the completion window", menu);
		const names = menu.split("\n").filter((l) => /^\s*[▸ ] \/\w/.test(l));
		expect(names).toHaveLength(8);
		// Descriptions line up in one column.
		const columns = new Set(names.map((l) => l.search(/\S/) + l.trimStart().search(/ {2}\S/)));
		expect(columns.size).toBe(1);
		sendKey("Down");
		sendKey("Down");
		const chosen = /\/[\w-]+/.exec(names[2])![0];
		save("Down twice: the third command selected", await waitForScreen((s) => s.includes(`▸ ${chosen} `), "the third command selected"));
		sendKey("Tab");
		// The command and a space (capture-pane drops trailing spaces); the menu closes.
		await waitForScreen((s) => s.includes(`› ${chosen}`) && !/of \d+ · ↑/.test(s), "the accepted command");
	});

	it("asks the terminal for extended keys: in tmux with extended-keys on, Shift+Enter inserts a newline", { timeout: LONG }, async () => {
		await start([], { extendedKeys: true });
		sendText("first line");
		sendKey("S-Enter");
		sendText("second line");
		await waitForScreen((s) => /› first line\n\s+second line/.test(s), "two lines in the input");
		expect(term.server.requests).toHaveLength(0);
	});

	it("a 429 shows a counting-down retry line, then the reply streams", { timeout: LONG }, async () => {
		await start([]);
		term.server.enqueue(
			{ kind: "status", status: 429, body: '{"error":{"message":"slow down"}}', headers: { "retry-after": "3" } },
			{ kind: "sse", chunks: textRecords(["after ", "the ", "wait."]) },
		);
		sendText("hello");
		sendKey("Enter");
		const line = await waitForScreen((s) => s.includes("retrying in 3 s (429 rate limited) · Esc stops"), "the retry line");
		save("a 429 with retry-after: 3", line);
		await waitForScreen((s) => /retrying in [12] s \(429 rate limited\)/.test(s), "the countdown");
		await waitForScreen((s) => s.includes("after the wait.") && !s.includes("retrying in"), "the reply");
		expect(term.server.requests).toHaveLength(2);
	});

	it("draws a markdown table aligned inside the width", { timeout: LONG }, async () => {
		await start([], { columns: 70 });
		const table = [
			"Here is the plan:\n\n",
			"| Step | What | Owner |\n",
			"|:-----|:-----|------:|\n",
			"| 1 | Read the failing test and reproduce the flaky behaviour locally | me |\n",
			"| 2 | Fix the parser | you |\n",
			"\nDone.",
		];
		term.server.enqueue({ kind: "sse", chunks: textRecords(table), delayMs: 30 });
		sendText("plan it");
		sendKey("Enter");
		const screen = await waitForScreen((s) => s.includes("Done.") && s.includes("└"), "the table");
		save("a markdown table at 70 columns", screen);
		const rows = screen.split("\n").filter((l) => /^[┌│├└]/.test(l));
		expect(rows.length).toBeGreaterThanOrEqual(7);
		expect(new Set(rows.map((r) => r.length)).size).toBe(1);
		expect(rows.every((r) => r.length <= 70)).toBe(true);
		expect(screen).not.toContain("|:-----");
	});
});
