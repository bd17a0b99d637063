// How the search tools (`find`, `grep`, `ls`) hand a list to the model: whole lines under the byte cap,
// then what was left out as one bracketed line of notes after a blank line, each note saying how to
// get more.
import { DEFAULT_MAX_BYTES, formatSize } from "./truncate.js";

/** The note for a listing cut by `capListing`. */
export const LISTING_CUT_NOTE = `Output cut at ${formatSize(DEFAULT_MAX_BYTES)}`;

/** `lines` joined, keeping only the whole lines that fit in `DEFAULT_MAX_BYTES`. */
export function capListing(lines: string[]): { text: string; cut: boolean } {
	// Counted line by line: a listing of 100,000 paths is not joined whole to keep its first 50 KB.
	let bytes = -1; // no newline before the first line
	let count = 0;
	for (; count < lines.length; count++) {
		const next = bytes + 1 + Buffer.byteLength(lines[count] as string, "utf8");
		if (next > DEFAULT_MAX_BYTES) break;
		bytes = next;
	}
	return { text: lines.slice(0, count).join("\n"), cut: count < lines.length };
}

/** The note for a search stopped by its `limit` (`what` names the counted things: "results", "matches"). */
export function limitNote(limit: number, what: string): string {
	return `${limit} ${what} limit reached. Use limit=${limit * 2} for more, or refine the pattern`;
}

/** `text` followed by the notes as one bracketed line; `text` alone when there are none. */
export function withNotes(text: string, notes: string[]): string {
	return notes.length > 0 ? `${text}\n\n[${notes.join(". ")}]` : text;
}
