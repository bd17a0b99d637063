// The completion menu under the input: every match in a scrolling window of COMPLETION_ROWS, the
// selected one inverse, descriptions in one column after the widest label. Up/Down select, Tab and
// Enter accept, Esc closes it until the input changes (the completion keys of keybindings.ts). `menuKey` is the pure key handling.
import { Box, Text } from "ink";
import React from "react";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import { keyLabel } from "../keys/key-hints.js";
import type { Intent } from "../keys/key-map.js";
import { type Action, DEFAULT_KEY_BINDINGS, type KeyBindings } from "../keys/keybindings.js";
import { displayWidth } from "../text/text-width.js";
import { color, theme } from "../text/theme.js";
import { padCells } from "../widgets/Picker.js";
import type { Completion } from "./completion.js";

export const COMPLETION_ROWS = 8;
/** A label wider than this does not push the description column further right. */
const MAX_LABEL_CELLS = 40;

export type MenuOutcome =
	| { kind: "select"; selected: number }
	| { kind: "accept"; completion: Completion /** Run it now (Enter on a command without arguments). */; submit: boolean }
	| { kind: "close" };

/** What a key does while the menu is open; undefined when the key is not the menu's. */
export function menuKey(items: readonly Completion[], selected: number, intent: Intent): MenuOutcome | undefined {
	if (items.length === 0) return undefined;
	const current = items[Math.min(selected, items.length - 1)];
	switch (intent.type) {
		case "completionUp":
			return { kind: "select", selected: (selected - 1 + items.length) % items.length };
		case "completionDown":
			return { kind: "select", selected: (selected + 1) % items.length };
		case "complete":
			return { kind: "accept", completion: current, submit: false };
		case "completionAccept":
			return { kind: "accept", completion: current, submit: current.submits === true };
		case "completionClose":
			return { kind: "close" };
		default:
			return undefined;
	}
}

/** The menu's key hint from the key table: "↑/↓ select · Tab/Enter accept · Esc closes". */
export function menuHint(bindings: KeyBindings): string {
	const both = (a: Action, b: Action) => [keyLabel(bindings, a), keyLabel(bindings, b)].filter(Boolean).join("/");
	return [
		[both("completionUp", "completionDown"), "select"],
		[both("complete", "completionAccept"), "accept"],
		[keyLabel(bindings, "completionClose"), "closes"],
	]
		.filter(([keys]) => keys)
		.map(([keys, text]) => `${keys} ${text}`)
		.join(" · ");
}

/** Rows the menu takes: the window, plus a position line when it scrolls. */
export const menuRows = (count: number): number => Math.min(COMPLETION_ROWS, count) + (count > COMPLETION_ROWS ? 1 : 0);

/** First item of the window that keeps `selected` in view. */
export const windowStart = (count: number, selected: number): number =>
	Math.max(0, Math.min(selected - COMPLETION_ROWS + 1, count - COMPLETION_ROWS));

export const CompletionMenu = React.memo(function CompletionMenu({
	items,
	selected,
	bindings = DEFAULT_KEY_BINDINGS,
}: {
	items: readonly Completion[];
	selected: number;
	bindings?: KeyBindings;
}) {
	const first = windowStart(items.length, selected);
	const shown = items.slice(first, first + COMPLETION_ROWS);
	const labels = items.map((c) => sanitizeTerminalText(c.label));
	const column = Math.min(MAX_LABEL_CELLS, Math.max(...labels.map(displayWidth)));
	return (
		<Box flexDirection="column">
			{shown.map((c, i) => {
				const at = first + i;
				return (
					<Text key={c.label} wrap="truncate" inverse={at === selected}>
						{/* A marker as well as inverse: without colours (NO_COLOR, a test's frame) inverse is all there is. */}
						{at === selected ? "▸ " : "  "}
						<Text color={color(theme.accent)}>{padCells(labels[at], column)}</Text>
						{c.detail ? <Text dimColor>{`  ${sanitizeTerminalText(c.detail)}`}</Text> : null}
					</Text>
				);
			})}
			{items.length > COMPLETION_ROWS ? (
				<Text dimColor>{`  ${first + 1}–${first + shown.length} of ${items.length} · ${menuHint(bindings)}`}</Text>
			) : null}
		</Box>
	);
});
