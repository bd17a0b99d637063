// Pure mappings from the session's state and events to the shapes of pi's RPC protocol (0.73.1): the
// state, the session stats, the fork list, the compaction result and the event lines. Our own fields
// stay on each object as additions; pi's clients ignore fields they do not know.
import type { AgentMessage } from "../../agent/types.js";
import { messageText } from "../../session/session-messages.js";
import type { SessionEvent, SessionState } from "../../session/types.js";
import { toJsonEvent, toJsonState } from "../json.js";

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

/**
 * pi's auto_retry_start / auto_retry_end, read from the run phase and the reply: `retrying` starts an
 * attempt's wait; the retried request's reply (its `message_end`) ends it, a success unless it failed
 * or was aborted (`abort_retry`); a run that goes idle first ends it as a failure. Returns the line for
 * `event`, if it is one of these.
 */
export function createRetryEvents(): (event: SessionEvent) => object | undefined {
	let attempt: number | undefined;
	const end = (success: boolean, finalError?: string) => {
		const line = { type: "auto_retry_end", success, attempt, ...(success ? {} : { finalError: finalError ?? "the retry was stopped" }) };
		attempt = undefined;
		return line;
	};
	return (event) => {
		if (event.type === "phase_changed" && event.phase.kind === "retrying") {
			const phase = event.phase;
			// Our phase counts requests (the first retry is attempt 2); pi counts retries.
			attempt = phase.attempt - 1;
			return { type: "auto_retry_start", attempt, maxAttempts: phase.maxAttempts - 1, delayMs: phase.delayMs, errorMessage: phase.reason };
		}
		if (attempt === undefined) return undefined;
		if (event.type === "message_end" && event.message.role === "assistant") {
			const failed = event.message.stopReason === "error" || event.message.stopReason === "aborted";
			return end(!failed, event.message.errorMessage);
		}
		if (event.type === "phase_changed" && event.phase.kind === "idle") return end(false);
		return undefined;
	};
}
