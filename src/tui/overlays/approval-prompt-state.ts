// The approval prompt's keys → what the user answered, as a pure function (tested without a terminal).
// ↑/↓ or a number move the highlight, Enter takes it: allow once; a lasting grant (session, project)
// after a second Enter on a confirmation that names the rule; deny, then an optional reason. Esc denies
// and stops the run. Letters never answer: typed text is handed back for the input.
import type { ApprovalRequest, ApprovalResponse } from "../../session/types.js";
import type { KeyPress } from "../keys/key-map.js";

export interface ApprovalChoice {
	label: string;
	response: ApprovalResponse;
}

// Choices are numbered by position (1, 2, …); no letter answers, so typed words cannot grant.
const CALL_CHOICES: readonly ApprovalChoice[] = [
	{ label: "Allow once", response: { decision: "allow" } },
	{ label: "Always allow this in this session", response: { decision: "always", scope: "session" } },
	{ label: "Always allow this in this project", response: { decision: "always", scope: "project" } },
	{ label: "Deny, and tell the model why", response: { decision: "deny" } },
];

/** Running outside the sandbox is granted once at a time: no rule is ever made for it. */
const UNSANDBOXED_CHOICES: readonly ApprovalChoice[] = [
	{ label: "Do not, and tell the model why", response: { decision: "deny" } },
	{ label: "Run it outside the sandbox, once", response: { decision: "allow" } },
	{ label: "Run it again in the sandbox with network, once", response: { decision: "allow", network: true } },
];

export function choicesFor(request: Pick<ApprovalRequest, "kind">): readonly ApprovalChoice[] {
	return request.kind === "unsandboxed" ? UNSANDBOXED_CHOICES : CALL_CHOICES;
}

/** The choice highlighted first: the safe one (deny, keep it inside the sandbox), wherever it sits. */
export function safeChoice(request: Pick<ApprovalRequest, "kind">): number {
	return choicesFor(request).findIndex((c) => c.response.decision === "deny");
}

/** Where a lasting grant is kept, as the confirmation names it. */
export const SCOPE_NAMES = { session: "for this session", project: "for this project" } as const;

export interface ApprovalPromptState {
	/** The request this state belongs to; a new request starts fresh. */
	id: string;
	selected: number;
	/** Set after "deny": the reason being typed. */
	reason?: string;
	/** Set after a lasting grant is picked: it waits for a second Enter (Esc goes back). */
	confirming?: number;
	/** Set while the whole text is shown in the pager: its first row. */
	pager?: number;
}

export const initialApprovalState = (id: string, request: Pick<ApprovalRequest, "kind">): ApprovalPromptState => ({
	id,
	selected: safeChoice(request),
});

export type ApprovalOutcome =
	| { type: "none" }
	| { type: "answer"; response: ApprovalResponse }
	/** Esc: deny this call and stop the run. */
	| { type: "stop" }
	/** Typed text, not an answer: it goes to the input, which keeps it for after the prompt. */
	| { type: "text"; text: string };

/** The pager's size: rows of the whole text and rows on one page (to keep the scroll inside them). */
export interface PagerSize {
	rows: number;
	page: number;
}

/**
 * What the prompt is in: the pager, the reason field, a confirmation, or the choices. The key table has
 * a context for the pager; the other three read the approval context.
 */
export function approvalKeyMode(state: ApprovalPromptState | undefined): "approval" | "pager" {
	return state?.pager !== undefined ? "pager" : "approval";
}

const isText = (key: KeyPress) => key.name === "char" && !key.ctrl && !key.meta;

/**
 * One key on the prompt. `action` is what the key table made of it (rebindable); while a reason is
 * being typed the key itself counts (Enter sends, Esc stops), so any letter can be typed. Text typed
 * anywhere else is never an answer: it comes back as `text` for the input.
 */
export function approvalKey(
	state: ApprovalPromptState,
	pressed: KeyPress,
	request: Pick<ApprovalRequest, "kind">,
	action?: string,
	pager: PagerSize = { rows: 0, page: 1 },
): { state: ApprovalPromptState; outcome: ApprovalOutcome } {
	const none = { type: "none" } as const;
	const stay = { state, outcome: none };
	if (state.pager !== undefined) {
		const last = Math.max(0, pager.rows - pager.page);
		const scroll = (by: number) => ({ state: { ...state, pager: Math.min(last, Math.max(0, state.pager! + by)) }, outcome: none });
		if (action === "pagerUp") return scroll(-1);
		if (action === "pagerDown") return scroll(1);
		if (action === "pagerPageUp") return scroll(-pager.page);
		if (action === "pagerPageDown") return scroll(pager.page);
		if (action === "pagerClose") return { state: { ...state, pager: undefined }, outcome: none };
		return stay;
	}
	if (state.reason !== undefined) {
		if (pressed.name === "escape") return { state, outcome: { type: "stop" } };
		if (pressed.name === "return") {
			const reason = state.reason.trim();
			return { state, outcome: { type: "answer", response: reason ? { decision: "deny", reason } : { decision: "deny" } } };
		}
		if (pressed.name === "backspace") return { state: { ...state, reason: state.reason.slice(0, -1) }, outcome: none };
		if (isText(pressed)) return { state: { ...state, reason: state.reason + pressed.text.replace(/[\r\n]/g, " ") }, outcome: none };
		return stay;
	}
	const choices = choicesFor(request);
	if (state.confirming !== undefined) {
		if (action === "approvalSelect") return { state, outcome: { type: "answer", response: choices[state.confirming].response } };
		if (action === "approvalDenyAndStop") return { state: { ...state, confirming: undefined }, outcome: none };
		return isText(pressed) ? { state, outcome: { type: "text", text: pressed.text } } : stay;
	}
	switch (action) {
		case "approvalDenyAndStop":
			return { state, outcome: { type: "stop" } };
		case "approvalUp":
			return { state: { ...state, selected: (state.selected + choices.length - 1) % choices.length }, outcome: none };
		case "approvalDown":
			return { state: { ...state, selected: (state.selected + 1) % choices.length }, outcome: none };
		case "approvalNumber": {
			const index = Number(pressed.text) - 1;
			return index >= 0 && index < choices.length ? { state: { ...state, selected: index }, outcome: none } : stay;
		}
		case "approvalFullText":
			return { state: { ...state, pager: 0 }, outcome: none };
		case "approvalSelect": {
			const { response } = choices[state.selected];
			if (response.decision === "deny") return { state: { ...state, reason: "" }, outcome: none };
			if (response.decision === "always") return { state: { ...state, confirming: state.selected }, outcome: none };
			return { state, outcome: { type: "answer", response } };
		}
	}
	return isText(pressed) ? { state, outcome: { type: "text", text: pressed.text } } : stay;
}
