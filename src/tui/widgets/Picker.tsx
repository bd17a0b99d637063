// A list to choose from (`/model`, `/resume`): one item per line, the highlighted one inverse, a window
// of PICKER_ROWS around it. A searchable picker has a single-line search field (ink-text-input) above
// the list; typing filters the items by every word of the query. The state and its key handling are
// pure (`pickerKey`), so they are tested without a terminal; `use-picker.ts` holds them in React.
import { Box, Text } from "ink";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import { keyLabel } from "../keys/key-hints.js";
import type { Intent } from "../keys/key-map.js";
import { DEFAULT_KEY_BINDINGS, type KeyBindings } from "../keys/keybindings.js";
import { wrapSegments } from "../text/styled-text.js";
import { displayWidth } from "../text/text-width.js";
import { SingleLineField } from "./SingleLineField.js";

export const PICKER_ROWS = 8;

export interface PickerItem {
	label: string;
	detail?: string;
	/** Marked with a dot (the current model). */
	active?: boolean;
	/** What the search field matches against; the label when absent. */
	search?: string;
}

export interface PickerState<T = unknown> {
	title: string;
	items: PickerItem[];
	values: T[];
	/** Index into the visible (filtered) items. */
	index: number;
	onPick: (value: T) => void;
	/** Present for a searchable picker: the search field's text. */
	query?: string;
	/** Shown dim in the empty search field. */
	searchHint?: string;
	/** A list whose items can be removed (pickerRemove): called with the highlighted one, the picker closed. */
	onRemove?: (value: T) => void;
	/** A list that can take a new item (pickerAdd): called with the picker closed. */
	onAdd?: () => void;
}

/** Indices into `items` of what the query keeps, in order; every word must occur (case-insensitive). */
export function visibleIndices<T>(p: PickerState<T>): number[] {
	const words = (p.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
	const all = p.items.map((_, i) => i);
	if (words.length === 0) return all;
	return all.filter((i) => {
		const haystack = (p.items[i].search ?? p.items[i].label).toLowerCase();
		return words.every((w) => haystack.includes(w));
	});
}

/**
 * The title line with the key hint, wrapped at `columns` (0: one row). Wrapped here, not by Ink, so the
 * rows counted are the rows drawn: a confirmation's title names a whole rule, which may be long.
 */
export function pickerTitleRows<T>(p: PickerState<T>, columns = 0, bindings: KeyBindings = DEFAULT_KEY_BINDINGS): string[] {
	const hint = pickerHint(bindings, { remove: p.onRemove !== undefined, add: p.onAdd !== undefined });
	const title = `${sanitizeTerminalText(p.title).replace(/\n/g, " ")} (${p.query !== undefined ? "type to search, " : ""}${hint})`;
	if (columns <= 0) return [title];
	return wrapSegments([{ text: title }], columns).map((row) => row.map((segment) => segment.text).join(""));
}

/** Rows the picker takes on screen: its title, the search field, and the visible items (or "no match"). */
export const pickerRows = <T,>(p: PickerState<T>, columns = 0, bindings: KeyBindings = DEFAULT_KEY_BINDINGS): number =>
	pickerTitleRows(p, columns, bindings).length +
	(p.query !== undefined ? 1 : 0) +
	Math.max(1, Math.min(PICKER_ROWS, visibleIndices(p).length));

export type PickerOutcome<T> =
	/** The picker stays open with this state. */
	| { kind: "open"; state: PickerState<T> }
	| { kind: "closed" }
	| { kind: "picked"; value: T }
	/** A list action (remove, add): the picker closes, then `run` opens what the action shows. */
	| { kind: "action"; run: () => void };

/**
 * What a key does while a picker is open (the picker's keys of keybindings.ts): up/down move
 * (wrapping), pick, close; in a searchable picker the search field takes the text keys itself, so they
 * leave the state alone.
 */
export function pickerKey<T>(p: PickerState<T>, intent: Intent): PickerOutcome<T> {
	const visible = visibleIndices(p);
	switch (intent.type) {
		case "pickerUp":
		case "pickerDown": {
			const step = intent.type === "pickerUp" ? -1 : 1;
			const n = Math.max(1, visible.length);
			return { kind: "open", state: { ...p, index: (p.index + step + n) % n } };
		}
		case "pickerPick": {
			const at = visible[p.index];
			return at === undefined ? { kind: "open", state: p } : { kind: "picked", value: p.values[at] };
		}
		case "pickerClose":
			return { kind: "closed" };
		case "pickerRemove": {
			const at = visible[p.index];
			const { onRemove } = p;
			return at === undefined || !onRemove ? { kind: "open", state: p } : { kind: "action", run: () => onRemove(p.values[at]) };
		}
		case "pickerAdd": {
			const { onAdd } = p;
			return onAdd ? { kind: "action", run: onAdd } : { kind: "open", state: p };
		}
		default:
			return { kind: "open", state: p };
	}
}

/** A new search text: the highlight goes back to the first match. */
export const withQuery = <T,>(p: PickerState<T>, query: string): PickerState<T> => ({ ...p, query, index: 0 });

/** Pads `text` with spaces to `width` cells (labels of a column line up even with wide characters). */
export const padCells = (text: string, width: number): string => text + " ".repeat(Math.max(0, width - displayWidth(text)));

/**
 * The picker's key hint from the key table: "↑/↓, Enter; Esc cancels", with the list's actions when it
 * has them ("d removes; a adds").
 */
export function pickerHint(bindings: KeyBindings, actions: { remove?: boolean; add?: boolean } = {}): string {
	const moves = [keyLabel(bindings, "pickerUp"), keyLabel(bindings, "pickerDown")].filter(Boolean).join("/");
	const pick = keyLabel(bindings, "pickerPick");
	const close = keyLabel(bindings, "pickerClose");
	const remove = actions.remove ? keyLabel(bindings, "pickerRemove") : undefined;
	const add = actions.add ? keyLabel(bindings, "pickerAdd") : undefined;
	return [
		[moves, pick].filter(Boolean).join(", "),
		remove ? `${remove} removes` : "",
		add ? `${add} adds` : "",
		close ? `${close} cancels` : "",
	]
		.filter(Boolean)
		.join("; ");
}

export function Picker({
	picker,
	onQuery,
	bindings = DEFAULT_KEY_BINDINGS,
	columns = 0,
}: {
	picker: PickerState;
	onQuery?: (query: string) => void;
	bindings?: KeyBindings;
	/** The terminal's width, for wrapping the title; 0: not wrapped. */
	columns?: number;
}) {
	const visible = visibleIndices(picker);
	const { index } = picker;
	const first = Math.max(0, Math.min(index - PICKER_ROWS + 1, visible.length - PICKER_ROWS));
	const searchable = picker.query !== undefined;
	return (
		<Box flexDirection="column">
			{pickerTitleRows(picker, columns, bindings).map((row, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the rows of one title, in order
				<Text key={i} dimColor wrap="truncate">
					{row}
				</Text>
			))}
			{searchable ? (
				<Box>
					<Text dimColor>search: </Text>
					<SingleLineField value={picker.query ?? ""} onChange={(q) => onQuery?.(q)} placeholder={picker.searchHint} />
				</Box>
			) : null}
			{visible.length === 0 ? <Text dimColor> no match</Text> : null}
			{visible.slice(first, first + PICKER_ROWS).map((at, i) => {
				const item = picker.items[at];
				return (
					<Text key={at} inverse={first + i === index} wrap="truncate">
						{item.active ? "● " : "  "}
						{sanitizeTerminalText(item.label)}
						{item.detail ? <Text dimColor> {sanitizeTerminalText(item.detail)}</Text> : null}
					</Text>
				);
			})}
		</Box>
	);
}
