// The waiting approval's prompt state (selection, confirmation, typed reason, pager), read by the next
// key before React re-renders, and the key handler that answers the session. The key table's approval
// or pager context names the key; the pure `approvalKey` decides; typed text comes back for the input.
import { useRef } from "react";
import type { AgentSessionApi, SessionState } from "../../session/types.js";
import { intentFor, type KeyPress } from "../keys/key-map.js";
import type { KeyBindings } from "../keys/keybindings.js";
import {
	type ApprovalPromptState,
	approvalKey,
	approvalKeyMode,
	initialApprovalState,
	type PagerSize,
} from "../overlays/approval-prompt-state.js";

/** What a key at the prompt did for the app: stopped the run, or typed text the input keeps. */
export type ApprovalKeyResult = { type: "stop" } | { type: "text"; text: string } | undefined;

export interface ApprovalPromptHandle {
	state: ApprovalPromptState | undefined;
	key: (key: KeyPress) => ApprovalKeyResult;
	/** True while a denial's reason is typed: then text is the reason, key by key. */
	typingReason: () => boolean;
}

export function useApprovalPrompt(
	session: AgentSessionApi,
	pending: SessionState["pendingApproval"],
	refresh: () => void,
	opts: { bindings?: KeyBindings; pager: () => PagerSize },
): ApprovalPromptHandle {
	const ref = useRef<ApprovalPromptState | undefined>(undefined);
	if (pending && ref.current?.id !== pending.id) ref.current = initialApprovalState(pending.id, pending);
	const current = () => {
		const request = session.getState().pendingApproval;
		if (!request) return undefined;
		return { request, state: ref.current?.id === request.id ? ref.current : initialApprovalState(request.id, request) };
	};
	const key = (pressed: KeyPress): ApprovalKeyResult => {
		const now = current();
		if (!now) return undefined;
		const { request } = now;
		const mode = approvalKeyMode(now.state);
		const action = intentFor(pressed, {
			isStreaming: true,
			inputEmpty: true,
			sinceLastCtrlC: Infinity,
			mode,
			bindings: opts.bindings,
		}).type;
		const { state: next, outcome } = approvalKey(now.state, pressed, request, action, opts.pager());
		ref.current = next;
		if (outcome.type === "answer") session.respondToApproval(request.id, outcome.response);
		if (outcome.type === "stop") session.respondToApproval(request.id, { decision: "deny", reason: "The user stopped the run." });
		refresh();
		if (outcome.type === "stop") return { type: "stop" };
		if (outcome.type === "text") return { type: "text", text: outcome.text };
		return undefined;
	};
	const typingReason = () => current()?.state.reason !== undefined;
	return { state: pending ? ref.current : undefined, key, typingReason };
}
