// Key hints on screen, generated from the key table so they name the keys the user really has:
// "Enter steers · Alt+Enter queues · Esc stops". An action without keys drops out of the hint.
import type { Action, KeyBindings } from "./keybindings.js";

const NAMES: Record<string, string> = {
	enter: "Enter",
	escape: "Esc",
	tab: "Tab",
	backspace: "Backspace",
	delete: "Delete",
	up: "↑",
	down: "↓",
	left: "←",
	right: "→",
	home: "Home",
	end: "End",
	pageup: "PgUp",
	pagedown: "PgDn",
	space: "Space",
};
const MODIFIER_NAMES: Record<string, string> = { ctrl: "Ctrl", alt: "Alt", shift: "Shift" };

/** A canonical key as people write it: "ctrl+o" → "Ctrl+O", "escape escape" → "Esc Esc". */
export function displayKey(key: string): string {
	return key
		.split(" ")
		.map((combo) => {
			const parts = combo.split("+");
			// "ctrl++" is the plus key.
			const name = combo.endsWith("++") ? "+" : (parts.pop() ?? "");
			const mods = (combo.endsWith("++") ? parts.slice(0, -2) : parts).map((m) => MODIFIER_NAMES[m] ?? m);
			return [...mods, NAMES[name] ?? (mods.length ? name.toUpperCase() : name)].join("+");
		})
		.join(" ");
}

/** The first key of `action`, as shown; undefined when the user unbound it. */
export function keyLabel(bindings: KeyBindings, action: Action): string | undefined {
	const key = bindings.keys[action][0];
	return key === undefined ? undefined : displayKey(key);
}

/** Every key of `action`, shown and joined with "/" ("↑/Ctrl+P"). */
export function keyLabels(bindings: KeyBindings, action: Action): string | undefined {
	const keys = bindings.keys[action];
	return keys.length ? keys.map(displayKey).join("/") : undefined;
}

/** "Enter steers · Esc stops" for [["submit", "steers"], ["abort", "stops"]], leaving out unbound actions. */
export function hintLine(bindings: KeyBindings, parts: readonly (readonly [Action, string])[], separator = " · "): string {
	return parts
		.flatMap(([action, text]) => {
			const label = keyLabel(bindings, action);
			return label ? [`${label} ${text}`] : [];
		})
		.join(separator);
}
