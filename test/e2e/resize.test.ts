// Resizing a real terminal (tmux on a private socket, the built app, `npm run build` first, against a
// scripted OpenAI chat-completions server on 127.0.0.1): the scrollback (`capture-pane -S -`) holds
// the conversation once, however often the width changes, after a reply and while one streams. The
// terminal re-wraps the rows already printed; no copy of the transcript and no stale live frame (the
// "working" spinner line) may be left behind.
import { describe, expect, it } from "vitest";
import { textRecords } from "../helpers/openai-chunks.js";
import { tmuxAppPerTest } from "../helpers/tmux-app.js";

const LONG = 90_000;
const SESSION = "app";

const term = tmuxAppPerTest("rudder-resize");
const { tmux, captureAll, sendText, sendKey, waitForScreen } = term;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const occurrences = (text: string, part: string) => text.split(part).length - 1;
const REPLY =
	"Hello from the model, a reply long enough to wrap when the pane is narrow: one two three four five six seven eight nine ten.";

async function resize(columns: number): Promise<void> {
	tmux("resize-window", "-t", SESSION, "-x", String(columns), "-y", "40");
	// Long enough for any redraw the app would make after the resizing settles.
	await sleep(600);
}

describe("resizing the terminal", () => {
	it("after a reply, three resizes leave the transcript once in the scrollback and no live frame", { timeout: LONG }, async () => {
		await term.start(["--model", "mock/mock-1"], { columns: 120, rows: 40 });
		term.server.enqueue({ kind: "sse", chunks: textRecords(REPLY.split(/(?<= )/)) });
		sendText("hi");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("ten."), "the reply");
		await waitForScreen((s) => !s.includes("working"), "the run's end");
		for (const columns of [70, 110, 50]) await resize(columns);
		await waitForScreen((s) => s.includes("ten."), "the reply after the resizes");
		const all = captureAll();
		expect(occurrences(all, "› hi"), all).toBe(1);
		expect(occurrences(all, "working"), all).toBe(0);
		expect(occurrences(all, "Hello from the model"), all).toBe(1);
	});

	it("resizes while the reply streams leave one transcript and no stale spinner frame", { timeout: LONG }, async () => {
		await term.start(["--model", "mock/mock-1"], { columns: 120, rows: 40 });
		term.server.enqueue({ kind: "sse", chunks: textRecords(REPLY.split(/(?<= )/)), delayMs: 120 });
		sendText("hi");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("working") && s.includes("Hello"), "the reply streaming");
		for (const columns of [70, 110, 50]) await resize(columns);
		await waitForScreen((s) => s.includes("ten.") && !s.includes("working"), "the run's end");
		await sleep(400);
		const all = captureAll();
		expect(occurrences(all, "› hi"), all).toBe(1);
		expect(occurrences(all, "working"), all).toBe(0);
		expect(all).toContain("six seven eight nine ten.");
	});

	it("a reply taller than the screen streaming through resizes: the scrollback from before the app is kept, no stale frame", {
		timeout: LONG,
	}, async () => {
		await term.start(["--model", "mock/mock-1"], { columns: 120, rows: 40, before: "seq 1 100" });
		const lines = Array.from({ length: 80 }, (_, i) => `line ${i} of a long reply that is wide enough to wrap at fifty columns, ok\n\n`);
		term.server.enqueue({ kind: "sse", chunks: textRecords(lines), delayMs: 30 });
		sendText("hi");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("working") && s.includes("line 30 of"), "a tall reply streaming");
		for (const columns of [50, 120, 45]) await resize(columns);
		await waitForScreen((s) => s.includes("line 79 of") && !s.includes("working"), "the run's end", 60_000);
		await sleep(400);
		const all = captureAll();
		const rows = new Set(all.split("\n"));
		expect(Array.from({ length: 100 }, (_, i) => String(i + 1)).filter((n) => rows.has(n)).length).toBe(100);
		expect(occurrences(all, "› hi"), all).toBe(1);
		expect(occurrences(all, "working"), all).toBe(0);
	});
});
