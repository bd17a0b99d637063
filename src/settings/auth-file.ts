// The key store: `<configDir>/auth.json`, `{"<provider>": {"type": "api_key", "key": "..."}}` (or a bare
// string), readable by its owner only. Every key read or stored goes to the process's redactor.
import { chmodSync, mkdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { ConfigProblem } from "../config/problems.js";
import { checkAuthEntries } from "../config/schema/auth.js";
import { processSecrets } from "../safety/secrets.js";
import { parseJsonObject, readIfExists } from "./json-object.js";

/**
 * The keys of auth.json. A file readable by group or others is refused whole, since its keys may
 * already be read by someone else; a bad entry is skipped alone.
 */
export function readKeys(file: string): { keys: Record<string, string>; problems: ConfigProblem[] } {
	const keys: Record<string, string> = {};
	const text = readIfExists(file);
	if (text === undefined || !text.trim()) return { keys, problems: [] };
	if (process.platform !== "win32" && (statSync(file).mode & 0o077) !== 0) {
		return {
			keys,
			problems: [{ file, problem: `is readable by group or others; its keys are not used until you run: chmod 600 ${file}` }],
		};
	}
	let parsed: Record<string, unknown>;
	try {
		parsed = parseJsonObject(text, file);
	} catch (error) {
		return { keys, problems: [{ file, problem: `${(error as Error).message.slice(file.length + 2)}; no key of it is used` }] };
	}
	const checked = checkAuthEntries(parsed, file);
	for (const key of Object.values(checked.keys)) processSecrets.add(key);
	return checked;
}

/**
 * Stores a key in auth.json (mode 0600, folder created 0700) and returns the trimmed key. Refuses to
 * overwrite an auth.json that does not parse, so a hand-edited file is never lost.
 */
export function storeKey(file: string, provider: string, key: string): { provider: string; key: string } {
	const name = provider.trim();
	const value = key.trim();
	if (!name) throw new Error("Cannot store an API key: the provider name is empty");
	if (!value) throw new Error(`Cannot store an API key for ${name}: the key is empty`);
	mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
	const existing = readIfExists(file);
	const stored: Record<string, unknown> = existing?.trim() ? parseJsonObject(existing, file) : {};
	stored[name] = { type: "api_key", key: value };
	// Write beside and rename, so a crash never leaves half a file; the mode is set before any key lands.
	const temp = `${file}.${process.pid}.tmp`;
	writeFileSync(temp, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
	chmodSync(temp, 0o600);
	renameSync(temp, file);
	processSecrets.add(value);
	return { provider: name, key: value };
}
