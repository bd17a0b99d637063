import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emptyUsage } from "../../../src/ai/usage.js";
import { expandAttachments } from "../../../src/session/prompt-attachments.js";
import { renderHistoryItem } from "../../../src/tui/transcript/render/history-item.js";
import { lastLines, RESUME_SHOWN, SessionView } from "../../../src/tui/transcript/session-view.js";
import { FakeSession } from "../app/fake-session.js";

describe("SessionView", () => {
	it("moves closed blocks to history as they stream and keeps only the open block live", () => {
		const session = new FakeSession();
		const view = new SessionView(session);
		session.subscribe((e) => view.handle(e));
		void session.prompt("q");
		expect(view.history.map((h) => h.kind)).toEqual(["user"]);
		session.text("Para one.\n\nPara tw");
		expect(view.history.at(-1)).toMatchObject({ kind: "markdown", source: "Para one." });
		expect(view.tail.text).toBe("Para tw");
		session.finish("aborted");
		expect(view.history.slice(-2)).toMatchObject([{ kind: "markdown", source: "Para tw" }, { kind: "aborted" }]);
		expect(view.tail.text).toBe("");
	});

	it("a tool call waiting for the snapshot is marked waiting; its timer counts from when it runs", () => {
		const session = new FakeSession();
		let now = 1_000;
		const view = new SessionView(session, () => now);
		view.handle({ type: "tool_execution_start", toolCallId: "b", toolName: "bash", args: { command: "ls" } });
		view.handle({ type: "tool_waiting", toolCallId: "b", waiting: true });
		expect(view.tools.get("b")).toMatchObject({ waiting: true, startedAt: 1_000 });
		now = 9_000;
		view.handle({ type: "tool_waiting", toolCallId: "b", waiting: false });
		expect(view.tools.get("b")?.waiting).toBeUndefined();
		expect(view.tools.get("b")?.startedAt).toBe(9_000);
		// Another call's wait (a sub-agent's) changes no row of this view.
		view.handle({ type: "tool_waiting", toolCallId: "other", waiting: true });
		expect(view.tools.has("other")).toBe(false);
	});

	it("counts a change of structure for everything but streamed text (a block it closes goes to history without one)", () => {
		const session = new FakeSession();
		const view = new SessionView(session);
		session.subscribe((e) => view.handle(e));
		void session.prompt("q");
		session.text("Para one, ");
		const before = view.structure;
		session.text("still ");
		session.text("open");
		// The tail alone moved: a frame can redraw it without the App.
		expect(view.structure).toBe(before);
		expect(view.tail.text).toBe("Para one, still open");
		const items = view.history.length;
		session.text(".\n\nNext");
		// A closed block went to history, printed by the tail's frame (src/tui/ink/live-region.ts).
		expect(view.history.slice(items)).toMatchObject([{ kind: "markdown", source: "Para one, still open." }]);
		expect(view.structure).toBe(before);
		session.finish("stop");
		expect(view.structure).toBeGreaterThan(before);
	});

	it("flushes thinking dim into history when its block ends", () => {
		const session = new FakeSession();
		const view = new SessionView(session);
		session.subscribe((e) => view.handle(e));
		void session.prompt("q");
		const partial = session.getState().streamingMessage as any;
		partial.content.push({ type: "thinking", thinking: "" });
		session.emit({
			type: "message_update",
			message: partial,
			assistantMessageEvent: { type: "thinking_delta", contentIndex: 0, delta: "hmm, ", partial },
		});
		session.emit({
			type: "message_update",
			message: partial,
			assistantMessageEvent: { type: "thinking_delta", contentIndex: 0, delta: "let me see", partial },
		});
		expect(view.tail.thinking).toBe("hmm, let me see");
		session.emit({
			type: "message_update",
			message: partial,
			assistantMessageEvent: { type: "thinking_end", contentIndex: 0, content: "hmm, let me see", partial },
		});
		expect(view.history.at(-1)).toMatchObject({ kind: "thinking", text: "hmm, let me see" });
		expect(view.tail.thinking).toBe("");
	});

	it("keeps the rest of the tail as text and thinking stream in turn (a delta changes only its own part)", () => {
		const session = new FakeSession();
		const view = new SessionView(session);
		session.subscribe((e) => view.handle(e));
		void session.prompt("q");
		const partial = session.getState().streamingMessage as any;
		partial.content.push({ type: "thinking", thinking: "" }, { type: "text", text: "" });
		const update = (assistantMessageEvent: object) =>
			session.emit({ type: "message_update", message: partial, assistantMessageEvent } as any);
		update({ type: "thinking_delta", contentIndex: 0, delta: "hmm", partial });
		update({ type: "text_delta", contentIndex: 1, delta: "Hi", partial });
		expect(view.tail).toStrictEqual({ thinking: "hmm", text: "Hi", textOpen: true });
		partial.content.push({ type: "toolCall", id: "c1", name: "bash", arguments: {} });
		update({ type: "toolcall_start", contentIndex: 2, partial });
		update({ type: "text_delta", contentIndex: 1, delta: " there", partial });
		expect(view.tail).toStrictEqual({ thinking: "hmm", text: "Hi there", textOpen: true, writingToolCall: "bash" });
		update({ type: "thinking_delta", contentIndex: 0, delta: ", so", partial });
		expect(view.tail).toStrictEqual({ thinking: "hmm, so", text: "Hi there", textOpen: true, writingToolCall: "bash" });
	});

	it("shows a tool result that had no execution events (an aborted call) once", () => {
		const session = new FakeSession();
		const view = new SessionView(session);
		session.subscribe((e) => view.handle(e));
		const result = {
			role: "toolResult" as const,
			toolCallId: "c1",
			toolName: "bash",
			content: [{ type: "text" as const, text: "Aborted before it ran" }],
			isError: true,
			timestamp: 0,
		};
		session.emit({ type: "message_end", message: result });
		session.emit({ type: "message_end", message: result });
		expect(view.history.filter((h) => h.kind === "tool")).toHaveLength(1);
		expect(view.history.at(-1)).toMatchObject({ kind: "tool", name: "bash", isError: true });
	});

	it("an @file prompt is one 'Read big.js (400 lines)' row, live and on resume; Ctrl+O prints it as sent", () => {
		const dir = mkdtempSync(join(tmpdir(), "rudder-view-"));
		try {
			writeFileSync(join(dir, "big.js"), Array.from({ length: 400 }, (_, i) => `line${i + 1}();`).join("\n"));
			const sent = expandAttachments("explain @big.js", dir).text;
			const session = new FakeSession();
			const view = new SessionView(session);
			session.subscribe((e) => view.handle(e));
			void session.prompt(sent);
			const shown = (v: SessionView) => v.history.map((h) => renderHistoryItem(h, 80)).join("\n");
			expect(view.history.at(-1)).toMatchObject({ kind: "user", text: "explain @big.js", full: sent });
			expect(shown(view)).toContain("Read big.js (400 lines) · Ctrl+O shows it");
			expect(shown(view)).not.toContain("line200();");
			session.text("It counts.");
			session.finish();
			// Resumed: the same one row.
			const resumed = new SessionView(session);
			expect(shown(resumed)).toContain("Read big.js (400 lines)");
			expect(shown(resumed)).not.toContain("line200();");
			expect(resumed.expandLast()).toBe(true);
			expect(shown(resumed)).toContain("line200();");
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("rebuilds history from the transcript on session_changed (resume)", () => {
		const session = new FakeSession();
		const view = new SessionView(session);
		session.subscribe((e) => view.handle(e));
		void session.prompt("old question");
		session.text("old answer");
		session.finish();
		const before = view.history.length;
		session.emit({ type: "session_changed", sessionFile: "/s/1.jsonl" });
		const added = view.history.slice(before);
		expect(added.map((h) => h.kind)).toEqual(["notice", "user", "markdown"]);
		// A short notice naming the session, not the file's path printed as a line.
		expect(added[0]).toMatchObject({ kind: "notice", text: `── session ${session.getState().sessionId.slice(0, 8)} ──` });
		expect(JSON.stringify(view.history)).not.toContain("/s/1.jsonl");
	});

	it("a restored transcript shows each tool call with its arguments, as the live run did (resume, -c, /tree, /rewind)", () => {
		const session = new FakeSession();
		const call = { type: "toolCall" as const, id: "w1", name: "write", arguments: { path: "new2.txt", content: "x" } };
		const messages = [
			{ role: "user" as const, content: "make new2", timestamp: 0 },
			{ ...assistantWith([call]), stopReason: "toolUse" as const },
			{
				role: "toolResult" as const,
				toolCallId: "w1",
				toolName: "write",
				content: [{ type: "text" as const, text: "Wrote 1 byte" }],
				isError: false,
				timestamp: 0,
			},
		];
		(session as any).state = { ...session.getState(), messages };
		const resumed = new SessionView(session);
		const tool = resumed.history.find((h) => h.kind === "tool");
		expect(tool).toMatchObject({ name: "write", args: { path: "new2.txt", content: "x" } });
		expect(stripAnsi(renderHistoryItem(tool!, 80))).toContain("✓ write new2.txt");
		// The same after a switch inside the app (session_changed re-reads the transcript).
		session.subscribe((e) => resumed.handle(e));
		session.emit({ type: "session_changed", sessionFile: "/s/1.jsonl" });
		expect(resumed.history.filter((h) => h.kind === "tool").map((h) => (h as { args: unknown }).args)).toEqual([
			{ path: "new2.txt", content: "x" },
			{ path: "new2.txt", content: "x" },
		]);
	});
});

function assistantWith(content: object[]) {
	return {
		role: "assistant" as const,
		content,
		api: "faux",
		provider: "faux",
		model: "m",
		usage: emptyUsage(),
		stopReason: "stop" as const,
		timestamp: 0,
	} as any;
}

const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");

describe("SessionView and the session's own messages", () => {
	it("shows a resumed session's !cmd output and compaction in place", () => {
		const session = new FakeSession();
		const messages = [
			{ role: "compactionSummary" as const, summary: "s", tokensBefore: 9, timestamp: 0 },
			{ role: "shellOutput" as const, command: "make", output: "built", exitCode: 0, timestamp: 0 },
			{ role: "shellOutput" as const, command: "sleep 9", output: "", exitCode: null, aborted: true, timestamp: 0 },
		];
		(session as any).state = { ...session.getState(), messages };
		const view = new SessionView(session);
		expect(view.history).toMatchObject([
			{ kind: "notice", text: "Earlier turns were compacted into a summary." },
			{ kind: "shell", command: "make", output: "built", exitCode: 0 },
			{ kind: "shell", command: "sleep 9", aborted: true },
		]);
	});

	it("tracks a running !cmd from its start to its end", () => {
		const session = new FakeSession();
		const view = new SessionView(session, () => 1000);
		session.subscribe((e) => view.handle(e));
		session.emit({ type: "user_shell_start", id: 4, command: "ls", excluded: true });
		expect([...view.shells]).toEqual([[4, { command: "ls", startedAt: 1000 }]]);
		session.emit({ type: "user_shell", id: 4, command: "ls", output: "a", exitCode: 0, aborted: false, excluded: true });
		expect(view.shells.size).toBe(0);
		expect(view.history.at(-1)).toEqual({ kind: "shell", id: expect.any(Number), command: "ls", output: "a", exitCode: 0, excluded: true });
	});
});

describe("SessionView and web searches", () => {
	const searched = {
		type: "webSearch" as const,
		id: "s1",
		query: "vitest timers",
		sources: [{ title: "Mocking", url: "https://vitest.dev/guide/mocking" }],
	};
	const reply = assistantWith([
		{ type: "text", text: "Use fake timers.", citations: [{ title: "Mocking", url: "https://vitest.dev/guide/mocking" }] },
		searched,
		{ type: "text", text: "See above.", citations: [{ title: "Mocking", url: "https://vitest.dev/guide/mocking" }] },
	]);

	it("shows a search as it arrives, between the text before and after it, and the cited pages once after the reply", () => {
		const session = new FakeSession();
		const view = new SessionView(session);
		session.subscribe((e) => view.handle(e));
		session.emit({ type: "message_start", message: reply });
		const partial = reply;
		session.emit({ type: "message_update", message: partial, assistantMessageEvent: { type: "text_start", contentIndex: 0, partial } });
		session.emit({
			type: "message_update",
			message: partial,
			assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "Use fake timers.", partial },
		});
		session.emit({
			type: "message_update",
			message: partial,
			assistantMessageEvent: { type: "text_end", contentIndex: 0, content: "Use fake timers.", partial },
		});
		session.emit({
			type: "message_update",
			message: partial,
			assistantMessageEvent: { type: "websearch", contentIndex: 1, search: searched, partial },
		});
		session.emit({ type: "message_end", message: reply });
		expect(view.history.map((h) => h.kind)).toEqual(["markdown", "sources", "sources"]);
		expect(view.history[1]).toMatchObject({ search: { query: "vitest timers" }, sources: searched.sources });
		expect(view.history[2]).toMatchObject({ sources: [{ url: "https://vitest.dev/guide/mocking" }] });
		expect(view.history[2]).not.toHaveProperty("search");
	});

	it("shows a resumed reply's search and citations", () => {
		const session = new FakeSession();
		(session as any).state = { ...session.getState(), messages: [reply] };
		const view = new SessionView(session);
		expect(view.history.map((h) => h.kind)).toEqual(["markdown", "sources", "markdown", "sources"]);
	});
});

describe("SessionView on a long resumed session", () => {
	it("prints only the last RESUME_SHOWN messages, from a user message on, and says where the rest is", () => {
		const session = new FakeSession();
		const messages = [];
		for (let i = 0; i < 500; i++) {
			messages.push({ role: "user" as const, content: `q${i}`, timestamp: 0 });
			messages.push({ ...assistantText(`a${i}`) });
		}
		(session as any).state = { ...session.getState(), messages };
		const view = new SessionView(session);
		expect(view.history[0]).toMatchObject({
			kind: "notice",
			text: `… ${1000 - RESUME_SHOWN} earlier messages are in the session file (/export writes them all)`,
		});
		expect(view.history[1]).toMatchObject({ kind: "user", text: `q${500 - RESUME_SHOWN / 2}` });
		expect(view.history.at(-1)).toMatchObject({ kind: "markdown", source: "a499" });
		expect(view.history).toHaveLength(RESUME_SHOWN + 1);
	});
});

function assistantText(text: string) {
	return {
		role: "assistant" as const,
		content: [{ type: "text" as const, text }],
		api: "faux",
		provider: "fake",
		model: "fake-1",
		usage: emptyUsage(),
		stopReason: "stop" as const,
		timestamp: 0,
	};
}

describe("lastLines", () => {
	it("returns the last n lines without trailing newlines", () => {
		expect(lastLines("a\nb\nc\nd\n\n", 2)).toBe("c\nd");
		expect(lastLines("one", 3)).toBe("one");
		expect(lastLines("", 3)).toBe("");
	});
});
