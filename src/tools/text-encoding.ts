// Line endings and the UTF-8 byte-order mark. The model always sees "\n" text without a BOM; `edit`
// puts the file's own conventions back when it writes, so a CRLF file stays CRLF.

export type LineEnding = "\n" | "\r\n";

export interface DecodedText {
	/** The text with "\n" line endings and no BOM. */
	text: string;
	lineEnding: LineEnding;
	hasBom: boolean;
}

/** Splits a file's text into what the model sees and the conventions needed to write it back. */
export function decodeText(raw: string): DecodedText {
	const hasBom = raw.charCodeAt(0) === 0xfeff;
	const body = hasBom ? raw.slice(1) : raw;
	const firstLf = body.indexOf("\n");
	const lineEnding: LineEnding = firstLf > 0 && body[firstLf - 1] === "\r" ? "\r\n" : "\n";
	return { text: normalizeLineEndings(body), lineEnding, hasBom };
}

/** Re-applies the line ending and BOM taken off by `decodeText`. */
export function encodeText(text: string, lineEnding: LineEnding, hasBom: boolean): string {
	const body = lineEnding === "\r\n" ? text.replace(/\n/g, "\r\n") : text;
	return hasBom ? `\ufeff${body}` : body;
}

export function normalizeLineEndings(text: string): string {
	return text.replace(/\r\n/g, "\n");
}
