// The seam through which permission deny rules reach the tools that walk folders (grep, find, ls):
// the session passes one check per tool, the tools ask it for every entry by real path, skip what it
// denies and say how many entries they left out. Without a check (no such rules) nothing is asked.
import { realpath } from "node:fs/promises";
import { join } from "node:path";

/**
 * The text of the rule that hides `realPath` (symlinks resolved) from this tool, or undefined. For a
 * folder, a hit hides everything in it.
 */
export type PathDenial = (realPath: string, isDirectory: boolean) => string | undefined;

/** Which entries a walk left out, counted for the note. */
export interface HiddenCount {
	count: number;
}

/**
 * The rule hiding an entry found in the real folder `realFolder`: by where it is, and for a symlink
 * also by where it leads (a link to `.env` is `.env`). Undefined when it may be shown.
 */
export async function entryDenial(
	denied: PathDenial,
	realFolder: string,
	name: string,
	isDirectory: boolean,
	isSymlink: boolean,
	absolutePath: string,
): Promise<string | undefined> {
	const here = denied(join(realFolder, name), isDirectory);
	if (here || !isSymlink) return here;
	const target = await realpath(absolutePath).catch(() => undefined);
	return target === undefined ? undefined : denied(target, isDirectory);
}

/** The one error for a call whose own path a rule denies (the gate refuses it first; this holds without it). */
export function deniedPathError(verb: string, displayPath: string, rule: string): Error {
	return new Error(`Cannot ${verb} ${displayPath}: it is denied by the rule "${rule}"`);
}

/** The note under a result that left entries out. */
export function hiddenNote(hidden: HiddenCount, what: string): string | undefined {
	if (hidden.count === 0) return undefined;
	return `${hidden.count} ${hidden.count === 1 ? what : plural(what)} hidden by permissions.deny rules`;
}

function plural(word: string): string {
	return word.endsWith("y") ? `${word.slice(0, -1)}ies` : `${word}s`;
}
