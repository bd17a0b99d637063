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

/** `capListing` of `lines` sorted as strings, sorting only the lines that can show (`lines` is left as it is). */
export function capSortedListing(lines: readonly string[]): { text: string; cut: boolean } {
	return capListing(sortedHead(lines, DEFAULT_MAX_BYTES + 1));
}

/** Under this many lines, sorting them all costs about what choosing the few would. */
const SORT_ALL_UNDER = 4096;

/**
 * The first lines of `lines` sorted: all of them, or a sorted prefix of the whole whose lines take more
 * than `budget` bytes with a newline each (so capListing shows of it what it would of the whole). Found
 * as quickselect finds a rank: the lines below a pivot either take more than the budget (the rest cannot
 * show) or all show, and then the search goes on among the rest.
 */
function sortedHead(lines: readonly string[], budget: number): string[] {
	const head: string[] = [];
	let pool = lines;
	for (;;) {
		if (pool.length < SORT_ALL_UNDER) return head.concat([...pool].sort());
		const pivot = pivotFor(pool, budget);
		const below = pool.filter((line) => line < pivot);
		if (below.length === 0) return head.concat([...pool].sort());
		let bytes = 0;
		for (const line of below) bytes += Buffer.byteLength(line, "utf8") + 1;
		if (bytes > budget) {
			pool = below;
			continue;
		}
		below.sort();
		for (const line of below) head.push(line);
		budget -= bytes;
		pool = pool.filter((line) => line >= pivot);
	}
}

/** A line of `pool` below which about twice the lines that fit in `budget` lie, judged from a sample. */
function pivotFor(pool: readonly string[], budget: number): string {
	const SAMPLES = 64;
	const sample = Array.from({ length: SAMPLES }, (_, i) => pool[Math.floor((i * pool.length) / SAMPLES)] as string).sort();
	const meanBytes = sample.reduce((sum, line) => sum + line.length + 1, 0) / SAMPLES;
	const share = (2 * budget) / meanBytes / pool.length;
	return sample[Math.min(SAMPLES - 1, Math.ceil(share * SAMPLES))] as string;
}

/** The note for a search stopped by its `limit` (`what` names the counted things: "results", "matches"). */
export function limitNote(limit: number, what: string): string {
	return `${limit} ${what} limit reached. Use limit=${limit * 2} for more, or refine the pattern`;
}

/** `text` followed by the notes as one bracketed line; `text` alone when there are none. */
export function withNotes(text: string, notes: string[]): string {
	return notes.length > 0 ? `${text}\n\n[${notes.join(". ")}]` : text;
}
