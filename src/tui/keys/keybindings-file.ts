// The user's key table: ~/.config/rudder/keybindings.json maps actions to a key or a list of keys, each
// replacing that action's defaults ([] unbinds it). Every bad entry (an unknown action, a key that does
// not parse, a key bound to two actions in one context) is one config problem naming the file and the
// entry, with the closest action or key name as a suggestion; the good entries are kept, so one typo
// does not cost the user the rest of their table. Only a file that is not an object at all falls back
// to the defaults as a whole.
//
//   { "submit": "ctrl+s", "newline": ["enter", "shift+enter"], "externalEditor": [] }
import { readFileSync } from "node:fs";
import type { ConfigProblem } from "../../config/problems.js";
import {
	ACTION_NAMES,
	type Action,
	buildKeyBindings,
	DEFAULT_KEY_BINDINGS,
	didYouMean,
	type KeyBindings,
	type KeyOverrides,
	parseKey,
} from "./keybindings.js";

export interface LoadedKeyBindings {
	bindings: KeyBindings;
	/** What was wrong, one problem per bad entry (the entries not named are in effect). */
	problems: ConfigProblem[];
}

const isAction = (name: string): name is Action => (ACTION_NAMES as string[]).includes(name);

const KEPT = "the other entries are kept";

/** One entry's keys in canonical form, or what is wrong with them. */
function entryKeys(value: unknown): { keys: string[] } | { problem: string } {
	const list = typeof value === "string" ? [value] : value;
	if (!Array.isArray(list) || !list.every((k) => typeof k === "string")) {
		return { problem: 'expected a key such as "ctrl+s", or a list of keys' };
	}
	const keys: string[] = [];
	for (const text of list) {
		const parsed = parseKey(text);
		if ("error" in parsed) return { problem: `"${text}": ${parsed.error}` };
		keys.push(text);
	}
	return { keys };
}

/**
 * Keeps the largest set of entries that build a consistent table, in passes: an entry that clashes
 * with a default may become valid once a later entry moves that default away.
 */
function keepConsistent(candidates: [Action, string[]][], file: string, problems: ConfigProblem[]): KeyBindings {
	const kept: KeyOverrides = {};
	let pending = candidates;
	let progress = true;
	while (pending.length > 0 && progress) {
		progress = false;
		const next: [Action, string[]][] = [];
		for (const [action, keys] of pending) {
			if ("bindings" in buildKeyBindings({ ...kept, [action]: keys })) {
				kept[action] = keys;
				progress = true;
			} else next.push([action, keys]);
		}
		pending = next;
	}
	for (const [action, keys] of pending) {
		const built = buildKeyBindings({ ...kept, [action]: keys });
		const why = "errors" in built ? built.errors[0] : "conflicts with another entry";
		problems.push({ file, field: action, problem: `${why}; its default keys stay, ${KEPT}` });
	}
	const built = buildKeyBindings(kept);
	return "bindings" in built ? built.bindings : DEFAULT_KEY_BINDINGS;
}

/** The table the file's text describes, and one problem per entry that could not be used. */
export function parseKeyBindings(text: string, file: string): LoadedKeyBindings {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (error) {
		const why = error instanceof Error ? error.message : String(error);
		return { bindings: DEFAULT_KEY_BINDINGS, problems: [{ file, problem: `not valid JSON (${why}); using the default keys` }] };
	}
	if (typeof json !== "object" || json === null || Array.isArray(json)) {
		const problem = "expected an object of action names to a key or a list of keys; using the default keys";
		return { bindings: DEFAULT_KEY_BINDINGS, problems: [{ file, problem }] };
	}
	const problems: ConfigProblem[] = [];
	const candidates: [Action, string[]][] = [];
	for (const [name, value] of Object.entries(json)) {
		if (!isAction(name)) {
			problems.push({ file, field: name, problem: `not an action${didYouMean(name, ACTION_NAMES)}; ${KEPT}` });
			continue;
		}
		const keys = entryKeys(value);
		if ("problem" in keys) problems.push({ file, field: name, problem: `${keys.problem}; its default keys stay, ${KEPT}` });
		else candidates.push([name, keys.keys]);
	}
	return { bindings: keepConsistent(candidates, file, problems), problems };
}

/** Reads the file; a missing file is the defaults, a bad one the defaults or its good entries, and the problems. */
export function loadKeyBindings(file: string): LoadedKeyBindings {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { bindings: DEFAULT_KEY_BINDINGS, problems: [] };
		const problem = `cannot be read (${(error as Error).message}); using the default keys`;
		return { bindings: DEFAULT_KEY_BINDINGS, problems: [{ file, problem }] };
	}
	return parseKeyBindings(text, file);
}
