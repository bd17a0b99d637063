// The shape of keybindings.json (action name → a key or a list of keys), checked before the UI parses
// the keys themselves. Own keys only, and no key part may be the name of an Object.prototype property:
// the UI's key tables are plain objects, and `{"submit": "constructor"}` read `KEY_ALIASES.constructor`
// (a function) and stopped the app with `a.toLowerCase is not a function`.
import { Type } from "typebox";
import { Value } from "typebox/value";
import { type ConfigProblem, closestName } from "../problems.js";
import { dataObject } from "./fields.js";

const ENTRY = Type.Union([Type.String(), Type.Array(Type.String())]);

const KEPT = "the other entries are kept";

/** A part of a combo ("ctrl", "s") that an object table would find on its prototype. */
function inheritedName(key: string): string | undefined {
	return key
		.toLowerCase()
		.split(/[\s+]+/)
		.find((part) => part === "__proto__" || (part !== "" && part in Object.prototype));
}

export interface CheckedKeyBindings {
	/** Action → its keys as written, for each entry of the right shape (a null-prototype object). */
	entries: Record<string, string[]>;
	/** One per bad entry; a file that is not an object at all is one problem and no entries. */
	problems: ConfigProblem[];
}

/** Checks parsed keybindings.json against `actions` (the action names the UI knows). */
export function checkKeyBindingsJson(json: unknown, file: string, actions: readonly string[]): CheckedKeyBindings {
	const entries = dataObject<string[]>();
	if (typeof json !== "object" || json === null || Array.isArray(json)) {
		const problem = "expected an object of action names to a key or a list of keys; using the default keys";
		return { entries, problems: [{ file, problem }] };
	}
	const problems: ConfigProblem[] = [];
	const known = new Set(actions);
	for (const name of Object.keys(json)) {
		const value = (json as Record<string, unknown>)[name];
		if (!known.has(name)) {
			const near = closestName(name, actions);
			problems.push({ file, field: name, problem: `not an action${near ? ` (did you mean "${near}"?)` : ""}; ${KEPT}` });
			continue;
		}
		if (!Value.Check(ENTRY, value)) {
			problems.push({ file, field: name, problem: `expected a key such as "ctrl+s", or a list of keys; its default keys stay, ${KEPT}` });
			continue;
		}
		const keys = typeof value === "string" ? [value] : value;
		const bad = keys.map((key) => [key, inheritedName(key)] as const).find(([, part]) => part !== undefined);
		if (bad) {
			problems.push({ file, field: name, problem: `"${bad[0]}": "${bad[1]}" is not a key name; its default keys stay, ${KEPT}` });
			continue;
		}
		entries[name] = [...keys];
	}
	return { entries, problems };
}
