// The environment of commands the model runs (and `!cmd`): the parent's, minus provider keys and every
// variable whose name says it holds a credential, unless the user names it in `shell.passEnv`. A command
// the model writes must not be able to print or send a key it was never given.

type Env = Record<string, string | undefined>;

/** A credential by its name: contains KEY, SECRET, TOKEN or PASSWORD (any case), as Codex filters by default. */
const CREDENTIAL_NAME = /KEY|SECRET|TOKEN|PASSWORD/i;

export function isCredentialName(name: string): boolean {
	return CREDENTIAL_NAME.test(name);
}

/** `env` without credentials; names in `passEnv` are kept as they are. */
export function childEnv(env: Env, passEnv: readonly string[] = []): Record<string, string> {
	const keep = new Set(passEnv);
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(env)) {
		if (value === undefined) continue;
		if (isCredentialName(name) && !keep.has(name)) continue;
		out[name] = value;
	}
	return out;
}
