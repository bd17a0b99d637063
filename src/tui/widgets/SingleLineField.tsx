// A single-line text field (the pickers' search, the masked key field of /login), built on
// ink-text-input. That component takes every key Ink decodes as text: Ctrl+O would type "o", Alt+B "b",
// a bracketed-paste marker "[200~". So the field looks at each raw sequence first (its listener is
// prepended, so it runs before ink-text-input's) and accepts a change only after printable text,
// Backspace or Delete. Enter, Esc and arrows are left to whoever owns the field.
import { useStdin } from "ink";
import TextInput from "ink-text-input";
import { useEffect, useRef, useState } from "react";

/** The end of a bracketed paste. */
const PASTE_END = "\x1b[201~";

/** Whether a raw input sequence may change the field's text. */
export function editsField(raw: string): boolean {
	if (raw === "\x7f" || raw === "\b" || raw === "\x1b[3~") return true;
	return raw.length > 0 && !/[\x00-\x1f\x7f\x80-\x9f]/.test(raw);
}

export interface SingleLineFieldProps {
	value: string;
	onChange: (value: string) => void;
	placeholder?: string;
	/** Shown instead of each character (a key field). */
	mask?: string;
}

export function SingleLineField({ value, onChange, placeholder, mask }: SingleLineFieldProps) {
	const { internal_eventEmitter: events } = useStdin();
	const lastRaw = useRef("");
	// ink-text-input moves its cursor on every input, the paste markers too, and the pieces of one chunk
	// all start from the same stale cursor: after a paste it sat mid-text and typing went inside the
	// pasted rule. A fresh TextInput starts with its cursor at the end, where a paste leaves it.
	const [pastes, setPastes] = useState(0);
	useEffect(() => {
		const listener = (raw: string) => {
			lastRaw.current = raw;
			if (raw === PASTE_END) setPastes((n) => n + 1);
		};
		events.prependListener("input", listener);
		return () => {
			events.removeListener("input", listener);
		};
	}, [events]);
	return (
		<TextInput
			key={pastes}
			value={value}
			placeholder={placeholder}
			mask={mask}
			onChange={(next) => {
				if (editsField(lastRaw.current)) onChange(next);
			}}
		/>
	);
}
