// JSON lines for clients that may print what they read (json and rpc modes). JSON.stringify escapes C0
// controls but leaves DEL, the C1 controls U+0080–U+009F (U+009B is a one-byte CSI to many terminals)
// and U+2028/U+2029 (line breaks to JavaScript parsers) raw; here they leave as `\u00XX` escapes. Only
// string contents can hold such characters, so escaping the whole line changes no structure. Bidi
// controls, zero-width and tag characters leave escaped too (`\u202e`): a client that prints a line
// as it is would otherwise show text reordered or hidden; escaped, the value parses back the same.

/** The characters escaped; a tag character (U+E0000–U+E007F) is a surrogate pair, each half escaped. */
const HAS_RAW_CONTROL =
	/[\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/;
const RAW_CONTROL = new RegExp(HAS_RAW_CONTROL.source, "g");

function unicodeEscape(match: string): string {
	let out = "";
	for (let i = 0; i < match.length; i++) out += `\\u${match.charCodeAt(i).toString(16).padStart(4, "0")}`;
	return out;
}

/** `value` as one JSON line (no newline), with no raw control character in it. */
export function toJsonLine(value: unknown): string {
	const text = JSON.stringify(value);
	return HAS_RAW_CONTROL.test(text) ? text.replace(RAW_CONTROL, unicodeEscape) : text;
}
