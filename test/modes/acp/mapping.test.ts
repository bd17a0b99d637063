// The pure parts of acp mode: tool calls as ACP sees them, permission options and answers, stop
// reasons, prompt content, and a transcript replayed as updates.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../src/agent/types.js";
import { approvalResponseOf, isPermissionMode, permissionOptions, SESSION_MODES } from "../../../src/modes/acp/permission-options.js";
import { promptInput } from "../../../src/modes/acp/prompt-content.js";
import { replayUpdates, UpdateMapper } from "../../../src/modes/acp/session-updates.js";
import { turnEnd } from "../../../src/modes/acp/stop-reason.js";
import { toolCallView } from "../../../src/modes/acp/tool-calls.js";
import type { SessionEvent } from "../../../src/session/types.js";

const dirs: string[] = [];
const tempDir = () => {
	const dir = mkdtempSync(join(tmpdir(), "rudder-acp-"));
	dirs.push(dir);
	return dir;
};
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const assistant = (stopReason: string, errorMessage?: string) =>
	({ role: "assistant", content: [], stopReason, ...(errorMessage ? { errorMessage } : {}) }) as unknown as AgentMessage;

describe("toolCallView", () => {
	it("kinds, titles and locations of the built-in tools; other tools are 'other'", () => {
		const cwd = "/work/p";
		expect(toolCallView("read", { path: "src/a.ts", offset: 40 }, cwd)).toMatchObject({
			kind: "read",
			title: "Read src/a.ts",
			locations: [{ path: "/work/p/src/a.ts", line: 40 }],
		});
		expect(toolCallView("bash", { command: "npm test\n  --watch" }, cwd)).toMatchObject({
			kind: "execute",
			title: "Run npm test --watch",
			locations: [],
		});
		expect(toolCallView("grep", { pattern: "TODO", path: "src" }, cwd)).toMatchObject({
			kind: "search",
			title: 'Search for "TODO" in src',
		});
		expect(toolCallView("mcp__docs__search", { q: 1 }, cwd)).toMatchObject({ kind: "other", title: "mcp__docs__search" });
		expect(toolCallView("bash", { command: "x".repeat(500) }, cwd).title.length).toBe(120);
	});

	it("edit and write carry diff content from the file as it is now (oldText null for a new file)", () => {
		const cwd = tempDir();
		writeFileSync(join(cwd, "a.txt"), "one\ntwo\n");
		expect(toolCallView("edit", { path: "a.txt", edits: [{ oldText: "two", newText: "three" }] }, cwd).content).toEqual([
			{ type: "diff", path: join(cwd, "a.txt"), oldText: "one\ntwo\n", newText: "one\nthree\n" },
		]);
		expect(toolCallView("write", { path: "new.txt", content: "hi\r\n" }, cwd).content).toEqual([
			{ type: "diff", path: join(cwd, "new.txt"), oldText: null, newText: "hi\n" },
		]);
		// An edit whose text is not in the file has no diff to show (the call fails and says why).
		expect(toolCallView("edit", { path: "a.txt", edits: [{ oldText: "nope", newText: "x" }] }, cwd).content).toEqual([]);
	});
});

describe("permission options", () => {
	it("allow once / always (a session rule) / reject map to Rudder's decisions; cancelled and unknown ids deny", () => {
		const options = permissionOptions({ kind: "call" });
		const pick = (optionId: string) => approvalResponseOf({ outcome: "selected", optionId }, options);
		expect(pick("allow_once")).toEqual({ decision: "allow" });
		expect(pick("allow_always")).toEqual({ decision: "always", scope: "session" });
		expect(pick("reject_once")).toEqual({ decision: "deny" });
		expect(pick("allow_network")).toEqual({ decision: "deny" });
		expect(pick("made_up")).toEqual({ decision: "deny" });
		expect(approvalResponseOf({ outcome: "cancelled" }, options).decision).toBe("deny");
	});

	it("a command that failed in the sandbox offers outside, inside with network, or reject (no always)", () => {
		const options = permissionOptions({ kind: "unsandboxed" });
		expect(options.map((o) => o.optionId)).toEqual(["allow_once", "allow_network", "reject_once"]);
		expect(approvalResponseOf({ outcome: "selected", optionId: "allow_network" }, options)).toEqual({ decision: "allow", network: true });
	});

	it("the permission modes are the session modes", () => {
		expect(SESSION_MODES.map((m) => m.id)).toEqual(["ask", "auto-edit", "plan", "yolo"]);
		expect(isPermissionMode("plan")).toBe(true);
		expect(isPermissionMode("__proto__")).toBe(false);
	});
});

describe("turnEnd", () => {
	it("maps the run's last assistant message to a stop reason; cancel wins; other errors fail the request", () => {
		expect(turnEnd([assistant("stop")], false)).toEqual({ stopReason: "end_turn" });
		expect(turnEnd([assistant("toolUse"), assistant("stop")], false)).toEqual({ stopReason: "end_turn" });
		expect(turnEnd([assistant("length")], false)).toEqual({ stopReason: "max_tokens" });
		expect(turnEnd([assistant("aborted")], false)).toEqual({ stopReason: "cancelled" });
		expect(turnEnd([assistant("error", "mock: the reply was blocked by the content filter")], false)).toEqual({ stopReason: "refusal" });
		expect(turnEnd([assistant("error", "anthropic: the model refused to answer (stop_reason: refusal)")], false)).toEqual({
			stopReason: "refusal",
		});
		expect(turnEnd([assistant("error", "mock HTTP 500: down")], false)).toEqual({ error: "mock HTTP 500: down" });
		expect(turnEnd([assistant("error", "mock HTTP 500: down")], true)).toEqual({ stopReason: "cancelled" });
		// A command (/help) makes no model call.
		expect(turnEnd([], false)).toEqual({ stopReason: "end_turn" });
	});
});

describe("promptInput", () => {
	it("text as typed, images as images, embedded resources in a context block, file links as @mentions", () => {
		const input = promptInput([
			{ type: "text", text: "look at" },
			{ type: "resource_link", uri: "file:///work/p/a.ts", name: "a.ts" },
			{ type: "resource", resource: { uri: "file:///work/p/b.ts", text: "const b = 1;" } },
			{ type: "image", data: "aGk=", mimeType: "image/png" },
		]);
		expect(input.text).toBe('look at\n@/work/p/a.ts\n<context ref="file:///work/p/b.ts">\nconst b = 1;\n</context>');
		expect(input.images).toEqual([{ type: "image", data: "aGk=", mimeType: "image/png" }]);
	});
});

describe("session updates", () => {
	it("the turn's own prompt is not echoed; later user messages (steers) are", () => {
		const mapper = new UpdateMapper("/p");
		const user = (text: string): SessionEvent => ({
			type: "message_start",
			message: { role: "user", content: [{ type: "text", text }], timestamp: 0 },
		});
		mapper.turnStarted();
		expect(mapper.updatesFor(user("the prompt"))).toEqual([]);
		expect(mapper.updatesFor(user("a steer"))).toEqual([
			{ sessionUpdate: "user_message_chunk", content: { type: "text", text: "a steer" } },
		]);
	});

	it("a finished edit keeps its diff beside the result (an update's content replaces the call's)", () => {
		const cwd = tempDir();
		writeFileSync(join(cwd, "a.txt"), "x\n");
		const mapper = new UpdateMapper(cwd);
		const toolCall = {
			type: "toolCall" as const,
			id: "c1",
			name: "edit",
			arguments: { path: "a.txt", edits: [{ oldText: "x", newText: "y" }] },
		};
		const [announced] = mapper.updatesFor({
			type: "message_update",
			message: {} as never,
			assistantMessageEvent: { type: "toolcall_end", contentIndex: 0, toolCall, partial: {} as never },
		});
		expect(announced).toMatchObject({ sessionUpdate: "tool_call", toolCallId: "c1", status: "pending", kind: "edit" });
		const [end] = mapper.updatesFor({
			type: "tool_execution_end",
			toolCallId: "c1",
			toolName: "edit",
			result: { content: [{ type: "text", text: "Applied 1 edit to a.txt" }], details: {} },
			isError: false,
		});
		expect(end).toEqual({
			sessionUpdate: "tool_call_update",
			toolCallId: "c1",
			status: "completed",
			content: [
				{ type: "diff", path: join(cwd, "a.txt"), oldText: "x\n", newText: "y\n" },
				{ type: "content", content: { type: "text", text: "Applied 1 edit to a.txt" } },
			],
		});
	});

	it("a failed edit changed nothing: its end shows the error without the diff", () => {
		const cwd = tempDir();
		writeFileSync(join(cwd, "a.txt"), "x\n");
		const mapper = new UpdateMapper(cwd);
		mapper.updatesFor({ type: "tool_execution_start", toolCallId: "c2", toolName: "write", args: { path: "a.txt", content: "y" } });
		const [end] = mapper.updatesFor({
			type: "tool_execution_end",
			toolCallId: "c2",
			toolName: "write",
			result: { content: [{ type: "text", text: "Cannot write a.txt: read it first" }], details: {} },
			isError: true,
		});
		expect(end).toMatchObject({ status: "failed", content: [{ type: "content", content: { text: "Cannot write a.txt: read it first" } }] });
	});

	it("replays a transcript: thinking, text, and tool calls with their results (an interrupted call failed)", () => {
		const messages = [
			{ role: "user", content: "hi", timestamp: 0 },
			{
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "hmm" },
					{ type: "text", text: "let me look" },
					{ type: "toolCall", id: "t1", name: "ls", arguments: {} },
					{ type: "toolCall", id: "t2", name: "bash", arguments: { command: "sleep 100" } },
				],
			},
			{ role: "toolResult", toolCallId: "t1", toolName: "ls", content: [{ type: "text", text: "a.txt" }], isError: false, timestamp: 0 },
		] as unknown as AgentMessage[];
		const updates = replayUpdates(messages, "/p");
		expect(updates.map((u) => u.sessionUpdate)).toEqual([
			"user_message_chunk",
			"agent_thought_chunk",
			"agent_message_chunk",
			"tool_call",
			"tool_call",
		]);
		expect(updates[3]).toMatchObject({ toolCallId: "t1", kind: "search", status: "completed" });
		expect(updates[4]).toMatchObject({ toolCallId: "t2", kind: "execute", status: "failed" });
	});
});
