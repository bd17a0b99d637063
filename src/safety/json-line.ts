// JSON lines for clients that may print what they read (json and rpc modes). JSON.stringify escapes C0
// controls but leaves DEL, the C1 controls U+0080–U+009F (U+009B is a one-byte CSI to many terminals)
// and U+2028/U+2029 (line breaks to JavaScript parsers) raw; here they leave as `\u00XX` escapes. Only
// string contents can hold such characters, so escaping the whole line changes no structure.

const HAS_RAW_CONTROL = /[\x7f-\x9f\u2028\u2029]/;
const RAW_CONTROL = /[\x7f-\x9f\u2028\u2029]/g;

function unicodeEscape(ch: string): string {
	return `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** `value` as one JSON line (no newline), with no raw control character in it. */
export function toJsonLine(value: unknown): string {
	const text = JSON.stringify(value);
	return HAS_RAW_CONTROL.test(text) ? text.replace(RAW_CONTROL, unicodeEscape) : text;
}
