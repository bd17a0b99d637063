// Loading session files that are damaged, old, huge or branched: every bad line is skipped with one
// warning naming the file and the line, and the rest loads.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AssistantMessage, UserMessage } from "../../src/ai/index.js";
import { emptyUsage, fauxAssistantMessage } from "../../src/ai/index.js";
import { readLines } from "../../src/session/line-reader.js";
import { loadSession, readSessionInfo } from "../../src/session/session-load.js";
import { SessionLog } from "../../src/session/session-log.js";
import { latestSession, sessionsDir } from "../../src/session/session-store.js";
import { createFixture, type Fixture } from "./session-fixture.js";

let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "rudder-load-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const header = (id = "11111111-2222-3333-4444-555555555555", version = 2) => ({
	type: "session",
	version,
	id,
	cwd: "/p",
	timestamp: "2026-01-01T00:00:00.000Z",
});
const user = (text: string): UserMessage => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
const assistant = (text: string): AssistantMessage => ({
	role: "assistant",
	content: [{ type: "text", text }],
	api: "faux",
	provider: "faux",
	model: "faux-1",
	usage: emptyUsage(),
	stopReason: "stop",
	timestamp: 2,
});
let nextId = 0;
// `type` first, as the log writes it (listings count message lines by that prefix).
const entry = (fields: Record<string, unknown>, parentId: string | null) => ({
	type: fields.type,
	id: `e${++nextId}`,
	parentId,
	timestamp: "2026-01-01T00:00:01.000Z",
	...fields,
});
const write = (name: string, lines: unknown[]) => {
	const path = join(root, name);
	writeFileSync(path, `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`);
	return path;
};
const texts = (messages: readonly { role: string; content?: unknown }[]) =>
	messages.map((m) => (Array.isArray(m.content) ? (m.content[0] as { text: string }).text : m.role));

describe("loadSession: validation", () => {
	it("skips a message whose content is a string where a list is required, naming file and line, instead of crashing", () => {
		const a = entry({ type: "message", message: user("hi") }, null);
		const bad = entry({ type: "message", message: { ...assistant("x"), content: "a string" } }, a.id);
		const c = entry({ type: "message", message: assistant("fine") }, bad.id);
		const path = write("s.jsonl", [header(), a, bad, c]);
		const loaded = loadSession(path);
		expect(texts(loaded.messages)).toEqual(["hi", "fine"]);
		expect(loaded.warnings).toHaveLength(1);
		expect(loaded.warnings[0]).toBe(`${path}: skipped line 3: assistant message: "message.content" must be array`);
	});

	it("reports each kind of bad line once, and a summary after ten", () => {
		const a = entry({ type: "message", message: user("hi") }, null);
		const lines: unknown[] = [header(), a, "not json", "[1,2]", { type: "wat", id: "z", parentId: null, timestamp: "t" }];
		lines.push(entry({ type: "message", message: { role: "robot" } }, a.id));
		lines.push(entry({ type: "thinking_level_change", thinkingLevel: "max" }, a.id));
		for (let i = 0; i < 10; i++) lines.push(`{"torn": ${i}`);
		const loaded = loadSession(write("s.jsonl", lines));
		expect(loaded.messages).toHaveLength(1);
		expect(loaded.warnings).toHaveLength(11);
		expect(loaded.warnings[0]).toMatch(/line 3: not valid JSON$/);
		expect(loaded.warnings[1]).toMatch(/line 4: not an entry/);
		expect(loaded.warnings[2]).toMatch(/line 5: unknown entry type "wat"/);
		expect(loaded.warnings[3]).toMatch(/line 6: unknown message role "robot"/);
		expect(loaded.warnings[4]).toMatch(/line 7: thinking_level_change entry: "thinkingLevel"/);
		expect(loaded.warnings[10]).toMatch(/: 5 more bad lines skipped$/);
	});

	it("tolerates a byte-order mark on the header line, in loading and in listing", () => {
		const a = entry({ type: "message", message: user("with bom") }, null);
		const path = join(root, "bom.jsonl");
		writeFileSync(path, `\uFEFF${JSON.stringify(header())}\n${JSON.stringify(a)}\n`);
		expect(readFileSync(path).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
		const loaded = loadSession(path);
		expect(loaded.header.id).toBe(header().id);
		expect(loaded.warnings).toEqual([]);
		expect(readSessionInfo(path)).toMatchObject({ id: header().id, messageCount: 1, firstMessage: "with bom" });
	});

	it("skips a line over the size limit without joining it, and keeps the lines around it", () => {
		const a = entry({ type: "message", message: user("before") }, null);
		const huge = entry({ type: "message", message: user("x".repeat(5 * 1024 * 1024)) }, a.id);
		const c = entry({ type: "message", message: user("after") }, huge.id);
		const path = write("huge.jsonl", [header(), a, huge, c]);
		const limit = { maxLineBytes: 1024 * 1024 };
		const lines = [...readLines(path, limit)];
		expect(lines[2]).toEqual({ lineNo: 3, tooLong: JSON.stringify(huge).length, last: false });
		expect("bytes" in lines[2]).toBe(false);
		const loaded = loadSession(path, limit);
		expect(texts(loaded.messages)).toEqual(["before", "after"]);
		expect(loaded.warnings).toEqual([`${path}: skipped line 3: 5.0 MB, over the limit for one entry`]);
		expect(readSessionInfo(path, limit)).toMatchObject({ messageCount: 2, firstMessage: "before" });
	});
});

describe("loadSession: the tree", () => {
	it("loads the branch that ends at the last entry, leaving the other branch out", () => {
		const a = entry({ type: "message", message: user("q") }, null);
		const b1 = entry({ type: "message", message: assistant("first answer") }, a.id);
		const b2 = entry({ type: "message", message: assistant("second answer") }, a.id);
		const c = entry({ type: "message", message: user("go on") }, b2.id);
		const loaded = loadSession(write("tree.jsonl", [header(), a, b1, b2, c]));
		expect(texts(loaded.messages)).toEqual(["q", "second answer", "go on"]);
		expect(loaded.entries).toHaveLength(4);
		expect(loaded.leafId).toBe(c.id);
	});

	it("a skipped parent does not cut off the history before it", () => {
		const a = entry({ type: "message", message: user("one") }, null);
		const b = entry({ type: "message", message: { ...assistant("x"), usage: "none" } }, a.id);
		const c = entry({ type: "message", message: user("three") }, b.id);
		const loaded = loadSession(write("gap.jsonl", [header(), a, b, c]));
		expect(texts(loaded.messages)).toEqual(["one", "three"]);
		expect(loaded.warnings).toHaveLength(1);
	});

	it("loads a version 1 file (no ids) as one branch and appends to it as children of its last line", () => {
		const path = write("v1.jsonl", [
			header("aaaaaaaa-0000-0000-0000-000000000000", 1),
			{ type: "message", message: user("a") },
			{ type: "message", message: assistant("b") },
			{ type: "thinking_level_change", level: "high" },
			{ type: "message", message: user("c") },
			{ type: "compaction", summary: "S", firstKeptIndex: 2, tokensBefore: 9, timestamp: 5 },
			{ type: "message", message: assistant("d") },
		]);
		const loaded = loadSession(path);
		expect(loaded.warnings).toEqual([]);
		expect(texts(loaded.messages)).toEqual(["compactionSummary", "c", "d"]);
		expect(loaded.thinkingLevel).toBe("high");
		expect(loaded.leafId).toBe("L7");
		const log = SessionLog.open(loaded);
		log.adopt(loaded.messages, loaded);
		log.syncMessages([...loaded.messages, user("e")]);
		log.close();
		const last = JSON.parse(readFileSync(path, "utf8").trimEnd().split("\n").at(-1) as string);
		expect(last).toMatchObject({ type: "message", parentId: "L7", id: expect.stringMatching(/^[0-9a-f]{8}$/) });
		expect(texts(loadSession(path).messages)).toEqual(["compactionSummary", "c", "d", "e"]);
	});

	it("throws one line for a header that is not valid", () => {
		const path = write("bad-header.jsonl", [{ type: "session", id: 5 }]);
		expect(() => loadSession(path)).toThrow(/^Not a session file \(bad header on line 1: .*\): .*bad-header\.jsonl$/);
	});
});

describe("-c continues the session used last in this folder", () => {
	let fx: Fixture;
	afterEach(async () => fx?.cleanup());

	it("one opened later wins over one written later, and a marker naming a missing file falls back to the newest", async () => {
		fx = await createFixture();
		fx.faux.setResponses(["a", "b"].map((t) => fauxAssistantMessage(t)));
		await fx.session.prompt("older session");
		const older = fx.session.getState().sessionFile as string;
		await fx.session.dispose();
		const second = await fx.open();
		await second.prompt("newer session");
		const newer = second.getState().sessionFile as string;
		await second.dispose();
		// The older one is opened again (resumed, looked at, nothing sent) after the newer one was written.
		const reopened = await fx.open({ sessionMode: { kind: "file", path: older } });
		await reopened.dispose();
		expect(latestSession(fx.cwd, fx.env)?.path).toBe(newer);
		const continued = await fx.open({ sessionMode: { kind: "continue" } });
		expect(continued.getState().sessionFile).toBe(older);
		await continued.dispose();

		rmSync(older);
		const fallback = await fx.open({ sessionMode: { kind: "continue" } });
		expect(fallback.getState().sessionFile).toBe(newer);
	});
});

describe("-c with a bad session file", () => {
	let fx: Fixture;
	afterEach(async () => fx?.cleanup());

	it("continues the newest session that loads, and reports the bad line of it", async () => {
		fx = await createFixture();
		fx.faux.setResponses([fauxAssistantMessage("answer")]);
		await fx.session.prompt("good session");
		const good = fx.session.getState().sessionFile as string;
		await fx.session.dispose();
		// Newer files: one with a broken header (not listed), one with a line the schema refuses.
		const dir = sessionsDir(fx.cwd, fx.env);
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, "9999-broken.jsonl"), '{"type":"session","id":\n');
		const lines = readFileSync(good, "utf8").trimEnd().split("\n");
		const bad = JSON.parse(lines[2]);
		bad.message.content = "a string";
		writeFileSync(good, `${[...lines.slice(0, 2), JSON.stringify(bad), ...lines.slice(3)].join("\n")}\n`);
		expect(latestSession(fx.cwd, fx.env)?.path).toBe(good);
		const resumed = await fx.open({ sessionMode: { kind: "continue" } });
		expect(resumed.getState().sessionFile).toBe(good);
		expect(resumed.getState().messages.map((m) => m.role)).toEqual(["user"]);
		const warning = await fx.waitForEvent("notice", (e) => e.level === "warning");
		expect(warning.text).toBe(`${good}: skipped line 3: assistant message: "message.content" must be array`);
	});
});
