// Text from the model, tools, files and servers reaches a terminal only through here. An escape sequence
// from outside could move the cursor into our frame, retitle the window, write the clipboard (OSC 52),
// switch screens or make the terminal type a reply (`ESC[6n`); a bidi override or a zero-width character
// could make the user read something other than what the model reads. So nothing is ever swallowed:
// every control is shown as a visible marker and the text around it stays. The one thing removed is a
// complete SGR colour code (`ESC[31m`): it can carry no text (digits and `;` only) and tools print them.

const TAB = "    ";

/** Any character the slow path may change; plain text (nearly every token) skips the regex work. */
const NEEDS_WORK =
	/[\x00-\x09\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\udb40]/;

/**
 * In order: an SGR colour code (removed), CRLF (made LF), a Unicode tag character (U+E0000–U+E007F, the
 * invisible "ASCII smuggling" alphabet), then one control or invisible character (made visible).
 */
const SLOW =
	/(?:\x1b\[|\x9b)[0-9;:]*m|\r\n|\udb40[\udc00-\udc7f]|[\x00-\x09\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;

/** `⟪U+202E⟫`: the code point named, one visible cell per character, as GitHub flags hidden Unicode. */
export function unicodeMarker(codePoint: number): string {
	return `⟪U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}⟫`;
}

/** A ZWJ between two emoji builds one glyph (👨‍👩‍👧); anywhere else it hides a boundary. */
function joinsEmoji(text: string, at: number): boolean {
	let before = at - 1;
	// Skip a variation selector-16 and a skin-tone modifier (a surrogate pair) before the joiner.
	if (text.charCodeAt(before) === 0xfe0f) before--;
	if (text.charCodeAt(before - 1) === 0xd83c && isBetween(text.charCodeAt(before), 0xdffb, 0xdfff)) before -= 2;
	// Step to the first half of a surrogate pair.
	if (isBetween(text.charCodeAt(before), 0xdc00, 0xdfff) && isBetween(text.charCodeAt(before - 1), 0xd800, 0xdbff)) before--;
	const previous = before >= 0 ? text.codePointAt(before) : undefined;
	const next = text.codePointAt(at + 1);
	if (previous === undefined || next === undefined) return false;
	return PICTOGRAPHIC.test(String.fromCodePoint(previous)) && PICTOGRAPHIC.test(String.fromCodePoint(next));
}

function isBetween(code: number, low: number, high: number): boolean {
	return code >= low && code <= high;
}

/** Replacements of C0, DEL and C1, built once: caret notation for C0 and DEL (`^[` is ESC), markers for C1. */
const LOW_CONTROLS: string[] = Array.from({ length: 0xa0 }, (_, code) => {
	if (code === 0x09) return TAB;
	if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
	if (code === 0x7f) return "^?";
	return code > 0x7f ? unicodeMarker(code) : String.fromCharCode(code);
});

function visible(match: string, offset: number, text: string): string {
	if (match.length > 1) {
		if (match === "\r\n") return "\n";
		const code = match.codePointAt(0) as number;
		return code >= 0xe0000 ? unicodeMarker(code) : "";
	}
	const code = match.charCodeAt(0);
	if (code < 0xa0) return LOW_CONTROLS[code];
	if (code === 0x200d && joinsEmoji(text, offset)) return match;
	// A byte-order mark that opens the text is a file's encoding mark, not hidden content.
	if (code === 0xfeff && offset === 0) return "";
	return unicodeMarker(code);
}

/**
 * Makes outside text safe and honest to print: every ESC, C0 and C1 control becomes visible (`^[`,
 * `^G`, `⟪U+009D⟫`), so an unterminated OSC or a stray U+009D hides nothing after it; bidi controls and
 * zero-width characters become `⟪U+202E⟫` markers; CRLF becomes LF and a tab four spaces (Ink measures
 * a tab as one cell); complete SGR colour codes are dropped. Newlines and wide characters pass.
 */
export function sanitizeTerminalText(text: string): string {
	if (!NEEDS_WORK.test(text)) return text;
	return text.replace(SLOW, visible);
}

/**
 * For a document the user will read with `cat` or a viewer (an export): as `sanitizeTerminalText`, but
 * tabs stay tabs, since a file is not measured by Ink and code keeps its indentation.
 */
export function sanitizeDocumentText(text: string): string {
	if (!NEEDS_WORK.test(text)) return text;
	return text.split("\t").map(sanitizeTerminalText).join("\t");
}
