// The `@` index's paths, kept compactly: 1,024 at a time joined into one string, with a lower-cased
// twin and the offsets where each path starts. A 70,000-path listing kept as 140,000 small strings
// (each path and its lower-cased copy) made every young-generation garbage collection during the
// listing copy them all, pausing the app 10-30 ms at a time; joined, they are ~70 strings. A path is
// scored through slices of the joined strings (no copy; they die young, which costs a collection
// nothing), so the native string searches stay within the path.
import { loweredScore } from "./fuzzy.js";
import type { SearchablePaths } from "./path-search.js";

/** Paths per segment (a power of two: a path's segment is its index shifted). */
const SEGMENT_BITS = 10;
const SEGMENT = 1 << SEGMENT_BITS;

interface Segment {
	/** The paths joined with "\0". */
	text: string;
	/** `text` lower-cased, character for character (so offsets hold in both). */
	lower: string;
	/** Where each path starts in `text`, and one more: where the next would (past the "\0"). */
	starts: Uint32Array;
}

/**
 * `path` lower-cased with its offsets kept: a character whose lower case is longer ("İ" is "i" and a
 * combining dot) gives its first characters only, one whose lower case is shorter stays as it is.
 */
export function alignedLower(path: string): string {
	const lower = path.toLowerCase();
	if (lower.length === path.length) return lower;
	return Array.from(path, (ch) => {
		const low = ch.toLowerCase();
		return low.length >= ch.length ? low.slice(0, ch.length) : ch;
	}).join("");
}

export class PathList implements SearchablePaths {
	private readonly segments: Segment[] = [];
	/** Paths not joined yet (fewer than a segment). */
	private pending: string[] = [];
	private count = 0;
	private finished = false;

	/** A finished list of `paths`. */
	static of(paths: readonly string[]): PathList {
		const list = new PathList();
		list.append(paths);
		return list.finish();
	}

	get size(): number {
		return this.count;
	}

	/** Adds paths at the end. */
	append(paths: readonly string[]): void {
		for (const path of paths) this.push(path);
	}

	/** Adds a path at the end; a full segment's worth is joined at once. */
	push(path: string): void {
		if (this.finished) throw new Error("PathList: push after finish");
		this.count++;
		this.pending.push(path);
		if (this.pending.length === SEGMENT) this.seal();
	}

	/** Joins what is pending: the list is complete (nothing is appended after). */
	finish(): this {
		// Only the last segment may be short: a path's segment is found by shifting its index.
		this.finished = true;
		if (this.pending.length > 0) this.seal();
		return this;
	}

	/** The path at `index` (0 ≤ index < size, after finish). */
	path(index: number): string {
		const segment = this.segments[index >> SEGMENT_BITS] as Segment;
		const k = index & (SEGMENT - 1);
		return segment.text.slice(segment.starts[k], (segment.starts[k + 1] as number) - 1);
	}

	/** fuzzy.ts's score of lower-cased `query` against the path at `index`. */
	score(query: string, index: number): number | undefined {
		const { text, lower, starts } = this.segments[index >> SEGMENT_BITS] as Segment;
		const k = index & (SEGMENT - 1);
		const start = starts[k] as number;
		const end = (starts[k + 1] as number) - 1;
		// Slices of the joined strings (no copies), which die young: the native searches stay within the path.
		const path = text.slice(start, end);
		return loweredScore(query, path, lower === text ? path : lower.slice(start, end));
	}

	/** Whether `other` holds the same paths in the same order. */
	sameAs(other: SearchablePaths | undefined): boolean {
		if (!(other instanceof PathList) || other.size !== this.size) return false;
		return this.segments.every((segment, i) => segment.text === other.segments[i]?.text);
	}

	private seal(): void {
		const paths = this.pending;
		this.pending = [];
		const starts = new Uint32Array(paths.length + 1);
		let at = 0;
		for (let k = 0; k < paths.length; k++) {
			starts[k] = at;
			at += (paths[k] as string).length + 1;
		}
		starts[paths.length] = at;
		const text = paths.join("\0");
		// Lower-cased whole when no character changes length (almost always), else path by path.
		const lower = text.toLowerCase();
		this.segments.push({ text, lower: lower.length === text.length ? lower : paths.map(alignedLower).join("\0"), starts });
	}
}
