// The completion menu's state: which match is selected, and whether Esc closed the menu. Both belong
// to one input: a different text or cursor starts over at the first match, menu open. Refs mirror
// the state so that keys arriving in one stdin chunk each see the result of the one before.
import { useReducer, useRef } from "react";
import type { Intent } from "../keys/key-map.js";
import { type MenuOutcome, menuKey } from "./CompletionMenu.js";
import type { Completion } from "./completion.js";

export interface CompletionMenuHandle {
	/** The matches shown (none while closed). */
	items: readonly Completion[];
	selected: number;
	/** The menu shows matches (its keys go first). */
	isOpen(): boolean;
	/** A key for the open menu: what to do, or undefined when the menu does not take the key. */
	key(intent: Intent): Extract<MenuOutcome, { kind: "accept" }> | "handled" | undefined;
	/** Starts the menu closed for this input (text recalled from history is not being typed). */
	closeFor(inputKey: string): void;
}

/** The menu belongs to one input: its text and cursor. */
export const menuInputKey = (input: { cursor: number; text: string }): string => `${input.cursor}:${input.text}`;

export function useCompletionMenu(completions: () => readonly Completion[], inputKey: string): CompletionMenuHandle {
	const [, rerender] = useReducer((n: number) => n + 1, 0);
	const state = useRef({ forKey: inputKey, selected: 0, closed: false });
	if (state.current.forKey !== inputKey) state.current = { forKey: inputKey, selected: 0, closed: false };
	const items = state.current.closed ? [] : completions();
	return {
		items,
		selected: Math.min(state.current.selected, Math.max(0, items.length - 1)),
		isOpen: () => !state.current.closed && completions().length > 0,
		key(intent) {
			if (state.current.closed) return undefined;
			const outcome = menuKey(completions(), state.current.selected, intent);
			if (!outcome) return undefined;
			if (outcome.kind === "accept") return outcome;
			if (outcome.kind === "select") state.current = { ...state.current, selected: outcome.selected };
			else state.current = { ...state.current, closed: true };
			rerender();
			return "handled";
		},
		closeFor(key) {
			state.current = { forKey: key, selected: 0, closed: true };
		},
	};
}
