// How a prompt turn ended, from the run's last assistant message: the ACP stop reason, or the error
// the `session/prompt` request fails with. A provider's content filter or refusal is a refusal, not an
// error (the providers report it as an error whose message says so; see src/ai/providers).
import type { StopReason } from "@agentclientprotocol/sdk";
import type { AgentMessage } from "../../agent/types.js";
import type { AssistantMessage } from "../../ai/types.js";

export type TurnEnd = { stopReason: StopReason } | { error: string };

/** The providers' messages for a refusal or a blocked reply (anthropic, openai-completions, openai-responses). */
const REFUSAL = /content filter|refused to answer|\brefusal\b/i;

/** `cancelled` wins: after session/cancel the turn is cancelled whatever the provider said last. */
export function turnEnd(newMessages: readonly AgentMessage[], cancelled: boolean): TurnEnd {
	if (cancelled) return { stopReason: "cancelled" };
	const last = [...newMessages].reverse().find((m): m is AssistantMessage => (m as { role?: string }).role === "assistant");
	if (!last) return { stopReason: "end_turn" };
	switch (last.stopReason) {
		case "aborted":
			return { stopReason: "cancelled" };
		case "length":
			return { stopReason: "max_tokens" };
		case "error": {
			const message = last.errorMessage ?? "the model request failed";
			return REFUSAL.test(message) ? { stopReason: "refusal" } : { error: message };
		}
		default:
			return { stopReason: "end_turn" };
	}
}
