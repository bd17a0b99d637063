// Terminal cell widths, for budgeting the live region's rows: wide characters (CJK, most emoji) take two
// cells, combining marks none. An approximation of wcwidth that is right for the text we meet.

function cellWidth(code: number): number {
	if (code < 0x300) return 1;
	if ((code >= 0x300 && code <= 0x36f) || (code >= 0x200b && code <= 0x200f) || code === 0xfe0f) return 0;
	if (
		(code >= 0x1100 && code <= 0x115f) ||
		(code >= 0x2e80 && code <= 0xa4cf) ||
		(code >= 0xac00 && code <= 0xd7a3) ||
		(code >= 0xf900 && code <= 0xfaff) ||
		(code >= 0xfe30 && code <= 0xfe4f) ||
		(code >= 0xff00 && code <= 0xff60) ||
		(code >= 0xffe0 && code <= 0xffe6) ||
		(code >= 0x1f300 && code <= 0x1f64f) ||
		(code >= 0x1f900 && code <= 0x1f9ff) ||
		(code >= 0x20000 && code <= 0x3fffd)
	)
		return 2;
	return 1;
}

/** Where the run that starts at `start` ends: of spaces, or of anything else (wrapping's words and gaps). */
export function runEnd(text: string, start: number): number {
	const space = text.charCodeAt(start) === 32;
	let end = start + 1;
	while (end < text.length && (text.charCodeAt(end) === 32) === space) end++;
	return end;
}

/**
 * Cells `text` takes. A loop over char codes, not `for…of` over code points: every row of every frame is
 * measured, and the string iterator cost an object and a call per character. A surrogate pair is one
 * code point; a lone surrogate counts as the one cell the iterator gave it.
 */
export function displayWidth(text: string): number {
	let width = 0;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x300) width++;
		else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
			const low = text.charCodeAt(i + 1);
			if (low >= 0xdc00 && low <= 0xdfff) {
				width += cellWidth(0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00));
				i++;
			} else width += cellWidth(code);
		} else width += cellWidth(code);
	}
	return width;
}

/** Splits one line (no newlines) into rows of at most `columns` cells, never splitting a character. */
export function wrapLine(line: string, columns: number): string[] {
	if (columns <= 0) return [line];
	if (line.length <= columns && displayWidth(line) <= columns) return [line];
	const rows: string[] = [];
	let row = "";
	let width = 0;
	for (const ch of line) {
		const w = cellWidth(ch.codePointAt(0)!);
		if (width + w > columns) {
			rows.push(row);
			row = "";
			width = 0;
		}
		row += ch;
		width += w;
	}
	rows.push(row);
	return rows;
}

/**
 * The last `maxRows` terminal rows of `text`, wrapped at `columns`. Works backwards from the end, so
 * the cost depends on the rows shown, not on the length of the text.
 */
export function lastRows(text: string, columns: number, maxRows: number): string[] {
	const out: string[] = [];
	let end = text.length;
	while (out.length < maxRows && end >= 0) {
		const start = text.lastIndexOf("\n", end - 1) + 1;
		// A single huge line: wrap only its last part.
		const from = Math.max(start, end - columns * maxRows * 2);
		const rows = wrapLine(text.slice(from, end), columns);
		for (let i = rows.length - 1; i >= 0 && out.length < maxRows; i--) out.push(rows[i]);
		if (start === 0) break;
		end = start - 1;
	}
	return out.reverse();
}
