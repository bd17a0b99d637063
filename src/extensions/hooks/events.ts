// What differs between events, as a table: what a matcher is matched against, what an exit code 2
// does, and whether plain stdout is context for the model. Claude Code's documented behaviour.
import type { HookEvent } from "./types.js";

/**
 * Exit code 2 (or `decision: "block"`):
 * - `refuse-call`: the tool call is not run; the reason goes to the model as its result.
 * - `to-model`: the tool already ran; the reason goes to the model beside its result.
 * - `drop-prompt`: the prompt is not sent; the user sees the reason.
 * - `keep-going`: the run does not stop; the reason is the model's next instruction.
 * - `show-user`: nothing is blocked; the user sees the reason.
 */
export type BlockEffect = "refuse-call" | "to-model" | "drop-prompt" | "keep-going" | "show-user";

export interface EventFacts {
	/** What the matcher is tested against; undefined: the event has no matcher (every hook runs). */
	matches?: "tool" | "source" | "reason" | "trigger" | "agent type" | "notification type";
	block: BlockEffect;
	/** Exit 0 with stdout that is not JSON: the model gets it as context (Claude Code does so for these two). */
	stdoutIsContext: boolean;
}

export const EVENT_FACTS: Readonly<Record<HookEvent, EventFacts>> = Object.freeze({
	PreToolUse: { matches: "tool", block: "refuse-call", stdoutIsContext: false },
	PostToolUse: { matches: "tool", block: "to-model", stdoutIsContext: false },
	UserPromptSubmit: { block: "drop-prompt", stdoutIsContext: true },
	Stop: { block: "keep-going", stdoutIsContext: false },
	SubagentStop: { matches: "agent type", block: "keep-going", stdoutIsContext: false },
	SessionStart: { matches: "source", block: "show-user", stdoutIsContext: true },
	SessionEnd: { matches: "reason", block: "show-user", stdoutIsContext: false },
	PreCompact: { matches: "trigger", block: "show-user", stdoutIsContext: false },
	Notification: { matches: "notification type", block: "show-user", stdoutIsContext: false },
});

/** True for a name of EVENT_FACTS's own (so "constructor" or "__proto__" is no event). */
export function isHookEvent(name: string): name is HookEvent {
	return Object.hasOwn(EVENT_FACTS, name);
}
