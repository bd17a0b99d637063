// The waiting MCP question's form state (focus, values, problem), read by the next key before React
// re-renders, and the key handler that answers the session. The key table's picker context names Enter
// and Esc; the pure `formKey` decides (overlays/elicitation-form-state.ts).
import { useRef } from "react";
import type { AgentSessionApi, SessionState } from "../../session/types.js";
import { intentFor, type KeyPress } from "../keys/key-map.js";
import type { KeyBindings } from "../keys/keybindings.js";
import { type ElicitationFormState, formKey, initialFormState } from "../overlays/elicitation-form-state.js";

export interface ElicitationFormHandle {
	state: ElicitationFormState | undefined;
	/** A key while a question waits; true when the form took it (it takes every key while open). */
	key: (key: KeyPress) => boolean;
}

export function useElicitationForm(
	session: AgentSessionApi,
	pending: SessionState["pendingElicitation"],
	refresh: () => void,
	bindings?: KeyBindings,
): ElicitationFormHandle {
	const ref = useRef<ElicitationFormState | undefined>(undefined);
	if (pending && ref.current?.id !== pending.id) ref.current = initialFormState(pending);
	const key = (pressed: KeyPress): boolean => {
		const request = session.getState().pendingElicitation;
		if (!request) return false;
		const state = ref.current?.id === request.id ? ref.current : initialFormState(request);
		const action = intentFor(pressed, { isStreaming: false, inputEmpty: true, sinceLastCtrlC: Infinity, mode: "picker", bindings }).type;
		const { state: next, outcome } = formKey(state, pressed, request, action);
		ref.current = next;
		if (outcome.type === "answer") session.respondToElicitation(request.id, outcome.answer);
		refresh();
		return true;
	};
	return { state: pending ? ref.current : undefined, key };
}
