// A one-line question the app asks (the key of `/login <provider>`): a title and a single-line field
// (SingleLineField, on ink-text-input), masked for a secret. Enter answers, Esc cancels (the picker's
// keys of the key table); what is typed goes to the field only: never the input, never its history.
// A paste the field does not take (a line break in it) leaves the field as it was and says why on a
// line under it, until the next edit.
import { Box, Text } from "ink";
import { useCallback, useRef, useState } from "react";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import { keyLabel } from "../keys/key-hints.js";
import type { Intent } from "../keys/key-map.js";
import { DEFAULT_KEY_BINDINGS, type KeyBindings } from "../keys/keybindings.js";
import { color, theme } from "../text/theme.js";
import { SingleLineField } from "../widgets/SingleLineField.js";

export interface FieldPromptState {
	title: string;
	value: string;
	/** Shown instead of each character (a key). */
	mask?: string;
	/** Why the last paste was not added; cleared by the next edit. */
	refused?: string;
	onSubmit: (value: string) => void;
}

export interface FieldPromptHandle {
	field: FieldPromptState | undefined;
	isOpen(): boolean;
	open(next: Omit<FieldPromptState, "value">): void;
	/** A key while the field is open: Enter answers (a non-empty value), Esc closes. */
	key(intent: Intent): void;
	setValue(value: string): void;
	/** A paste was not added: say why under the field. */
	refuse(why: string): void;
}

/** Rows the prompt takes: its title, the field, and the line saying why a paste was not added. */
export function fieldPromptRows(field: FieldPromptState): number {
	return field.refused ? 3 : 2;
}

/** Holds the open field; a ref mirrors it so keys in one stdin chunk each see the one before. */
export function useFieldPrompt(): FieldPromptHandle {
	const ref = useRef<FieldPromptState | undefined>(undefined);
	const [field, setState] = useState<FieldPromptState | undefined>(undefined);
	const set = useCallback((next: FieldPromptState | undefined) => {
		ref.current = next;
		setState(next);
	}, []);
	return {
		field,
		isOpen: () => ref.current !== undefined,
		open: (next) => set({ ...next, value: "" }),
		key: (intent) => {
			const open = ref.current;
			if (!open) return;
			if (intent.type === "pickerClose") return set(undefined);
			if (intent.type !== "pickerPick" || !open.value.trim()) return;
			set(undefined);
			open.onSubmit(open.value.trim());
		},
		setValue: (value) => {
			if (ref.current) set({ ...ref.current, value, refused: undefined });
		},
		refuse: (why) => {
			if (ref.current) set({ ...ref.current, refused: why });
		},
	};
}

export function FieldPrompt({
	field,
	onChange,
	onRefused,
	bindings = DEFAULT_KEY_BINDINGS,
}: {
	field: FieldPromptState;
	onChange: (value: string) => void;
	onRefused: (why: string) => void;
	bindings?: KeyBindings;
}) {
	const hint = [keyLabel(bindings, "pickerPick"), keyLabel(bindings, "pickerClose")];
	return (
		<Box flexDirection="column">
			<Text dimColor>
				{sanitizeTerminalText(field.title)} ({[hint[0] && `${hint[0]} saves`, hint[1] && `${hint[1]} cancels`].filter(Boolean).join("; ")})
			</Text>
			<Box>
				<Text>› </Text>
				<SingleLineField value={field.value} onChange={onChange} onRefused={onRefused} mask={field.mask} />
			</Box>
			{field.refused ? <Text color={color(theme.warning)}>{field.refused}</Text> : null}
		</Box>
	);
}
