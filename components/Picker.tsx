// A list to choose from (`/model`, `/resume`): one item per line, the highlighted one inverse, a window
// of PICKER_ROWS around it.
import { Box, Text } from "ink";
import { sanitizeTerminalText } from "./sanitize.js";

export const PICKER_ROWS = 8;

export interface PickerItem {
	label: string;
	detail?: string;
	/** Marked with a dot (the current model). */
	active?: boolean;
}

export interface PickerState<T = unknown> {
	title: string;
	items: PickerItem[];
	values: T[];
	index: number;
	onPick: (value: T) => void;
}

/** Rows the picker takes on screen: its title plus the visible items. */
export const pickerRows = (p: PickerState): number => 1 + Math.min(PICKER_ROWS, p.items.length);

export function Picker({ picker }: { picker: PickerState }) {
	const { items, index } = picker;
	const first = Math.max(0, Math.min(index - PICKER_ROWS + 1, items.length - PICKER_ROWS));
	return (
		<Box flexDirection="column">
			<Text dimColor>{picker.title} (↑/↓, Enter; Esc cancels)</Text>
			{items.slice(first, first + PICKER_ROWS).map((item, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in a fixed list
				<Text key={first + i} inverse={first + i === index} wrap="truncate">
					{item.active ? "● " : "  "}
					{sanitizeTerminalText(item.label)}
					{item.detail ? <Text dimColor> {sanitizeTerminalText(item.detail)}</Text> : null}
				</Text>
			))}
		</Box>
	);
}
