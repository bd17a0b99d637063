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
