// Text from the model, tools, files and servers reaches a terminal only through here. An escape sequence
// from outside could move the cursor into our frame, retitle the window, write the clipboard (OSC 52),
// switch screens or make the terminal type a reply (`ESC[6n`); a bidi override or a zero-width character
// could make the user read something other than what the model reads. So nothing is ever swallowed:
// every control is shown as a visible marker and the text around it stays. The one thing removed is a
// complete SGR colour code (`ESC[31m`): it can carry no text (digits and `;` only) and tools print them.

import { invisibleFastTest, invisibleSource, keptInEmoji } from "./invisible.js";

const TAB = "    ";

/** C0 but newline, DEL and C1: the controls shown in caret notation or as markers. */
const CONTROLS = "\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f";

/** Any character the slow path may change; plain text (nearly every token) skips the regex work. */
const needsWork = invisibleFastTest(CONTROLS);

/**
 * In order: an SGR colour code (removed), CRLF (made LF), then one control or invisible character (made
 * visible) — every default-ignorable code point, the Unicode tag characters (the invisible "ASCII
 * smuggling" alphabet) and variation selectors among them.
 */
const SLOW = new RegExp(`(?:\\x1b\\[|\\x9b)[0-9;:]*m|\\r\\n|${invisibleSource(CONTROLS)}`, "g");

/** `⟪U+202E⟫`: the code point named, one visible cell per character, as GitHub flags hidden Unicode. */
export function unicodeMarker(codePoint: number): string {
	return `⟪U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}⟫`;
}

/** Replacements of C0, DEL and C1, built once: caret notation for C0 and DEL (`^[` is ESC), markers for C1. */
const LOW_CONTROLS: string[] = Array.from({ length: 0xa0 }, (_, code) => {
	if (code === 0x09) return TAB;
	if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
	if (code === 0x7f) return "^?";
	return code > 0x7f ? unicodeMarker(code) : String.fromCharCode(code);
});

function visible(match: string, offset: number, text: string): string {
	if (match === "\r\n") return "\n";
	const code = match.codePointAt(0) as number;
	if (code < 0xa0) return match.length > 1 ? "" : LOW_CONTROLS[code];
	if (keptInEmoji(text, offset)) return match;
	// A byte-order mark that opens the text is a file's encoding mark, not hidden content.
	if (code === 0xfeff && offset === 0) return "";
	return unicodeMarker(code);
}

/**
 * Makes outside text safe and honest to print: every ESC, C0 and C1 control becomes visible (`^[`,
 * `^G`, `⟪U+009D⟫`), so an unterminated OSC or a stray U+009D hides nothing after it; every
 * default-ignorable character (bidi controls, zero-width, variation selectors, tags, fillers) becomes a
 * `⟪U+202E⟫` marker, but for a joiner or variation selector inside an emoji; CRLF becomes LF and a tab four spaces (Ink measures
 * a tab as one cell); complete SGR colour codes are dropped. Newlines and wide characters pass.
 */
export function sanitizeTerminalText(text: string): string {
	if (!needsWork(text)) return text;
	return text.replace(SLOW, visible);
}

/**
 * For a document the user will read with `cat` or a viewer (an export): as `sanitizeTerminalText`, but
 * tabs stay tabs, since a file is not measured by Ink and code keeps its indentation.
 */
export function sanitizeDocumentText(text: string): string {
	if (!needsWork(text)) return text;
	return text.split("\t").map(sanitizeTerminalText).join("\t");
}
