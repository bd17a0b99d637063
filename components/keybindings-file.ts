// The user's key table: ~/.config/rudder/keybindings.json maps actions to a key or a list of keys, each
// replacing that action's defaults ([] unbinds it). A file that names an unknown action, holds a key
// that does not parse, or binds one key to two actions in one context is not used at all: the app
// starts on the defaults and says, in one line, which file and entry is wrong.
//
//   { "submit": "ctrl+s", "newline": ["enter", "shift+enter"], "externalEditor": [] }
import { readFileSync } from "node:fs";
import { ACTION_NAMES, type Action, buildKeyBindings, DEFAULT_KEY_BINDINGS, type KeyBindings, type KeyOverrides } from "./keybindings.js";

export interface LoadedKeyBindings {
	bindings: KeyBindings;
	/** Why the file was not used (the defaults are in effect). */
	error?: string;
}

const isAction = (name: string): name is Action => (ACTION_NAMES as string[]).includes(name);

/** The table the file's text describes, or the one-line error (naming `file` and the entry). */
export function parseKeyBindings(text: string, file: string): { bindings: KeyBindings } | { error: string } {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (error) {
		return { error: `${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})` };
	}
	if (typeof json !== "object" || json === null || Array.isArray(json)) {
		return { error: `${file}: expected an object of action names to a key or a list of keys` };
	}
	const overrides: KeyOverrides = {};
	for (const [name, value] of Object.entries(json)) {
		if (!isAction(name)) return { error: `${file}: "${name}" is not an action (the actions: ${ACTION_NAMES.join(", ")})` };
		const keys = typeof value === "string" ? [value] : value;
		if (!Array.isArray(keys) || !keys.every((k) => typeof k === "string")) {
			return { error: `${file}: "${name}": expected a key such as "ctrl+s", or a list of keys` };
		}
		overrides[name] = keys;
	}
	const built = buildKeyBindings(overrides);
	if ("errors" in built) {
		const more = built.errors.length > 1 ? ` (and ${built.errors.length - 1} more)` : "";
		return { error: `${file}: ${built.errors[0]}${more}` };
	}
	return built;
}

/** Reads the file; a missing file is the defaults, a bad one the defaults and the reason. */
export function loadKeyBindings(file: string): LoadedKeyBindings {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { bindings: DEFAULT_KEY_BINDINGS };
		return { bindings: DEFAULT_KEY_BINDINGS, error: `${file}: cannot be read (${(error as Error).message}); using the default keys` };
	}
	const parsed = parseKeyBindings(text, file);
	return "error" in parsed ? { bindings: DEFAULT_KEY_BINDINGS, error: `${parsed.error}; using the default keys` } : parsed;
}
