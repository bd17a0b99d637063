import { spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentMessage } from "../../src/agent/types.js";
import type { AssistantMessage, UserMessage } from "../../src/ai/index.js";
import { emptyUsage } from "../../src/ai/index.js";
import { loadSession, readSessionInfo, repairTranscript } from "../../src/session/session-load.js";
import { SessionLog } from "../../src/session/session-log.js";
import { cwdSlug, findSession, latestSession, listSessions, serializeRedacted, sessionsDir } from "../../src/session/session-store.js";
import { childBundle } from "../helpers/child-bundle.js";

let root: string;
let cwd: string;
let env: Record<string, string>;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "rudder-store-"));
	cwd = join(root, "proj");
	mkdirSync(cwd);
	env = { RUDDER_HOME: join(root, "home") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const user = (text: string): UserMessage => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
const assistant = (content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"] = "stop"): AssistantMessage => ({
	role: "assistant",
	content,
	api: "faux",
	provider: "faux",
	model: "faux-1",
	usage: emptyUsage(),
	stopReason,
	timestamp: 2,
});
const toolResult = (id: string): AgentMessage => ({
	role: "toolResult",
	toolCallId: id,
	toolName: "ls",
	content: [{ type: "text", text: "a\nb" }],
	isError: false,
	timestamp: 3,
});

describe("SessionLog and loadSession", () => {
	it("writes a header then one line per entry under the cwd's folder, and reads them back", () => {
		const writer = SessionLog.create({ cwd, env });
		expect(existsSync(writer.path)).toBe(false);
		writer.append({ type: "message", message: user("hi") });
		writer.append({ type: "model_change", provider: "p", modelId: "m" });
		writer.append({ type: "thinking_level_change", thinkingLevel: "high" });
		writer.append({ type: "message", message: assistant([{ type: "text", text: "hello" }]) });
		expect(writer.path.startsWith(join(root, "home", "data", "sessions", cwdSlug(cwd)))).toBe(true);
		expect(writer.path).toMatch(/\d{4}-\d\d-\d\dT[\d-]+Z_[0-9a-f-]{36}\.jsonl$/);
		const lines = readFileSync(writer.path, "utf8").trimEnd().split("\n");
		expect(lines).toHaveLength(5);
		expect(JSON.parse(lines[0])).toMatchObject({ type: "session", id: writer.header.id, cwd, version: 2 });
		// Each entry is a child of the one before it: one branch of the tree.
		const entries = lines.slice(1).map((l) => JSON.parse(l));
		expect(entries[0].parentId).toBeNull();
		for (let i = 1; i < entries.length; i++) expect(entries[i].parentId).toBe(entries[i - 1].id);
		for (const e of entries) expect(e.id).toMatch(/^[0-9a-f]{8}$/);
		const loaded = loadSession(writer.path);
		expect(loaded.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(loaded.model).toEqual({ provider: "p", modelId: "m" });
		expect(loaded.thinkingLevel).toBe("high");
		expect(loaded.entries).toHaveLength(4);
		expect(loaded.leafId).toBe(entries[3].id);
		expect(loaded.warnings).toEqual([]);
	});

	it("applies the last compaction: summary first, then the messages from firstKeptEntryId", () => {
		const writer = SessionLog.create({ cwd, env });
		const ids = ["a", "b", "c", "d"].map((t) => writer.append({ type: "message", message: user(t) }));
		writer.append({ type: "compaction", summary: "S1", firstKeptEntryId: ids[2], tokensBefore: 100 });
		writer.append({ type: "message", message: user("e") });
		const loaded = loadSession(writer.path);
		expect(loaded.messages.map((m) => (m.role === "compactionSummary" ? `summary:${m.summary}` : (m as UserMessage).content[0]))).toEqual([
			"summary:S1",
			{ type: "text", text: "c" },
			{ type: "text", text: "d" },
			{ type: "text", text: "e" },
		]);
		expect(loaded.messageEntryIds.slice(0, 3)).toEqual([undefined, ids[2], ids[3]]);
		expect(loaded.entries.filter((e) => e.type === "message")).toHaveLength(5);
	});

	it("skips a torn last line with a warning and appends the next entry on a fresh line", () => {
		const writer = SessionLog.create({ cwd, env });
		writer.append({ type: "message", message: user("kept") });
		appendFileSync(writer.path, '{"type":"message","message":{"role":"assistant","content":[{"type":"te');
		const loaded = loadSession(writer.path);
		expect(loaded.messages).toHaveLength(1);
		expect(loaded.warnings).toHaveLength(1);
		expect(loaded.warnings[0]).toMatch(/torn last line/);

		expect(() => SessionLog.open(loaded)).toThrow(/is open in another rudder \(pid \d+\).*--fork/);
		writer.close();
		const resumed = SessionLog.open(loaded);
		resumed.append({ type: "message", message: user("after crash") });
		const again = loadSession(writer.path);
		expect(again.messages.map((m) => (m as UserMessage).content[0])).toEqual([
			{ type: "text", text: "kept" },
			{ type: "text", text: "after crash" },
		]);
		expect(again.warnings[0]).toMatch(/line 3/);
	});

	it("throws one line for a file without a header", () => {
		const path = join(root, "x.jsonl");
		writeFileSync(path, '{"type":"message"}\n');
		expect(() => loadSession(path)).toThrow(/^Not a session file \(no header line\): /);
	});
});

describe("secrets", () => {
	it("never writes API keys, tokens or Authorization headers, by key name or by value", () => {
		const secret = "sk-test-1234567890abcdef";
		const writer = SessionLog.create({ cwd, env, secrets: () => [secret] });
		const leaky = {
			...assistant([
				{ type: "toolCall", id: "c1", name: "bash", arguments: { command: `curl -H 'x: ${secret}'`, apiKey: "k-abc-123456789" } },
			]),
			headers: { Authorization: "Bearer zzzzzzzzzzzz", "x-api-key": "yyyyyyyyyyyy" },
		} as AgentMessage;
		writer.append({ type: "message", message: leaky });
		writer.append({
			type: "message",
			message: { ...toolResult("c1"), content: [{ type: "text", text: `echo ${secret}` }] } as AgentMessage,
		});
		const text = readFileSync(writer.path, "utf8");
		for (const leaked of [secret, "k-abc-123456789", "Bearer", "zzzzzzzzzzzz", "yyyyyyyyyyyy", "apiKey", "Authorization"]) {
			expect(text).not.toContain(leaked);
		}
		expect(text).toContain("[redacted]");
		expect(serializeRedacted({ access_token: "t", refresh_token: "r", ok: 1 })).toBe('{"ok":1}');
	});
});

describe("repairTranscript (resume)", () => {
	it("adds an error result for each tool call that has none, right after the call's other results", () => {
		const messages: AgentMessage[] = [
			user("go"),
			assistant(
				[
					{ type: "toolCall", id: "a", name: "ls", arguments: {} },
					{ type: "toolCall", id: "b", name: "read", arguments: {} },
				],
				"aborted",
			),
			toolResult("a"),
			user("next"),
		];
		const repaired = repairTranscript(messages);
		expect(repaired.map((m) => (m.role === "toolResult" ? `result:${m.toolCallId}:${m.isError}` : m.role))).toEqual([
			"user",
			"assistant",
			"result:a:false",
			"result:b:true",
			"user",
		]);
		expect(repairTranscript(repaired)).toEqual(repaired);
	});

	it("answers the tool calls of a last assistant message left by a killed process", () => {
		const repaired = repairTranscript([user("go"), assistant([{ type: "toolCall", id: "z", name: "bash", arguments: {} }], "toolUse")]);
		expect(repaired.at(-1)).toMatchObject({ role: "toolResult", toolCallId: "z", toolName: "bash", isError: true });
	});
});

describe("listSessions / latestSession / findSession", () => {
	it("lists sessions newest first with their first message, and finds one by id prefix", async () => {
		const first = SessionLog.create({ cwd, env, id: "aaaa1111-0000-0000-0000-000000000000" });
		first.append({ type: "message", message: user("first task") });
		await new Promise((r) => setTimeout(r, 20));
		const second = SessionLog.create({ cwd, env, id: "bbbb2222-0000-0000-0000-000000000000" });
		second.append({ type: "message", message: user("second task") });
		second.append({ type: "message", message: assistant([{ type: "text", text: "ok" }]) });
		SessionLog.create({ cwd, env }); // never written: not listed
		const sessions = listSessions(cwd, env);
		expect(sessions.map((s) => [s.id.slice(0, 4), s.messageCount, s.firstMessage])).toEqual([
			["bbbb", 2, "second task"],
			["aaaa", 1, "first task"],
		]);
		expect(latestSession(cwd, env)?.path).toBe(second.path);
		expect(findSession(cwd, "aaaa", env).path).toBe(first.path);
		expect(() => findSession(cwd, "cccc", env)).toThrow(/No session of .* has an id starting with "cccc"/);
		expect(listSessions(join(root, "other"), env)).toEqual([]);
		expect(sessionsDir(cwd, env)).toContain(cwdSlug(cwd));
	});
});

describe("readSessionInfo", () => {
	it("counts what loadSession loads, without parsing past the first user message, torn lines and all", () => {
		const w = SessionLog.create({ cwd, env });
		w.append({ type: "model_change", provider: "faux", modelId: "faux-1" });
		w.append({ type: "message", message: assistant([{ type: "text", text: "greeting" }]) });
		w.append({ type: "message", message: user('first "real" task\nwith a newline') });
		for (let i = 0; i < 5; i++) {
			w.append({ type: "message", message: assistant([{ type: "text", text: `{"type":"message"} ${i}` }]) });
			w.append({ type: "message", message: toolResult(`t${i}`) });
		}
		w.append({ type: "compaction", summary: "s", firstKeptEntryId: "00000000", tokensBefore: 10 });
		// A crash mid-write left a torn line; the next writer ended it with a newline and went on.
		appendFileSync(w.path, '{"type":"message","message":{"role":"user","content":[{"type":"te');
		w.close();
		const reopened = SessionLog.open(loadSession(w.path));
		reopened.append({ type: "message", message: user("after the crash") });
		appendFileSync(w.path, '{"type":"message","message":{"role":"assistant","con');

		const loaded = loadSession(w.path);
		const info = readSessionInfo(w.path);
		const messageCount = loaded.entries.filter((e) => e.type === "message").length;
		expect(messageCount).toBe(13);
		expect(info).toMatchObject({
			id: loaded.header.id,
			messageCount,
			firstMessage: 'first "real" task\nwith a newline',
		});
		writeFileSync(join(root, "no-header.jsonl"), `${JSON.stringify({ type: "message", message: user("x") })}\n`);
		expect(readSessionInfo(join(root, "no-header.jsonl"))).toBeUndefined();
	});
});

describe("a writer killed with SIGKILL mid-stream", () => {
	const writerChild = childBundle(join(import.meta.dirname, "fixtures", "session-writer-child.ts"));

	it("leaves a loadable file holding every message that had ended", async () => {
		writeFileSync(join(cwd, "file.txt"), "x");
		const child = spawn(process.execPath, [writerChild.path(), cwd, env.RUDDER_HOME], {
			cwd: process.cwd(),
			stdio: ["ignore", "pipe", "pipe"],
		});
		const ended: string[] = [];
		let file = "";
		let stderr = "";
		child.stderr.on("data", (d) => {
			stderr += d;
		});
		const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
		await new Promise<void>((resolve, reject) => {
			let buffer = "";
			child.stdout.on("data", (chunk) => {
				buffer += chunk;
				let nl = buffer.indexOf("\n");
				while (nl >= 0) {
					const event = JSON.parse(buffer.slice(0, nl));
					buffer = buffer.slice(nl + 1);
					if (event.ended) {
						ended.push(event.ended);
						file = event.file;
					}
					if (event.streaming) {
						child.kill("SIGKILL");
						resolve();
					}
					nl = buffer.indexOf("\n");
				}
			});
			child.on("exit", () => reject(new Error(`child exited before streaming the third reply: ${stderr}`)));
		});
		expect(await exited).toBe("SIGKILL");
		expect(ended).toEqual(["user", "assistant", "toolResult", "assistant", "toolResult"]);
		const loaded = loadSession(file);
		expect(loaded.warnings).toEqual([]);
		expect(loaded.messages.map((m) => m.role)).toEqual(ended);
		expect(loaded.messages[2]).toMatchObject({ role: "toolResult", toolCallId: "call_a", isError: false });
		expect(loaded.messages[4]).toMatchObject({ role: "toolResult", toolCallId: "call_b" });
	}, 60_000);
});
