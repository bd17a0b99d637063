// The pure pi-protocol shapes: session stats, last assistant text, compaction_end and event lines.
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../src/agent/types.js";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../../src/ai/index.js";
import {
	createRetryEvents,
	lastAssistantText,
	rpcCompactionEnd,
	rpcEventLine,
	sessionStats,
	toRpcState,
} from "../../../src/modes/rpc/shapes.js";
import type { SessionState } from "../../../src/session/types.js";

const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 0 });

function state(messages: AgentMessage[], extra: Partial<SessionState> = {}): SessionState {
	return {
		cwd: "/p",
		model: {
			id: "m",
			name: "m",
			api: "x",
			provider: "p",
			baseUrl: "",
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 1000,
			maxTokens: 10,
			headers: { Authorization: "Bearer sk-secret" },
		},
		thinkingLevel: "off",
		messages,
		phase: { kind: "idle" },
		isStreaming: false,
		pendingToolCalls: new Set(["c1"]),
		steering: ["a"],
		followUp: ["b", "c"],
		totals: { input: 10, output: 5, cacheRead: 2, cacheWrite: 1, cost: 0.5 },
		contextTokens: 250,
		contextWindow: 1000,
		sessionId: "sid",
		isCompacting: false,
		...extra,
	};
}

describe("rpc shapes", () => {
	it("counts messages, tool calls and tokens, and gives context use in percent", () => {
		const messages = [
			user("go"),
			fauxAssistantMessage([fauxText("x"), fauxToolCall("ls", {}, { id: "1" }), fauxToolCall("ls", {}, { id: "2" })]),
			{ role: "toolResult", toolCallId: "1", toolName: "ls", content: [], isError: false, timestamp: 0 },
			fauxAssistantMessage("done"),
		] as AgentMessage[];
		expect(sessionStats(state(messages))).toEqual({
			sessionId: "sid",
			userMessages: 1,
			assistantMessages: 2,
			toolCalls: 2,
			toolResults: 1,
			totalMessages: 4,
			tokens: { input: 10, output: 5, cacheRead: 2, cacheWrite: 1, total: 18 },
			cost: 0.5,
			contextUsage: { tokens: 250, contextWindow: 1000, percent: 25 },
		});
		// Right after a compaction there is no measured use yet: null, as pi reports it.
		expect(sessionStats(state([], { contextTokens: 0 }))).toMatchObject({ contextUsage: { tokens: null, percent: null } });
	});

	it("state: pi's fields, queue count, masked model headers, sets as arrays", () => {
		const s = toRpcState(state([user("a")]), { steeringMode: "all", followUpMode: "one-at-a-time", autoCompactionEnabled: false }) as any;
		expect(s).toMatchObject({
			messageCount: 1,
			pendingMessageCount: 3,
			steeringMode: "all",
			autoCompactionEnabled: false,
			pendingToolCalls: ["c1"],
		});
		expect(JSON.stringify(s)).not.toContain("sk-secret");
		expect("sessionName" in s).toBe(false);
		expect(
			toRpcState(state([], { sessionName: "n" }), { steeringMode: "all", followUpMode: "all", autoCompactionEnabled: true }),
		).toMatchObject({ sessionName: "n" });
	});

	it("last assistant text skips an aborted empty reply and is null without one", () => {
		expect(lastAssistantText([user("x")])).toBeNull();
		const aborted = fauxAssistantMessage([], { stopReason: "aborted" });
		expect(lastAssistantText([user("x"), fauxAssistantMessage("first"), aborted])).toBe("first");
	});

	it("compaction_end in pi's shape, keeping our fields", () => {
		const result = { summary: "S", tokensBefore: 9, details: {} };
		expect(rpcCompactionEnd({ type: "compaction_end", reason: "overflow", summary: "S" }, result)).toEqual({
			type: "compaction_end",
			reason: "overflow",
			summary: "S",
			result,
			aborted: false,
			willRetry: true,
		});
		expect(rpcCompactionEnd({ type: "compaction_end", reason: "manual", error: "quota exceeded" }, null)).toMatchObject({
			result: null,
			aborted: false,
			willRetry: false,
			errorMessage: "quota exceeded",
		});
		expect(rpcCompactionEnd({ type: "compaction_end", reason: "manual", error: "Request was aborted" }, null)).toMatchObject({
			aborted: true,
		});
	});

	it("message_update: the delta by default, pi's full form on request", () => {
		const partial = fauxAssistantMessage("He");
		const event = {
			type: "message_update" as const,
			message: partial,
			assistantMessageEvent: { type: "text_delta" as const, contentIndex: 0, delta: "e", partial },
		};
		expect(rpcEventLine(event, false)).toEqual({
			type: "message_update",
			assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "e" },
		});
		expect(rpcEventLine(event, true)).toBe(event);
	});

	it("retry events: start per wait with pi's counts, end on the retried reply or on idle", () => {
		const retry = createRetryEvents();
		const waiting = {
			type: "phase_changed" as const,
			phase: { kind: "retrying" as const, attempt: 2, maxAttempts: 4, delayMs: 1000, until: 0, reason: "503 server error" },
		};
		expect(retry({ type: "phase_changed", phase: { kind: "running" } })).toBeUndefined();
		expect(retry(waiting)).toEqual({
			type: "auto_retry_start",
			attempt: 1,
			maxAttempts: 3,
			delayMs: 1000,
			errorMessage: "503 server error",
		});
		expect(retry({ type: "message_end", message: fauxAssistantMessage("ok") })).toEqual({
			type: "auto_retry_end",
			success: true,
			attempt: 1,
		});
		expect(retry({ type: "message_end", message: fauxAssistantMessage("later") })).toBeUndefined();
		retry(waiting);
		const failed = fauxAssistantMessage([], { stopReason: "error", errorMessage: "503 again" });
		expect(retry({ type: "message_end", message: failed })).toEqual({
			type: "auto_retry_end",
			success: false,
			attempt: 1,
			finalError: "503 again",
		});
		retry(waiting);
		expect(retry({ type: "phase_changed", phase: { kind: "idle" } })).toMatchObject({ type: "auto_retry_end", success: false });
	});
});
