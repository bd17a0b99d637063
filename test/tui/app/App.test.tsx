import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { configFile, shownPath } from "../../../src/config/paths.js";
import { App } from "../../../src/tui/app/App.js";
import { openInputHistory } from "../../../src/tui/input/input-history.js";
import { formatDate } from "../../../src/tui/overlays/session-picker.js";
import { scrollScreenOff } from "../../../src/tui/transcript/use-history-batches.js";
import { FakeSession } from "./fake-session.js";
import { mountApp, tick, unmountLater } from "./mount-app.js";

const mount = mountApp;
const ENTER = "\r";
const ALT_ENTER = "\x1b\r";
const ESC = "\x1b";

const submits = (s: FakeSession) => s.calls.filter((c) => c.method === "submit").map((c) => c.args);

describe("App key routing", () => {
	it("Enter while idle prompts with the typed text and shows it in history", async () => {
		const { session, frame, type } = await mount();
		await type("hello there");
		expect(frame()).toContain("hello there");
		await type(ENTER);
		expect(submits(session)).toEqual([["hello there", undefined]]);
		expect(session.calls.some((c) => c.method === "prompt")).toBe(true);
		await vi.waitFor(() => expect(frame()).toContain("› hello there"));
		await vi.waitFor(() => expect(frame()).toContain("working"));
	});

	it("Enter while streaming steers and Alt+Enter queues a follow-up, both shown as dim queue lines", async () => {
		const { session, frame, type } = await mount();
		await type("start");
		await type(ENTER);
		await type("use tabs");
		await type(ENTER);
		await type("then run the tests");
		await type(ALT_ENTER);
		expect(submits(session).slice(1)).toEqual([
			["use tabs", undefined],
			["then run the tests", { as: "followUp" }],
		]);
		expect(session.getState().steering).toEqual(["use tabs"]);
		expect(session.getState().followUp).toEqual(["then run the tests"]);
		await vi.waitFor(() => {
			expect(frame()).toContain("Steering: use tabs");
			expect(frame()).toContain("Follow-up: then run the tests");
		});
		// Steering is listed first: it reaches the model first.
		expect(frame().indexOf("Steering:")).toBeLessThan(frame().indexOf("Follow-up:"));
	});

	it("Esc aborts, keeps the partial answer on screen and puts the queue back in the input, steering first", async () => {
		const { session, frame, type } = await mount();
		await type("write a poem");
		await type(ENTER);
		session.text("Roses are red,\nviolets");
		await type("shorter");
		await type(ENTER);
		await type("and in French");
		await type(ALT_ENTER);
		await type(ESC);
		await vi.waitFor(() => expect(session.calls.some((c) => c.method === "abort")).toBe(true));
		expect(session.calls.some((c) => c.method === "takeQueuedMessages")).toBe(true);
		await vi.waitFor(() => {
			const f = frame();
			expect(f).toContain("Aborted");
			expect(f).toContain("violets");
			expect(f).not.toContain("Steering:");
			expect(f).toMatch(/› shorter\s*\n\s+and in French/);
		});
		// The restored text is in the editor: Enter (now idle) sends both lines as one prompt.
		await type(ENTER);
		expect(submits(session).at(-1)).toEqual(["shorter\nand in French", undefined]);
	});

	it("keys typed ahead in one unbracketed chunk: the CR is Enter", async () => {
		const { session, type } = await mount();
		await type("first\rsecond");
		expect(submits(session)).toEqual([["first", undefined]]);
		await type("\r");
		expect(submits(session).at(-1)).toEqual(["second", undefined]);
	});

	it("control keys inside a typed-ahead chunk act as keys: backspace, Ctrl+C twice", async () => {
		const { frame, onExit, type } = await mount();
		await type("abcd\x7f\x7fX");
		expect(frame()).toContain("› abX");
		// The first clears the text, the second arms, the third quits.
		await type("\x03\x03\x03");
		expect(onExit).toHaveBeenCalledWith(0);
	});

	it("Esc while idle does not abort", async () => {
		const { session, type } = await mount();
		await type("x");
		await type(ESC);
		await new Promise((r) => setTimeout(r, 20));
		expect(session.calls.some((c) => c.method === "abort")).toBe(false);
	});

	it("a running !cmd shows a status line with its command, and Esc stops it", async () => {
		const { session, frame, type } = await mount();
		session.emit({ type: "user_shell_start", id: 1, command: "npm test", excluded: false });
		await vi.waitFor(() => expect(frame()).toMatch(/\$ npm test · \d+s · Esc stops/));
		await type(ESC);
		await vi.waitFor(() => expect(session.calls.some((c) => c.method === "abort")).toBe(true));
		session.emit({ type: "user_shell", id: 1, command: "npm test", output: "partial", exitCode: null, aborted: true, excluded: false });
		await vi.waitFor(() => expect(frame()).toMatch(/\$ npm test\npartial\nstopped/));
		expect(frame()).not.toContain("Esc stops");
	});

	it("Ctrl+J and Shift+Enter insert newlines instead of submitting", async () => {
		const { session, frame, type } = await mount();
		await type("one");
		await type("\n");
		await type("two");
		await type("\x1b[13;2u");
		await type("three");
		expect(submits(session)).toEqual([]);
		expect(frame()).toMatch(/› one\s*\n\s+two\s*\n\s+three/);
	});

	it("Ctrl+C clears the input (Up brings it back), then says to press it again, and the second press quits; Ctrl+D quits only on an empty input", async () => {
		const { onExit, frame, type } = await mount();
		await type("draft");
		await type("\x04");
		expect(onExit).not.toHaveBeenCalled();
		await type("\x03");
		expect(frame()).not.toContain("draft");
		await type("\x1b[A");
		expect(frame()).toContain("› draft");
		await type("\x03");
		await type("\x03");
		expect(onExit).not.toHaveBeenCalled();
		expect(frame()).toContain("Press Ctrl+C again to quit");
		await type("\x03");
		expect(onExit).toHaveBeenCalledWith(0);
		const second = await mount();
		await second.type("\x04");
		expect(second.onExit).toHaveBeenCalledWith(0);
	});

	it("Backspace on an empty input leaves the cursor at 0: typed text goes in order and / still completes", async () => {
		const { frame, type } = await mount();
		await type("\x7f");
		await type("\x7f");
		await type("abc");
		expect(frame()).toContain("› abc");
		for (let i = 0; i < 3; i++) await type("\x7f");
		await type("/");
		expect(frame()).toContain("Summarise the context");
	});

	it("an emoji or an accented letter under the cursor is drawn whole", async () => {
		const { frame, type } = await mount();
		await type("a😀e\u0301");
		await type("\x1b[D");
		expect(frame()).toContain("a😀\x1b[7me\u0301\x1b[27m");
		await type("\x1b[D");
		expect(frame()).toContain("a\x1b[7m😀\x1b[27me\u0301");
		expect(frame()).not.toContain("\ufffd");
		expect(frame()).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
	});

	it("Ctrl+L scrolls the screen into the scrollback (never erases it) and draws the live region again", async () => {
		const { app, frame, type } = await mount();
		await type("keep me");
		const before = app.frames.length;
		await type("\x0c");
		await vi.waitFor(() => expect(app.frames.slice(before).some((f) => f.startsWith(scrollScreenOff(24)))).toBe(true));
		expect(app.frames.join("")).not.toMatch(/\x1b\[[23]J/);
		// That the live region is drawn again on a real terminal is checked in test/e2e/tmux.test.ts
		// (Ink's debug mode, used here, does not keep the last frame).
		await type("!");
		expect(frame()).toContain("keep me!");
	});

	it("a new width, once settled and idle, prints the history again wrapped to it (as Ctrl+L), once per settled width", async () => {
		const session = new FakeSession();
		const props = { session, onExit: vi.fn(), history: openInputHistory(null) };
		const app = render(<App {...props} size={{ rows: 30, columns: 100 }} />);
		unmountLater(app);
		await tick();
		const words = Array.from({ length: 40 }, (_, i) => `w${String(i + 1).padStart(2, "0")}`).join(" ");
		app.stdin.write(words);
		await tick();
		app.stdin.write(ENTER);
		await vi.waitFor(() => expect(app.lastFrame()).toContain(`› ${words.slice(0, 95)}`));
		// While the run streams, a width change waits for its end (a scrolled-off spinner would stay behind).
		let before = app.frames.length;
		app.rerender(<App {...props} size={{ rows: 30, columns: 60 }} />);
		await new Promise((r) => setTimeout(r, 400));
		expect(app.frames.slice(before).join("")).not.toContain(scrollScreenOff(24));
		// A drag: widths that do not settle print nothing; the last one, settled, prints the history once.
		app.rerender(<App {...props} size={{ rows: 30, columns: 55 }} />);
		app.rerender(<App {...props} size={{ rows: 30, columns: 50 }} />);
		session.finish();
		await vi.waitFor(() => expect(app.frames.slice(before).filter((f) => f.includes(scrollScreenOff(24)))).toHaveLength(1));
		// The reprint is wrapped at 50 columns: "› " and twelve words, then the rest indented.
		await vi.waitFor(() => expect(app.lastFrame()).toContain(`› ${words.slice(0, 47)}\n  w13 w14`));
		expect(app.frames.join("")).not.toMatch(/\x1b\[[23]J/);
		// The same width again prints nothing more.
		before = app.frames.length;
		app.rerender(<App {...props} size={{ rows: 30, columns: 50 }} />);
		await new Promise((r) => setTimeout(r, 400));
		expect(app.frames.slice(before).join("")).not.toContain(scrollScreenOff(24));
	});

	it("/quit goes to the command registry, whose quit event exits", async () => {
		const { session, onExit, type } = await mount();
		await type("/quit");
		await type(ENTER);
		expect(onExit).toHaveBeenCalledWith(0);
		expect(submits(session)).toEqual([["/quit", undefined]]);
	});

	it("Up and Down walk the input history and come back to the draft", async () => {
		const { frame, type, session } = await mount();
		await type("first");
		await type(ENTER);
		session.finish();
		await type("second");
		await type(ENTER);
		session.finish();
		await type("dra");
		await type("\x1b[A");
		expect(frame()).toContain("› second");
		await type("\x1b[A");
		expect(frame()).toContain("› first");
		await type("\x1b[B");
		await type("\x1b[B");
		expect(frame()).toContain("› dra");
	});

	it("Up walks past a recalled /command: its completion menu does not open and take the key", async () => {
		const { frame, type, session } = await mount();
		await type("list the files");
		await type(ENTER);
		session.finish();
		await type("/compact");
		await type("\x1b");
		await type(ENTER);
		await type("\x1b[A");
		expect(frame()).toContain("› /compact");
		expect(frame()).not.toContain("Summarise the context");
		await type("\x1b[A");
		expect(frame()).toMatch(/› list the files\s*$/m);
	});

	it("/ shows command completion and Tab completes it", async () => {
		const { frame, type } = await mount();
		await type("/co");
		expect(frame()).toContain("/compact");
		expect(frame()).toContain("Summarise the context");
		await type("\t");
		expect(frame().replace(/\x1b\[[0-9;]*m/g, "")).toContain("› /compact  ");
		// A completed command (followed by a space) closes the menu.
		expect(frame()).not.toContain("Summarise the context");
	});

	it("the / menu shows every command in a scrolling window; Down selects, Tab accepts the selection, columns line up", async () => {
		const { session, frame, type } = await mount();
		const names = ["alpha", "beta", "compact", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];
		session.commands = () => names.map((name) => ({ name, description: `does ${name}` }));
		const plain = () => frame().replace(/\x1b\[[0-9;]*m/g, "");
		await type("/");
		expect(plain()).toContain("1–8 of 10");
		const rows = plain()
			.split("\n")
			.filter((r) => r.includes("does "));
		expect(rows).toHaveLength(8);
		// Descriptions start in one column whatever the label's length.
		expect(new Set(rows.map((r) => r.indexOf("does "))).size).toBe(1);
		for (let i = 0; i < 9; i++) await type("\x1b[B");
		expect(plain()).toContain("does juliet");
		expect(plain()).toContain("3–10 of 10");
		expect(plain()).toContain("▸ /juliet");
		await type("\x1b[A");
		await type("\t");
		expect(plain()).toContain("› /india ");
		expect(submits(session)).toEqual([]);
	});

	it("Enter in the / menu runs the selected argument-less command; a command with arguments waits for them", async () => {
		const { session, onExit, frame, type } = await mount();
		await type("/q");
		await type(ENTER);
		expect(onExit).toHaveBeenCalledWith(0);
		session.commands = () => [
			{ name: "export", description: "Write the transcript", args: "<file>" },
			{ name: "compact", description: "Summarise", args: "[instructions]" },
		];
		await type("/ex");
		await type(ENTER);
		expect(submits(session)).toEqual([["/quit", undefined]]);
		expect(frame().replace(/\x1b\[[0-9;]*m/g, "")).toContain("› /export ");
		await type("\x15/co");
		await type(ENTER);
		expect(submits(session)).toEqual([
			["/quit", undefined],
			["/compact", undefined],
		]);
	});

	it("Esc closes the menu first (the run goes on), and a second Esc stops the run", async () => {
		const { session, frame, type } = await mount();
		await type("go");
		await type(ENTER);
		await type("/co");
		expect(frame()).toContain("Summarise the context");
		await type(ESC);
		await vi.waitFor(() => expect(frame()).not.toContain("Summarise the context"));
		expect(session.calls.some((c) => c.method === "abort")).toBe(false);
		expect(frame()).toContain("/co");
		await type(ESC);
		expect(session.calls.some((c) => c.method === "abort")).toBe(true);
	});

	it("/model opens a picker and Enter switches the model", async () => {
		const { session, frame, type } = await mount();
		await type("/model");
		await type(ENTER);
		expect(frame()).toContain("fake/fake-2");
		await type("\x1b[B");
		await type(ENTER);
		await vi.waitFor(() => expect(session.getState().model.id).toBe("fake-2"));
		await vi.waitFor(() => expect(frame()).toContain("fake/fake-2 ·"));
	});
});

describe("App /resume", () => {
	const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");

	it("opens a picker of saved sessions, newest first, with date, first message, count and size; Enter resumes", async () => {
		const { session, frame, type } = await mount();
		await type("/resume");
		await type(ENTER);
		expect(frame()).toContain("Resume a session (2)");
		const rows = plain(frame()).split("\n");
		const first = rows.findIndex((r) => r.includes("fix the parser"));
		expect(rows[first]).toContain(formatDate(new Date("2026-11-30T10:00:00Z")));
		expect(rows[first]).toMatch(/fix the parser\s+4 msgs · 2\.0 KB/);
		expect(rows[first + 1]).toMatch(/add tests\s+9 msgs · 310 B/);
		// The two rows' details start in the same column.
		expect(rows[first].indexOf("4 msgs")).toBe(rows[first + 1].indexOf("9 msgs"));
		await type("\x1b[B");
		await type(ENTER);
		expect(submits(session)).toEqual([
			["/resume", undefined],
			["/resume bbbb2222", undefined],
		]);
		expect(frame()).not.toContain("Resume a session");
	});

	it("the search field filters by first message or id; Enter opens the highlighted match", async () => {
		const { session, frame, type } = await mount();
		await type("/resume");
		await type(ENTER);
		// The search field listens from its first effect on (a few ms after it is drawn).
		await new Promise((r) => setTimeout(r, 50));
		await type("tes");
		await vi.waitFor(() => expect(frame()).not.toContain("fix the parser"));
		expect(plain(frame())).toContain("search: tes");
		expect(frame()).toContain("add tests");
		await type("q");
		await vi.waitFor(() => expect(frame()).toContain("no match"));
		await type(ENTER);
		expect(submits(session)).toEqual([["/resume", undefined]]);
		for (let i = 0; i < 4; i++) await type("\x7f");
		await type("aaaa");
		await vi.waitFor(() => expect(frame()).not.toContain("add tests"));
		// A control key never types into the field.
		await type("\x0f");
		expect(plain(frame())).toContain("search: aaaa");
		await type(ENTER);
		expect(submits(session)).toEqual([
			["/resume", undefined],
			["/resume aaaa1111", undefined],
		]);
	});

	it("Esc closes the picker without resuming; without listSessions /resume goes to the session as typed", async () => {
		const { session, frame, type } = await mount();
		await type("/resume");
		await type(ENTER);
		await type(ESC);
		await vi.waitFor(() => expect(frame()).not.toContain("Resume a session"));
		expect(submits(session)).toEqual([["/resume", undefined]]);
		(session as { listSessions?: unknown }).listSessions = undefined;
		await type("/resume");
		await type(ENTER);
		expect(submits(session)).toEqual([
			["/resume", undefined],
			["/resume", undefined],
		]);
	});

	it("opens at start when asked (rudder -r)", async () => {
		const session = new FakeSession();
		const app = render(
			<App session={session} onExit={vi.fn()} history={openInputHistory(null)} size={{ rows: 30, columns: 100 }} openResumePicker />,
		);
		unmountLater(app);
		await vi.waitFor(() => expect(app.lastFrame()).toContain("Resume a session (2)"));
	});
});

describe("App paste", () => {
	it("a paste of more than 10 lines shows a placeholder, never submits, and is expanded on submit", async () => {
		const { session, frame, type } = await mount();
		const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
		await type("see: ");
		await type(`\x1b[200~${lines.join("\r")}\x1b[201~`);
		expect(submits(session)).toEqual([]);
		await vi.waitFor(() => expect(frame()).toContain("see: [paste #1 +12 lines]"));
		expect(frame()).not.toContain("line 7");
		await type(ENTER);
		expect(submits(session)).toEqual([[`see: ${lines.join("\n")}`, undefined]]);
	});

	it("a sent 500-line paste shows in the history as its placeholder; Ctrl+O prints it whole", async () => {
		const { session, frame, type } = await mount({ rows: 40 });
		const lines = Array.from({ length: 500 }, (_, i) => `row ${i + 1}`);
		await type("review this: ");
		await type(`\x1b[200~${lines.join("\r")}\x1b[201~`);
		await type(ENTER);
		expect(submits(session)).toEqual([[`review this: ${lines.join("\n")}`, undefined]]);
		await vi.waitFor(() => expect(frame()).toContain("› review this: [paste #1 +500 lines]"));
		expect(frame()).toContain("Ctrl+O shows it");
		expect(frame()).not.toContain("row 250");
		session.finish();
		await type("\x0f");
		await vi.waitFor(() => expect(frame()).toContain("row 250"));
		expect(frame()).toContain("row 500");
	});

	it("a short paste is inserted as text and its newlines do not submit", async () => {
		const { session, frame, type } = await mount();
		await type("\x1b[200~a\rb\x1b[201~");
		expect(submits(session)).toEqual([]);
		expect(frame()).toMatch(/› a\s*\n\s+b/);
	});

	it("a paste split across reads (and with Enter as its own event) is still one paste", async () => {
		const { session, frame, type } = await mount();
		await type("\x1b[200~first");
		await type("\r");
		await type("second\x1b[201~");
		expect(submits(session)).toEqual([]);
		expect(frame()).toMatch(/› first\s*\n\s+second/);
	});
});

describe("App live region", () => {
	it("renders the streaming tail live and moves closed markdown blocks to history", async () => {
		const { session, frame, type } = await mount();
		await type("explain");
		await type(ENTER);
		session.text("# Title\n\nFirst **bold** paragraph.\n\nstill typ");
		await vi.waitFor(() => expect(frame()).toContain("still typ"));
		const f = frame();
		expect(f).toContain("Title");
		expect(f).not.toContain("# Title");
		expect(f).toContain("First bold paragraph.");
		session.text("ing the end");
		await vi.waitFor(() => expect(frame()).toContain("still typing the end"));
		session.finish();
		await vi.waitFor(() => expect(frame()).not.toContain("working"));
		expect(frame()).toContain("still typing the end");
	});

	it("shows pending tool calls with a spinner, one-line args, elapsed seconds and the last output lines", async () => {
		const { session, frame, type } = await mount();
		await type("run it");
		await type(ENTER);
		session.startTool("t1", "bash", { command: "npm test\n--silent" });
		session.toolOutput("t1", "bash", "a\nb\nc\nd\ne\n");
		await vi.waitFor(() => {
			const f = frame();
			expect(f).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] bash npm test ⏎ --silent \(\ds\)/);
			expect(f).toContain("  e");
			expect(f).toContain("  c");
			expect(f).not.toMatch(/^ {2}b$/m);
		});
		session.endTool("t1", "bash", "all 12 passed");
		await vi.waitFor(() => expect(frame()).toContain("✓ bash npm test"));
		expect(frame()).toContain("all 12 passed");
		expect(frame()).not.toMatch(/\(\ds\)/);
	});

	it("collapses long tool output and Ctrl+O prints the last one in full", async () => {
		const { session, frame, type } = await mount({ rows: 60 });
		await type("read");
		await type(ENTER);
		session.startTool("t1", "read", { path: "notes.txt" });
		session.endTool("t1", "read", Array.from({ length: 10 }, (_, i) => `row ${i}`).join("\n"));
		await vi.waitFor(() => expect(frame()).toContain("6 more lines (Ctrl+O to expand)"));
		expect(frame()).not.toContain("row 9");
		await type("\x0f");
		await vi.waitFor(() => expect(frame()).toContain("row 9"));
	});

	it("prints long thinking collapsed, and Ctrl+O prints it whole once", async () => {
		const { session, frame, type } = await mount({ rows: 60 });
		await type("think");
		await type(ENTER);
		session.thinking(Array.from({ length: 10 }, (_, i) => `idea ${i}`).join("\n"));
		session.text("Answer.");
		session.finish();
		await vi.waitFor(() => expect(frame()).toContain("… 4 earlier lines (Ctrl+O to expand)"));
		expect(frame()).not.toContain("idea 3");
		await type("\x0f");
		await vi.waitFor(() => expect(frame()).toContain("idea 0"));
		const printed = frame();
		await type("\x0f");
		await new Promise((r) => setTimeout(r, 30));
		expect(frame()).toBe(printed);
	});

	it("shows edit diffs from details.diff, numbered, without their file headers", async () => {
		const { session, frame, type } = await mount();
		await type("edit");
		await type(ENTER);
		session.startTool("t1", "edit", { path: "a.ts" });
		session.endTool("t1", "edit", "Edited a.ts", { diff: "--- a.ts\n+++ a.ts\n@@ -1 +1 @@\n-old\n+new" });
		await vi.waitFor(() => expect(frame()).toContain("1 + new"));
		expect(frame()).toContain("1 - old");
		expect(frame()).not.toContain("+++ a.ts");
	});

	it("a retry wait shows a counting-down line naming the error, and Esc stops it", async () => {
		const { session, frame, type } = await mount();
		await type("go");
		await type(ENTER);
		session.retrying(3000, "429 rate limited");
		await vi.waitFor(() => expect(frame()).toContain("retrying in 3 s (429 rate limited) · Esc stops"));
		await vi.waitFor(() => expect(frame()).toContain("retrying in 2 s (429 rate limited)"), { timeout: 3000 });
		await type(ESC);
		expect(session.calls.some((c) => c.method === "abort")).toBe(true);
	});

	it("shows a failed run's error; a prompt that got no answer is marked failed and ↑ recalls it, even after other input", async () => {
		const { session, frame, type } = await mount();
		await type("go");
		await type(ENTER);
		// A steer typed while it ran is later in the input history than the prompt.
		await type("be brief");
		await type(ENTER);
		session.finish("error", "429 Too Many Requests");
		await vi.waitFor(() => expect(frame()).toContain("✗ not answered: 429 Too Many Requests · ↑ recalls it to send again"));
		// Nothing is sent again on its own: the input is empty and only the one prompt went out.
		expect(session.calls.filter((c) => c.method === "prompt")).toHaveLength(1);
		const inputLine = () => frame().split("\n").at(-2) ?? "";
		expect(inputLine()).toContain("ask, /command");
		await type("\x1b[A");
		expect(inputLine()).toMatch(/^› go/);
		await type("\x03");
		// After a reply that said something, the failure is the reply's, not the prompt's.
		await type("again");
		await type(ENTER);
		session.text("Half an answer");
		session.finish("error", "stream cut");
		await vi.waitFor(() => expect(frame()).toContain("Error: stream cut"));
		expect(frame()).not.toContain("✗ not answered: stream cut");
	});

	it("keeps the live region shorter than the terminal however long the open tail grows", async () => {
		const rows = 12;
		const { session, frame, type } = await mount({ rows, columns: 40 });
		await type("go");
		await type(ENTER);
		// One long paragraph never closes, so it all stays in the live tail.
		for (let i = 0; i < 300; i++) session.text(`line ${i} of a long paragraph that wraps\n`);
		await vi.waitFor(() => expect(frame()).toContain("line 299"));
		const lines = frame().split("\n");
		const live = lines.slice(lines.findIndex((l) => l.includes("› go")) + 1);
		expect(live.length).toBeLessThan(rows);
		expect(frame()).not.toContain("line 250 ");
		expect(live.at(-1)).toContain("fake/fake-1");
	});

	it("coalesces streaming updates: hundreds of tokens, a few dozen frames at most", async () => {
		const { session, app, frame, type } = await mount();
		await type("go");
		await type(ENTER);
		await vi.waitFor(() => expect(frame()).toContain("working"));
		const before = app.frames.length;
		// Each token in its own macrotask, as a socket delivers them: without coalescing, one frame each.
		for (let i = 0; i < 400; i++) {
			session.text(`t${i} `);
			await new Promise((r) => setImmediate(r));
		}
		await vi.waitFor(() => expect(frame()).toContain("t399"));
		expect(app.frames.length - before).toBeLessThan(100);
	});

	it("draws the open tail while it streams, though only the tail moves (its own frames, not the App's)", async () => {
		const { session, app, frame, type } = await mount();
		await type("go");
		await type(ENTER);
		await vi.waitFor(() => expect(frame()).toContain("working"));
		session.text("w0 ");
		// The first text is a change of structure (its block starts): that frame is the App's.
		await vi.waitFor(() => expect(frame()).toContain("w0"));
		const before = app.frames.length;
		// One open paragraph: no block closes, so nothing but the tail changes while it streams.
		for (let i = 1; i <= 120; i++) {
			session.text(`w${i} `);
			await new Promise((r) => setTimeout(r, 5));
		}
		const during = app.frames.slice(before).filter((f) => f.includes("w30 ") && !f.includes("w120"));
		expect(during.length).toBeGreaterThan(0);
	});

	it("shows the footer: cwd, model, tokens, cost and context use", async () => {
		const { frame } = await mount();
		expect(frame()).toContain("/work/project · fake/fake-1 · ↑1.2k ↓345 · $0.012 · ctx 25%");
	});
});

describe("App sanitising", () => {
	const hostile = [
		"\x1b]0;pwned-title\x07",
		"\x1b]52;c;cHduZWQtY2xpcA==\x07",
		"\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
		"\x1b[2J\x1b[H\x1b[31mred\x1b[0m",
		"\x1bP+q544e\x1b\\",
		"\x9b2J\x9d0;c1-title\x9c",
		"bell\x07 back\bspace \x1bc reset",
	].join(" ");

	const stripOwnStyles = (f: string) => f.replace(/\x1b\[[0-9;]*m/g, "");

	it("renders escape sequences from the model and from tools inert and visible, hiding no text", async () => {
		const { session, frame, type } = await mount();
		await type("go");
		await type(ENTER);
		session.text(`${hostile}\n\n`);
		session.startTool("t1", "bash", { command: "cat \x1b]0;x\x07evil" });
		session.endTool("t1", "bash", hostile);
		session.text(`tail ${hostile}`);
		await vi.waitFor(() => expect(frame()).toContain("✓ bash"));
		await vi.waitFor(() => expect(frame()).toContain("tail"));
		const f = stripOwnStyles(frame());
		expect(f).not.toMatch(/[\x1b\x07\x9b\x9c\x9d\x90]/);
		// Each payload stays on screen behind a visible introducer: what the model reads, the user sees.
		expect(f).toContain("^[]0;pwned-title^G");
		expect(f).toContain("cHduZWQtY2xpcA");
		expect(f).toContain("^[]8;;https://evil.example^[\\click");
		expect(f).toContain("⟪U+009D⟫0;c1-title");
		expect(f).toContain("^[[2J^[[Hred");
		expect(f).toContain("cat ^[]0;x^Gevil");
	});
});

describe("App first start and quit", () => {
	it("shows the first-start panel until the first prompt", async () => {
		const session = new FakeSession();
		const demo = { ...session.availableModels()[0], provider: "demo", id: "demo" };
		await session.setModel(demo);
		const local = { ...demo, provider: "ollama", id: "qwen3:4b" };
		session.availableModels = () => [demo, local];
		const app = render(
			<App session={session} onExit={() => {}} history={openInputHistory(null)} size={{ rows: 30, columns: 120 }} welcome />,
		);
		unmountLater(app);
		await tick();
		const f = app.lastFrame() ?? "";
		expect(f).toContain("ANTHROPIC_API_KEY");
		expect(f).toContain("/login <provider>");
		expect(f).toContain("found running: ollama/qwen3:4b");
		expect(f).toContain("offline demo model");
		// Names the file to add a server to, where it is on this machine.
		expect(f.replace(/\s+/g, " ")).toContain(`add its URL to ${shownPath(configFile("models"))}`);
		app.stdin.write("hi");
		await tick();
		app.stdin.write("\r");
		await vi.waitFor(() => expect(app.lastFrame()).not.toContain("ANTHROPIC_API_KEY"));
	});

	it("shows the model in use at start on a real model too, and on a resumed transcript until the next prompt", async () => {
		const session = new FakeSession();
		session.setState({ messages: [{ role: "user", content: "earlier", timestamp: 1 }] });
		const app = render(
			<App session={session} onExit={() => {}} history={openInputHistory(null)} size={{ rows: 30, columns: 120 }} welcome />,
		);
		unmountLater(app);
		await tick();
		expect(app.lastFrame()).toContain("Using fake/fake-1 · /model switches");
		app.stdin.write("hi");
		await tick();
		app.stdin.write("\r");
		await vi.waitFor(() => expect(app.lastFrame()).not.toContain("Using fake/fake-1"));
	});

	it("exits when the session reports a quit event", async () => {
		const { session, onExit } = await mount();
		session.emit({ type: "quit" });
		expect(onExit).toHaveBeenCalledWith(0);
	});
});
