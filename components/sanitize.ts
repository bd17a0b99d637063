// Text from the model, tools and files reaches the terminal only through here. An escape sequence from
// outside could move the cursor into our frame, retitle the window, write the clipboard (OSC 52) or
// smuggle a hyperlink, so every sequence is removed and every other control character is made visible.

/** ESC- and C1-introduced strings that run until a terminator: OSC, DCS, SOS, PM, APC. */
const STRING_SEQUENCE = /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)/g;
/** CSI in its 7-bit (ESC [) and 8-bit (0x9B) forms. */
const CSI_SEQUENCE = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?/g;
/** Any other escape: ESC followed by intermediates and one final byte (charset switches, RIS, ...). */
const OTHER_ESCAPE = /\x1b[ -/]*[0-~]?/g;
/** What is still a control character after the sequences are gone (newline is the one we keep). */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

const TAB = "    ";

/** Caret notation (`^[`, `^M`) for C0 and DEL, `<U+0085>`-style for C1: visible, one cell per char. */
function visibleControl(ch: string): string {
	const code = ch.charCodeAt(0);
	if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
	if (code === 0x7f) return "^?";
	return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
}

/**
 * Makes outside text safe to print: strips CSI / OSC (title, clipboard, hyperlinks) / DCS / SOS / PM /
 * APC and C1 sequences, turns CRLF into LF and tabs into spaces (Ink measures a tab as one cell), and
 * shows remaining control characters as `^X`. Wide characters pass through untouched.
 */
export function sanitizeTerminalText(text: string): string {
	// Fast path for the common case: plain text needs no regex work on the per-token path.
	if (!/[\x00-\x09\x0b-\x1f\x7f-\x9f]/.test(text)) return text;
	return text
		.replace(STRING_SEQUENCE, "")
		.replace(CSI_SEQUENCE, "")
		.replace(OTHER_ESCAPE, "")
		.replace(/\r\n/g, "\n")
		.replace(/\t/g, TAB)
		.replace(CONTROL, visibleControl);
}
