// auth.json with provider names that are Object.prototype properties: plain entries, never a swapped
// prototype; a bad entry is one problem naming it and the other keys load (and are redacted).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkAuthEntries } from "../../../src/config/schema/auth.js";
import { processSecrets } from "../../../src/safety/secrets.js";
import { readKeys } from "../../../src/settings/auth-file.js";
import { PROTOTYPE_KEYS } from "./crafted-keys.js";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rudder-auth-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function authFile(text: string): string {
	const file = join(dir, "auth.json");
	writeFileSync(file, text);
	chmodSync(file, 0o600);
	return file;
}

describe("auth.json with prototype-property provider names", () => {
	it("a key under __proto__ is an entry like any other: kept as data and redacted, not lost as a prototype", () => {
		const secret = "sk-proto-0123456789abcdef";
		const { keys, problems } = readKeys(authFile(`{"__proto__": {"type": "api_key", "key": "${secret}"}, "openai": "sk-good-0123456789"}`));
		expect(problems).toEqual([]);
		expect(Object.keys(keys)).toEqual(["__proto__", "openai"]);
		expect(Object.getPrototypeOf(keys)).toBeNull();
		expect(processSecrets.redact(`leaked ${secret}`)).not.toContain(secret);
	});

	it.each(PROTOTYPE_KEYS)("%s with a bad entry is one problem naming it; the other keys load", (key) => {
		const file = authFile(`{"${key}": {"type": "api_key"}, "openai": {"type": "api_key", "key": "sk-good-0123456789"}}`);
		const { keys, problems } = readKeys(file);
		expect(problems).toEqual([{ file, field: key, provider: key, problem: 'expected {"type": "api_key", "key": "..."}' }]);
		expect(keys.openai).toBe("sk-good-0123456789");
		expect(Object.hasOwn(keys, key)).toBe(false);
	});

	it("an entry's key must be its own string", () => {
		expect(checkAuthEntries(JSON.parse('{"a": {"key": 5}, "b": [], "c": "k"}'), "auth.json")).toMatchObject({
			keys: { c: "k" },
			problems: [{ field: "a" }, { field: "b" }],
		});
	});
});
