// What is wrong with a config file, said once at start: a TUI notice, or one stderr line in print, json
// and rpc. Loaders that run before the modes start (models.json, auth.json, settings.json) return their
// problems; a loader elsewhere (keybindings.json in the UI) calls `reportConfigProblem`, and the mode
// shows what was reported when it starts.

export interface ConfigProblem {
	/** The file, as a path the user can open. */
	file: string;
	/** The field path inside it (`providers.loc.api`), when one field is at fault. */
	field?: string;
	/** What is wrong and, where it helps, what to do. */
	problem: string;
	/** The provider whose configuration this problem broke, so choosing its model can name it. */
	provider?: string;
}

/** `<file>: <field>: <problem>`, one line. */
export function formatConfigProblem(p: ConfigProblem): string {
	return `${p.file}: ${p.field ? `${p.field}: ` : ""}${p.problem}`;
}

const reported: ConfigProblem[] = [];

/** For loaders outside the start-up path: the problem is shown when the mode starts (or next). */
export function reportConfigProblem(problem: ConfigProblem): void {
	const line = formatConfigProblem(problem);
	if (!reported.some((p) => formatConfigProblem(p) === line)) reported.push(problem);
}

/** The problems reported so far, each returned once. */
export function takeReportedConfigProblems(): ConfigProblem[] {
	return reported.splice(0);
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`, compared case-insensitively. */
function editDistance(a: string, b: string): number {
	const x = a.toLowerCase();
	const y = b.toLowerCase();
	let before: number[] = [];
	let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
	for (let i = 1; i <= x.length; i++) {
		const row = [i];
		for (let j = 1; j <= y.length; j++) {
			const cost = x[i - 1] === y[j - 1] ? 0 : 1;
			row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
			if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) row[j] = Math.min(row[j], before[j - 2] + 1);
		}
		before = previous;
		previous = row;
	}
	return previous[y.length];
}

/**
 * The name in `names` closest to a misspelt `word`, for a "did you mean" instead of listing every
 * name; undefined when none is within max(2, a third of the word's length) edits.
 */
export function closestName(word: string, names: readonly string[]): string | undefined {
	const limit = Math.max(2, Math.floor(word.length / 3));
	let best: { name: string; distance: number } | undefined;
	for (const name of names) {
		const distance = editDistance(word, name);
		if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
	}
	return best?.name;
}
