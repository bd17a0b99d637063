// The MCP elicitation form's keys → its state and the answer, as pure functions (tested without a
// terminal). The fields start with the schema's defaults, so Enter accepts what is shown; ↑/↓ (Tab,
// Shift+Tab) move between fields; typed text edits a text or number field (Backspace deletes); Space or
// ←/→ toggle a yes/no and step through a choice; in a multiple choice ←/→ move and Space ticks. Enter
// on a form that does not fit its schema stays open with the problem shown. Esc declines. A URL request
// asks one thing: Enter opens the page, Esc declines.
import { type ElicitAnswer, type ElicitValue, formContent, initialValues } from "../../extensions/mcp/elicitation.js";
import type { ElicitationRequest } from "../../session/types.js";
import type { KeyPress } from "../keys/key-map.js";

export interface ElicitationFormState {
	id: string;
	focus: number;
	values: Record<string, ElicitValue>;
	/** The highlighted option of each multiple-choice field. */
	cursor: Record<string, number>;
	error?: string;
}

/** What a key did: nothing for the session yet, or the answer to send. */
export type FormOutcome = { type: "none" } | { type: "answer"; answer: ElicitAnswer };

export function initialFormState(request: ElicitationRequest): ElicitationFormState {
	return { id: request.id, focus: 0, values: request.mode === "form" ? initialValues(request.fields) : {}, cursor: {} };
}

/** `action`: the key table's meaning of the key in a picker ("pickerPick" is Enter, "pickerClose" Esc). */
export function formKey(
	state: ElicitationFormState,
	key: KeyPress,
	request: ElicitationRequest,
	action: string,
): { state: ElicitationFormState; outcome: FormOutcome } {
	const none = (next: ElicitationFormState) => ({ state: next, outcome: { type: "none" } as const });
	if (action === "pickerClose") return { state, outcome: { type: "answer", answer: { action: "decline" } } };
	if (request.mode === "url")
		return action === "pickerPick" ? { state, outcome: { type: "answer", answer: { action: "accept" } } } : none(state);
	if (action === "pickerPick") {
		const checked = formContent(request.fields, state.values);
		if ("error" in checked) return none({ ...state, error: checked.error });
		return { state, outcome: { type: "answer", answer: { action: "accept", content: checked.content } } };
	}
	const fields = request.fields;
	const field = fields[state.focus];
	const move = (by: number) => none({ ...state, focus: (state.focus + by + fields.length) % Math.max(1, fields.length), error: undefined });
	if (key.name === "down" || (key.name === "tab" && !key.shift)) return move(1);
	if (key.name === "up" || (key.name === "tab" && key.shift)) return move(-1);
	if (!field) return none(state);
	const set = (value: ElicitValue) => none({ ...state, values: { ...state.values, [field.key]: value }, error: undefined });
	const value = state.values[field.key];
	const step = key.name === "right" || (key.name === "char" && key.text === " ") ? 1 : key.name === "left" ? -1 : 0;
	switch (field.kind) {
		case "boolean":
			return step !== 0 ? set(!value) : none(state);
		case "choice": {
			if (step === 0) return none(state);
			const at = field.options.findIndex((o) => o.value === value);
			const next = (at + step + field.options.length) % field.options.length;
			return set(field.options[Math.max(0, next)].value);
		}
		case "multi": {
			const at = state.cursor[field.key] ?? 0;
			if (key.name === "left" || key.name === "right") {
				const next = (at + (key.name === "right" ? 1 : -1) + field.options.length) % field.options.length;
				return none({ ...state, cursor: { ...state.cursor, [field.key]: next } });
			}
			if (key.name !== "char" || key.text !== " ") return none(state);
			const option = field.options[at].value;
			const list = Array.isArray(value) ? value : [];
			return set(list.includes(option) ? list.filter((v) => v !== option) : [...list, option]);
		}
		default: {
			const text = typeof value === "string" ? value : "";
			if (key.name === "backspace") return set([...text].slice(0, -1).join(""));
			if (key.name === "char" && !key.ctrl && !key.meta) {
				// One line: a pasted newline or control character is not part of a field.
				const typed = key.text.replace(/[\x00-\x1f\x7f-\x9f]/g, "");
				return typed ? set(text + typed) : none(state);
			}
			return none(state);
		}
	}
}
