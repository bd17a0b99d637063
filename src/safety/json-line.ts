// JSON lines for clients that may print what they read (json and rpc modes). JSON.stringify escapes C0
// controls but leaves DEL, the C1 controls U+0080–U+009F (U+009B is a one-byte CSI to many terminals)
// and U+2028/U+2029 (line breaks to JavaScript parsers) raw; here they leave as `\u00XX` escapes. Only
// string contents can hold such characters, so escaping the whole line changes no structure. Bidi
// controls, zero-width and tag characters leave escaped too (`\u202e`): a client that prints a line
// as it is would otherwise show text reordered or hidden; escaped, the value parses back the same.

import { invisibleFastTest, invisibleSource, keptInEmoji } from "./invisible.js";

/** DEL, C1 and the JavaScript line breaks; with them every invisible character (see invisible.ts). */
const RAW = "\\x7f-\\x9f\\u2028\\u2029";
const hasRawControl = invisibleFastTest(RAW);
/** An astral character (a tag, U+E0041) is a surrogate pair: each half escaped. */
const RAW_CONTROL = new RegExp(invisibleSource(RAW), "g");

function unicodeEscape(match: string, offset: number, text: string): string {
	// A joiner or variation selector inside an emoji is part of a visible glyph and stays as it is.
	if (keptInEmoji(text, offset)) return match;
	let out = "";
	for (let i = 0; i < match.length; i++) out += `\\u${match.charCodeAt(i).toString(16).padStart(4, "0")}`;
	return out;
}

/** `value` as one JSON line (no newline), with no raw control or invisible character in it. */
export function toJsonLine(value: unknown): string {
	const text = JSON.stringify(value);
	return hasRawControl(text) ? text.replace(RAW_CONTROL, unicodeEscape) : text;
}
