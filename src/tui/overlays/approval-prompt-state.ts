// The approval prompt's keys → what the user answered, as a pure function (tested without a terminal).
// y allow once · a always (this session) · p always (this project) · n deny, then an optional reason ·
// ↑/↓ and Enter pick · Esc denies and stops the run.
import type { ApprovalRequest, ApprovalResponse } from "../../session/types.js";
import type { KeyPress } from "../keys/key-map.js";

export interface ApprovalChoice {
	key: string;
	label: string;
	response: ApprovalResponse;
}

const CALL_CHOICES: readonly ApprovalChoice[] = [
	{ key: "y", label: "Allow once", response: { decision: "allow" } },
	{ key: "a", label: "Always allow this in this session", response: { decision: "always", scope: "session" } },
	{ key: "p", label: "Always allow this in this project", response: { decision: "always", scope: "project" } },
	{ key: "n", label: "Deny, and tell the model why", response: { decision: "deny" } },
];

/** Running outside the sandbox is granted once at a time: no rule is ever made for it. */
const UNSANDBOXED_CHOICES: readonly ApprovalChoice[] = [
	{ key: "y", label: "Run it outside the sandbox, once", response: { decision: "allow" } },
	{ key: "w", label: "Run it again in the sandbox with network, once", response: { decision: "allow", network: true } },
	{ key: "n", label: "Do not, and tell the model why", response: { decision: "deny" } },
];

export function choicesFor(request: Pick<ApprovalRequest, "kind">): readonly ApprovalChoice[] {
	return request.kind === "unsandboxed" ? UNSANDBOXED_CHOICES : CALL_CHOICES;
}

export interface ApprovalPromptState {
	/** The request this state belongs to; a new request starts fresh. */
	id: string;
	selected: number;
	/** Set after "deny": the reason being typed. */
	reason?: string;
}

export const initialApprovalState = (id: string): ApprovalPromptState => ({ id, selected: 0 });

export type ApprovalOutcome =
	| { type: "none" }
	| { type: "answer"; response: ApprovalResponse }
	/** Esc: deny this call and stop the run. */
	| { type: "stop" };

/** The key table's approval actions (src/tui/keys/keybindings.ts), as the keys this prompt reads. */
const ACTION_KEYS: Record<string, KeyPress> = {
	approvalAllow: press("char", "y"),
	approvalAlways: press("char", "a"),
	approvalAlwaysProject: press("char", "p"),
	approvalDeny: press("char", "n"),
	approvalUp: press("up"),
	approvalDown: press("down"),
	approvalSelect: press("return"),
	approvalDenyAndStop: press("escape"),
};

function press(name: string, text = ""): KeyPress {
	return { name, text, ctrl: false, meta: false, shift: false };
}

/**
 * One key on the prompt. `action` is what the key table made of it (rebindable); while a reason is
 * being typed the key itself counts (Enter sends, Esc stops), so any letter can be typed.
 */
export function approvalKey(
	state: ApprovalPromptState,
	pressed: KeyPress,
	request: Pick<ApprovalRequest, "kind">,
	action?: string,
): { state: ApprovalPromptState; outcome: ApprovalOutcome } {
	const none = { type: "none" } as const;
	// Keys the table has no action for (w: run again with network) are read as pressed.
	const key = state.reason === undefined && action !== undefined ? (ACTION_KEYS[action] ?? pressed) : pressed;
	if (key.name === "escape") return { state, outcome: { type: "stop" } };
	if (state.reason !== undefined) {
		if (key.name === "return") {
			const reason = state.reason.trim();
			return { state, outcome: { type: "answer", response: reason ? { decision: "deny", reason } : { decision: "deny" } } };
		}
		if (key.name === "backspace") return { state: { ...state, reason: state.reason.slice(0, -1) }, outcome: none };
		if (key.name === "char" && !key.ctrl && !key.meta)
			return { state: { ...state, reason: state.reason + key.text.replace(/[\r\n]/g, " ") }, outcome: none };
		return { state, outcome: none };
	}
	const choices = choicesFor(request);
	const pick = (choice: ApprovalChoice | undefined) => {
		if (!choice) return { state, outcome: none };
		if (choice.response.decision === "deny") return { state: { ...state, reason: "" }, outcome: none };
		return { state, outcome: { type: "answer", response: choice.response } as const };
	};
	if (key.name === "up") return { state: { ...state, selected: (state.selected + choices.length - 1) % choices.length }, outcome: none };
	if (key.name === "down") return { state: { ...state, selected: (state.selected + 1) % choices.length }, outcome: none };
	if (key.name === "return") return pick(choices[state.selected]);
	if (key.name === "char" && !key.ctrl && !key.meta) return pick(choices.find((c) => c.key === key.text.toLowerCase()));
	return { state, outcome: none };
}
