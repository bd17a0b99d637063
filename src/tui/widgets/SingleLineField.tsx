// A single-line text field (the pickers' search, the masked key field of /login), built on
// ink-text-input. That component takes every key Ink decodes as text: Ctrl+O would type "o", Alt+B "b",
// a bracketed-paste marker "[200~". So the field looks at each raw sequence first (its listener is
// prepended, so it runs before ink-text-input's) and accepts a change only after printable text,
// Backspace or Delete. Enter, Esc and arrows are left to whoever owns the field. A paste holding a line
// break (but one at its end, which is dropped) is not added (the field is one line, and a line break cut out would join two lines into one
// the user never wrote); the owner is told, so it can say so instead of dropping it silently.
import { useStdin } from "ink";
import TextInput from "ink-text-input";
import { useEffect, useRef, useState } from "react";

/** The start and end of a bracketed paste. */
const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** Why a paste with a line break is refused; one line, for the field's owner to show. */
export const PASTE_LINE_BREAK_REFUSED = "Paste not added: it holds a line break, and this field takes one line";

/**
 * Whether `raw` is pasted text holding a line break: inside bracketed-paste markers, or (a terminal
 * without them) more than one character at once. A lone CR or LF is the Enter key.
 */
export function isMultiLinePaste(raw: string, inPaste: boolean): boolean {
	return /[\r\n]/.test(raw) && (inPaste || raw.replace(/\r\n/g, "\n").length > 1);
}

/**
 * Whether `raw`, pasted, is one line followed by its line break: a line copied whole (a triple-click, a
 * file's last line) ends in one. It is added without the break, which joins nothing.
 */
export function isPastedLine(raw: string): boolean {
	const line = raw.replace(/[\r\n]+$/, "");
	return line !== raw && line !== "" && !/[\r\n]/.test(line);
}

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
	/** A paste was not added; `why` is one line for the user. */
	onRefused?: (why: string) => void;
}

export function SingleLineField({ value, onChange, placeholder, mask, onRefused }: SingleLineFieldProps) {
	const { internal_eventEmitter: events } = useStdin();
	const lastRaw = useRef("");
	const inPaste = useRef(false);
	const refused = useRef(onRefused);
	refused.current = onRefused;
	// ink-text-input moves its cursor on every input, the paste markers too, and the pieces of one chunk
	// all start from the same stale cursor: after a paste it sat mid-text and typing went inside the
	// pasted rule. A fresh TextInput starts with its cursor at the end, where a paste leaves it.
	const [pastes, setPastes] = useState(0);
	useEffect(() => {
		const listener = (raw: string) => {
			lastRaw.current = raw;
			if (raw === PASTE_START) inPaste.current = true;
			else if (raw === PASTE_END) {
				inPaste.current = false;
				setPastes((n) => n + 1);
			} else if (isMultiLinePaste(raw, inPaste.current) && !(inPaste.current && isPastedLine(raw)))
				refused.current?.(PASTE_LINE_BREAK_REFUSED);
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
				// The field's text has no line break: the ones in `next` are the pasted line's own.
				else if (inPaste.current && isPastedLine(lastRaw.current)) onChange(next.replace(/[\r\n]/g, ""));
			}}
		/>
	);
}
