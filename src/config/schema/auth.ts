// The shape of auth.json: provider name → a key, or `{"type": "api_key", "key": "..."}`. Every provider
// name is data (a null-prototype object holds the keys), so `"__proto__"` or `"constructor"` is an
// entry like any other, never a prototype swapped or a property inherited.
import { Type } from "typebox";
import { Value } from "typebox/value";
import type { ConfigProblem } from "../problems.js";
import { dataObject } from "./fields.js";

const ENTRY = Type.Union([Type.String(), Type.Object({ key: Type.String() })]);

/** The key of each good entry, and one problem per bad one (naming the provider). */
export function checkAuthEntries(
	parsed: Record<string, unknown>,
	file: string,
): { keys: Record<string, string>; problems: ConfigProblem[] } {
	const keys = dataObject<string>();
	const problems: ConfigProblem[] = [];
	for (const provider of Object.keys(parsed)) {
		const entry = parsed[provider];
		if (!Value.Check(ENTRY, entry) || (typeof entry === "object" && !Object.hasOwn(entry, "key"))) {
			problems.push({ file, field: provider, provider, problem: 'expected {"type": "api_key", "key": "..."}' });
			continue;
		}
		keys[provider] = typeof entry === "string" ? entry : entry.key;
	}
	return { keys, problems };
}
