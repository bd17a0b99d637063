// The environment of commands the model runs (and `!cmd`): the parent's, minus provider keys and every
// variable whose name says it holds a credential, unless the user names it in `shell.passEnv`, and
// minus every variable whose value holds a key Rudder knows (models.json's `"apiKey": "$LLM_CRED"`,
// header values, MCP env and headers, auth.json, --api-key), whatever its name — again unless
// `shell.passEnv` names it: the user's explicit word. A command the model writes must not be able to
// print or send a key it was never given.
import { processSecrets, type Redactor } from "./secrets.js";

type Env = Record<string, string | undefined>;

/** A credential by its name: contains KEY, SECRET, TOKEN or PASSWORD (any case), as Codex filters by default. */
const CREDENTIAL_NAME = /KEY|SECRET|TOKEN|PASSWORD/i;

export function isCredentialName(name: string): boolean {
	return CREDENTIAL_NAME.test(name);
}

/**
 * The names `shell.passEnv` gave, carried on the environment object itself (a symbol key: `spawn`
 * copies only string keys), so the filter at each command's start keeps them too.
 */
const PASSED = Symbol("passEnv");

/** `env` without credentials; names in `passEnv` are kept as they are. */
export function childEnv(env: Env, passEnv: readonly string[] = [], secrets: Redactor = processSecrets): Record<string, string> {
	const keep = new Set(passEnv);
	const out: Record<string, string> = {};
	Object.defineProperty(out, PASSED, { value: keep, enumerable: false });
	for (const [name, value] of Object.entries(env)) {
		if (value === undefined) continue;
		if (!keep.has(name) && (isCredentialName(name) || holdsSecret(value, secrets))) continue;
		out[name] = value;
	}
	return out;
}

function holdsSecret(value: string, secrets: Redactor): boolean {
	return secrets.size > 0 && secrets.redact(value) !== value;
}

/**
 * `env` without the variables whose value holds a key Rudder knows, except the names `childEnv` was
 * told to pass. Applied again when each command starts: keys become known after the environment was
 * made (an MCP server's, a /login).
 */
export function withoutSecretValues(env: Env, secrets: Redactor = processSecrets): Record<string, string> {
	const keep = ((env as Record<symbol, unknown>)[PASSED] as Set<string> | undefined) ?? new Set<string>();
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(env)) {
		if (value === undefined) continue;
		if (!keep.has(name) && holdsSecret(value, secrets)) continue;
		out[name] = value;
	}
	return out;
}
