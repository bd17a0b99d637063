// How the search tools (`find`, `grep`, `ls`) hand a list to the model: whole lines under the byte cap,
// then what was left out as one bracketed line of notes after a blank line, each note saying how to
// get more.
import { DEFAULT_MAX_BYTES, formatSize, truncateHead } from "./truncate.js";

/** The note for a listing cut by `capListing`. */
export const LISTING_CUT_NOTE = `Output cut at ${formatSize(DEFAULT_MAX_BYTES)}`;

/** `lines` joined, keeping only the whole lines that fit in `DEFAULT_MAX_BYTES`. */
export function capListing(lines: string[]): { text: string; cut: boolean } {
	const truncation = truncateHead(lines.join("\n"), { maxLines: Number.POSITIVE_INFINITY, maxBytes: DEFAULT_MAX_BYTES });
	return { text: truncation.content, cut: truncation.truncated };
}

/** The note for a search stopped by its `limit` (`what` names the counted things: "results", "matches"). */
export function limitNote(limit: number, what: string): string {
	return `${limit} ${what} limit reached. Use limit=${limit * 2} for more, or refine the pattern`;
}

/** `text` followed by the notes as one bracketed line; `text` alone when there are none. */
export function withNotes(text: string, notes: string[]): string {
	return notes.length > 0 ? `${text}\n\n[${notes.join(". ")}]` : text;
}
