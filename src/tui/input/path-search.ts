// The `@` fuzzy search over the project's paths, built so that no key waits for it. A query that
// extends the one before filters only the earlier query's matches (a path that matches "abc" matches
// "ab"), and the match lists of the query's prefixes are kept, so Backspace is instant. Work is done in
// slices of a few milliseconds: the first slice runs on the key, the rest between keys; a new query
// cancels the old one's slices. Until a search completes, the best matches of the longest prefix
// searched (else those shown last) that still match are offered. Nothing here grows with the session: the kept lists are one per character of the
// current query.
import { loweredScore, TopMatches } from "./fuzzy.js";

/** One listing of the project (path-list.ts keeps it compact). */
export interface SearchablePaths {
	readonly size: number;
	/** The path at `index`. */
	path(index: number): string;
	/** fuzzy.ts's score of lower-cased `query` against the path at `index`, undefined when it does not match. */
	score(query: string, index: number): number | undefined;
}

export interface PathSearchOptions {
	/** Matches returned at most. */
	limit: number;
	/** Called when a search finished between keys (the app re-renders to show it). */
	onUpdate: () => void;
	/** Milliseconds of matching per slice. */
	sliceMs?: number;
	/** Runs the next slice after pending input: setImmediate. */
	later?: (run: () => void) => void;
	now?: () => number;
}

/** Matching `query` (lower-cased) against `candidates` (indices into the listing; all when undefined). */
interface Search {
	query: string;
	candidates: readonly number[] | undefined;
	next: number;
	matches: number[];
	top: TopMatches;
}

/** A query's complete result: every matching index, and the best `limit` of them. */
interface Narrowed {
	query: string;
	matches: readonly number[];
	best: string[];
}

/** Items matched between two looks at the clock. */
const CLOCK_EVERY = 128;

export class PathSearch {
	private readonly sliceMs: number;
	private readonly later: (run: () => void) => void;
	private readonly now: () => number;
	private listing: SearchablePaths | undefined;
	/** Complete results of prefixes of the last query, shortest first. */
	private narrowed: Narrowed[] = [];
	private running: Search | undefined;
	/** What was last returned, for the next query to start from while its search runs. */
	private shown: string[] = [];

	constructor(private readonly options: PathSearchOptions) {
		this.sliceMs = options.sliceMs ?? 2;
		this.later = options.later ?? setImmediate;
		this.now = options.now ?? (() => performance.now());
	}

	/** The best matches of `query` in `listing` known now: complete, or provisional while a search runs. */
	find(query: string, listing: SearchablePaths): string[] {
		const q = query.toLowerCase();
		if (listing !== this.listing) {
			this.listing = listing;
			this.narrowed = [];
			this.running = undefined;
		}
		while (this.narrowed.length > 0 && !q.startsWith((this.narrowed[this.narrowed.length - 1] as Narrowed).query)) this.narrowed.pop();
		const known = this.narrowed[this.narrowed.length - 1];
		if (known?.query === q) return this.show(known.best);
		if (this.running?.query === q) return this.shown;
		const search: Search = { query: q, candidates: known?.matches, next: 0, matches: [], top: new TopMatches(this.options.limit) };
		this.running = search;
		if (this.step(search)) return this.show((this.narrowed[this.narrowed.length - 1] as Narrowed).best);
		this.later(() => this.resume(search));
		return this.show(this.provisional(q, known?.best ?? this.shown));
	}

	/** Whether a search is still running between keys (what `find` returned is provisional). */
	searching(): boolean {
		return this.running !== undefined;
	}

	private show(paths: string[]): string[] {
		this.shown = paths;
		return paths;
	}

	/** Earlier matches that still match `q`, ranked for it: a subset of the answer, at once. */
	private provisional(q: string, earlier: readonly string[]): string[] {
		const top = new TopMatches(this.options.limit);
		for (const path of earlier) {
			const score = loweredScore(q, path, path.toLowerCase());
			if (score !== undefined) top.offer(path, score);
		}
		return top.paths();
	}

	private resume(search: Search): void {
		if (this.running !== search) return; // cancelled by a newer query or listing
		if (!this.step(search)) {
			this.later(() => this.resume(search));
			return;
		}
		this.shown = (this.narrowed[this.narrowed.length - 1] as Narrowed).best;
		this.options.onUpdate();
	}

	/** Matches for one slice; true when the search is complete (its result kept). */
	private step(search: Search): boolean {
		const listing = this.listing as SearchablePaths;
		const { candidates, matches, top, query } = search;
		const end = candidates ? candidates.length : listing.size;
		const deadline = this.now() + this.sliceMs;
		let i = search.next;
		while (i < end) {
			const stop = Math.min(end, i + CLOCK_EVERY);
			for (; i < stop; i++) {
				const at = candidates ? (candidates[i] as number) : i;
				const score = listing.score(query, at);
				if (score === undefined) continue;
				matches.push(at);
				// The path's string only for a match that may show.
				if (top.admits(score)) top.offer(listing.path(at), score);
			}
			if (i < end && this.now() >= deadline) {
				search.next = i;
				return false;
			}
		}
		this.running = undefined;
		this.narrowed.push({ query, matches, best: top.paths() });
		return true;
	}
}
