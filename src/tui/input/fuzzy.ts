// Fuzzy path matching for `@` completion, as editors' file pickers do: the query's characters must
// appear in order (case-insensitive); matches at the start of a path segment or a word, and runs of
// consecutive characters, score higher; among equal scores the shorter path wins.

/** Score of `query` against `path` (higher is better), or undefined when it does not match. */
export function fuzzyScore(query: string, path: string): number | undefined {
	if (query === "") return 0;
	const q = query.toLowerCase();
	const p = path.toLowerCase();
	const baseStart = path.lastIndexOf("/", path.length - 2) + 1;
	let score = 0;
	let from = 0;
	let previous = -2;
	for (let i = 0; i < q.length; i++) {
		const at = p.indexOf(q[i], from);
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

/** The best `limit` of `paths` for `query`, best first. */
export function fuzzyFilter(query: string, paths: readonly string[], limit: number): string[] {
	const scored: { path: string; score: number }[] = [];
	for (const path of paths) {
		const score = fuzzyScore(query, path);
		if (score !== undefined) scored.push({ path, score });
	}
	scored.sort((a, b) => b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : 1));
	return scored.slice(0, limit).map((s) => s.path);
}
