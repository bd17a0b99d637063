// Resizing a real terminal (tmux on a private socket, the built app, `npm run build` first, against a
// scripted OpenAI chat-completions server on 127.0.0.1): once the width settles (and the run, if one
// streams, has ended) the history is printed again wrapped to the new width, as Ctrl+L does, so no
// word of it is broken across rows on screen; no stale live frame (the "working" spinner line) is left
// in the scrollback, and what was there before the app is kept. Like Ctrl+L, each settled width leaves
// the previous print in the scrollback above the new one.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textRecords } from "../helpers/openai-chunks.js";
import { tmuxAppPerTest } from "../helpers/tmux-app.js";

const LONG = 90_000;
const SESSION = "app";

const term = tmuxAppPerTest("rudder-resize");
const { tmux, captureAll, sendText, sendKey, waitForScreen } = term;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const occurrences = (text: string, part: string) => text.split(part).length - 1;
/** The reply's words that no screen row holds whole (a row ending mid-word breaks one). */
const brokenWords = (screen: string, text: string) => {
	const words = new Set(screen.split(/\s+/));
	return text.split(/\s+/).filter((w) => !words.has(w));
};
const REPLY =
	"Hello from the model, a reply long enough to wrap when the pane is narrow: one two three four five six seven eight nine ten.";

async function resize(columns: number): Promise<void> {
	tmux("resize-window", "-t", SESSION, "-x", String(columns), "-y", "40");
	// Long enough for any redraw the app would make after the resizing settles.
	await sleep(600);
}

describe("resizing the terminal", () => {
	it("after a reply, each settled width prints the history again, re-wrapped: no word broken on screen, no live frame left", {
		timeout: LONG,
	}, async () => {
		await term.start(["--model", "mock/mock-1"], { columns: 120, rows: 40 });
		term.server.enqueue({ kind: "sse", chunks: textRecords(REPLY.split(/(?<= )/)) });
		sendText("hi");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("ten."), "the reply");
		const wide = await waitForScreen((s) => !s.includes("working"), "the run's end");
		for (const columns of [70, 110, 50]) await resize(columns);
		const screen = await waitForScreen(
			(s) => s.includes("ten.") && s.split("\n").every((l) => l.length <= 50),
			"the reply after the resizes",
		);
		if (process.env.RUDDER_SAVE_CAPTURE) {
			const trim = (t: string) => t.replace(/\n+$/, "\n");
			const file = process.env.RUDDER_SAVE_CAPTURE.endsWith(".txt")
				? process.env.RUDDER_SAVE_CAPTURE
				: join(import.meta.dirname, "capture-resize.txt");
			writeFileSync(file, `--- 120 columns ---\n${trim(wide)}--- resized to 70, 110, then 50 ---\n${trim(screen)}`);
		}
		expect(brokenWords(screen, REPLY), screen).toEqual([]);
		const all = captureAll();
		// One print per settled width (three) and the first one, as after three Ctrl+L.
		expect(occurrences(all, "› hi"), all).toBe(4);
		expect(occurrences(all, "working"), all).toBe(0);
	});

	it("resizes while the reply streams: the history is printed again once, at the run's end, with no word broken and no stale spinner frame", {
		timeout: LONG,
	}, async () => {
		await term.start(["--model", "mock/mock-1"], { columns: 120, rows: 40 });
		term.server.enqueue({ kind: "sse", chunks: textRecords(REPLY.split(/(?<= )/)), delayMs: 120 });
		sendText("hi");
		sendKey("Enter");
		await waitForScreen((s) => s.includes("working") && s.includes("Hello"), "the reply streaming");
		for (const columns of [70, 110, 50]) await resize(columns);
		await waitForScreen((s) => s.includes("ten.") && !s.includes("working"), "the run's end");
		await sleep(400);
		const screen = await waitForScreen((s) => s.includes("ten."), "the screen after the run");
		// Printed again once, at the run's end (not while the spinner was on screen).
		expect(brokenWords(screen, REPLY), screen).toEqual([]);
		const all = captureAll();
		expect(occurrences(all, "› hi"), all).toBe(2);
		expect(occurrences(all, "working"), all).toBe(0);
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
		expect(occurrences(all, "› hi"), all).toBe(2);
		expect(occurrences(all, "working"), all).toBe(0);
	});
});
