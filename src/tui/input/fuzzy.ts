// Fuzzy path matching for `@` completion, as editors' file pickers do: the query's characters must
// appear in order (case-insensitive); matches at the start of a path segment or a word, and runs of
// consecutive characters, score higher; among equal scores the shorter path wins.

/** Score of `query` against `path` (higher is better), or undefined when it does not match. */
export function fuzzyScore(query: string, path: string): number | undefined {
	return loweredScore(query.toLowerCase(), path, path.toLowerCase());
}

/**
 * fuzzyScore with the query and the path already lower-cased (`lowerPath` is `path.toLowerCase()`):
 * the `@` index lower-cases each path once, not on every key.
 */
export function loweredScore(q: string, path: string, p: string): number | undefined {
	if (q === "") return 0;
	const baseStart = path.lastIndexOf("/", path.length - 2) + 1;
	let score = 0;
	let from = 0;
	let previous = -2;
	for (let i = 0; i < q.length; i++) {
		const at = p.indexOf(q[i] as string, from);
		if (at === -1) return undefined;
		const before = path[at - 1];
		if (at === 0 || before === "/") score += 10;
		else if (before === "-" || before === "_" || before === "." || before === " ") score += 6;
		else if (path[at] !== p[at] && before === p[at - 1]) score += 6; // camelCase hump
		if (at === previous + 1) score += 5;
		if (at >= baseStart) score += 2;
		previous = at;
		from = at + 1;
	}
	// Gaps cost a little; the whole query in the file name is best.
	if (p.slice(baseStart).includes(q)) score += 15;
	return score - path.length * 0.1;
}

interface Scored {
	path: string;
	score: number;
}

/** Best first: higher score, then the shorter path, then name order. */
const better = (a: Scored, b: Scored): number =>
	b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The best `limit` paths offered so far, kept in order: the same as sorting them all and cutting. */
export class TopMatches {
	private readonly kept: Scored[] = [];

	constructor(private readonly limit: number) {}

	/** Whether a path of `score` could be kept (a tie is decided by the path): the caller makes its string only then. */
	admits(score: number): boolean {
		return this.kept.length < this.limit || score >= (this.kept[this.kept.length - 1] as Scored).score;
	}

	offer(path: string, score: number): void {
		const entry = { path, score };
		const kept = this.kept;
		if (kept.length >= this.limit && better(entry, kept[kept.length - 1] as Scored) >= 0) return;
		let at = kept.length;
		while (at > 0 && better(entry, kept[at - 1] as Scored) < 0) at--;
		kept.splice(at, 0, entry);
		if (kept.length > this.limit) kept.pop();
	}

	paths(): string[] {
		return this.kept.map((s) => s.path);
	}
}

/** The best `limit` of `paths` for `query`, best first. */
export function fuzzyFilter(query: string, paths: readonly string[], limit: number): string[] {
	const q = query.toLowerCase();
	const top = new TopMatches(limit);
	for (const path of paths) {
		const score = loweredScore(q, path, path.toLowerCase());
		if (score !== undefined) top.offer(path, score);
	}
	return top.paths();
}
