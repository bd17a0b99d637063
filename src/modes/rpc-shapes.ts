// Pure mappings from the session's state and events to the shapes of pi's RPC protocol (0.73.1): the
// state, the session stats, the fork list, the compaction result and the event lines. Our own fields
// stay on each object as additions; pi's clients ignore fields they do not know.
import type { AgentMessage } from "../agent/types.js";
import { messageText } from "../session/session-messages.js";
import type { SessionEvent, SessionState } from "../session/types.js";
import { toJsonEvent, toJsonState } from "./json.js";

export type QueueMode = "all" | "one-at-a-time";

/** What pi's `get_state` has that the session state does not say by itself. */
export interface RpcStateExtras {
	steeringMode: QueueMode;
	followUpMode: QueueMode;
	autoCompactionEnabled: boolean;
}

/** pi's RpcSessionState, plus our fields (cwd, totals, context use, queues, pendingToolCalls). */
export function toRpcState(state: SessionState, extras: RpcStateExtras): object {
	return {
		...toJsonState(state),
		pendingMessageCount: state.steering.length + state.followUp.length,
		steeringMode: extras.steeringMode,
		followUpMode: extras.followUpMode,
		autoCompactionEnabled: extras.autoCompactionEnabled,
	};
}

/** pi's SessionStats over the current transcript and the session's totals. */
export function sessionStats(state: SessionState): object {
	let userMessages = 0;
	let assistantMessages = 0;
	let toolCalls = 0;
	let toolResults = 0;
	for (const m of state.messages) {
		if (m.role === "user") userMessages++;
		else if (m.role === "assistant") {
			assistantMessages++;
			toolCalls += m.content.filter((c) => c.type === "toolCall").length;
		} else if (m.role === "toolResult") toolResults++;
	}
	const t = state.totals;
	const contextTokens = state.contextTokens > 0 ? state.contextTokens : null;
	return {
		...(state.sessionFile !== undefined ? { sessionFile: state.sessionFile } : {}),
		sessionId: state.sessionId,
		userMessages,
		assistantMessages,
		toolCalls,
		toolResults,
		totalMessages: state.messages.length,
		tokens: {
			input: t.input,
			output: t.output,
			cacheRead: t.cacheRead,
			cacheWrite: t.cacheWrite,
			total: t.input + t.output + t.cacheRead + t.cacheWrite,
		},
		cost: t.cost,
		...(state.contextWindow > 0
			? {
					contextUsage: {
						tokens: contextTokens,
						contextWindow: state.contextWindow,
						percent: contextTokens === null ? null : Math.round((contextTokens / state.contextWindow) * 1000) / 10,
					},
				}
			: {}),
	};
}

/** The last assistant message's text, or null when there is none (pi's get_last_assistant_text). */
export function lastAssistantText(messages: readonly AgentMessage[]): string | null {
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i];
		if (m.role === "assistant") {
			const text = messageText(m);
			if (text || m.stopReason !== "aborted") return text;
		}
	}
	return null;
}

export interface CompactionResult {
	summary: string;
	firstKeptEntryId?: string;
	tokensBefore: number;
	details: Record<string, never>;
}

/** pi's compaction_end (`result`, `aborted`, `willRetry`, `errorMessage`), keeping our summary/error. */
export function rpcCompactionEnd(event: Extract<SessionEvent, { type: "compaction_end" }>, result: CompactionResult | null): object {
	const failed = result === null;
	const aborted = failed && /abort/i.test(event.error ?? "");
	return {
		...event,
		result,
		aborted,
		willRetry: !failed && event.reason === "overflow",
		...(failed && !aborted ? { errorMessage: event.error ?? "compaction failed" } : {}),
	};
}

/**
 * The line for one event. `message_update` is trimmed to its delta by default, so a line costs
 * O(token), not O(message so far); with `fullUpdates` it carries `message` and the event's `partial`
 * as pi sends them.
 */
export function rpcEventLine(event: SessionEvent, fullUpdates: boolean): object {
	return fullUpdates ? event : toJsonEvent(event);
}
