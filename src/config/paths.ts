// Where Rudder keeps its files, and the name of every file it keeps there. The lowest layer of the
// program: it imports nothing of ours, so the model registry, settings, sessions and the UI all ask
// here without importing each other.
import { homedir } from "node:os";
import { join } from "node:path";

export type Env = Record<string, string | undefined>;

/** Config folder: `$RUDDER_HOME`, else `$XDG_CONFIG_HOME/rudder`, else `~/.config/rudder`. */
export function configDir(env: Env = process.env): string {
	if (env.RUDDER_HOME) return env.RUDDER_HOME;
	return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "rudder");
}

/** Data folder (sessions, input history): `$RUDDER_HOME/data`, else `$XDG_DATA_HOME/rudder`, else `~/.local/share/rudder`. */
export function dataDir(env: Env = process.env): string {
	if (env.RUDDER_HOME) return join(env.RUDDER_HOME, "data");
	return join(env.XDG_DATA_HOME || join(homedir(), ".local", "share"), "rudder");
}

/**
 * Cache folder (the bundle's code cache): `$XDG_CACHE_HOME/rudder` when set, else `$RUDDER_HOME/cache`,
 * else `~/.cache/rudder`. `XDG_CACHE_HOME` first: a cache is not configuration, and it lets several
 * temporary homes (tests, benchmarks) share one.
 */
export function cacheDir(env: Env = process.env): string {
	if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, "rudder");
	if (env.RUDDER_HOME) return join(env.RUDDER_HOME, "cache");
	return join(homedir(), ".cache", "rudder");
}

/** Names of the files in the config folder. */
export const CONFIG_FILES = Object.freeze({
	models: "models.json",
	auth: "auth.json",
	settings: "settings.json",
	keybindings: "keybindings.json",
});

/** A file of the config folder, e.g. `configFile("auth")` → `~/.config/rudder/auth.json`. */
export function configFile(name: keyof typeof CONFIG_FILES, env?: Env): string {
	return join(configDir(env), CONFIG_FILES[name]);
}

/** A project's own config folder (settings that override the global ones). */
export function projectConfigDir(cwd: string): string {
	return join(cwd, ".rudder");
}

/** The project's settings file: `<cwd>/.rudder/settings.json`. */
export function projectSettingsFile(cwd: string): string {
	return join(projectConfigDir(cwd), CONFIG_FILES.settings);
}

/** Where every session file lives, one sub-folder per project. */
export function sessionsRoot(env?: Env): string {
	return join(dataDir(env), "sessions");
}

/** Workspace snapshots for rewind, one store per workspace real path (src/session/checkpoints). */
export function checkpointsDir(env?: Env): string {
	return join(dataDir(env), "checkpoints");
}

/** Up/Down recall of earlier inputs. */
export function inputHistoryFile(env?: Env): string {
	return join(dataDir(env), "input-history.jsonl");
}

/** The user's answers on trusting each project's MCP servers (src/extensions/mcp/trust.ts). */
export function mcpTrustFile(env?: Env): string {
	return join(dataDir(env), "mcp-trust.json");
}

/**
 * MCP sign-ins: each server's OAuth tokens and registered client, mode 0600 in the data folder (which
 * the sandbox hides whole) (src/extensions/mcp/auth/token-store.ts).
 */
export function mcpOAuthFile(env?: Env): string {
	return join(dataDir(env), "mcp-oauth.json");
}

/** A project's MCP servers in Claude Code's format: `<cwd>/.mcp.json`. */
export function mcpJsonFile(cwd: string): string {
	return join(cwd, ".mcp.json");
}

/** The user's answers on trusting each project's hooks, every command in full (src/extensions/hooks/trust.ts). */
export function hooksTrustFile(env?: Env): string {
	return join(dataDir(env), "hooks-trust.json");
}

/**
 * `path` as a person reads it on screen: under the home folder as `~/…` (so the first-start panel can
 * say "add its URL to ~/.config/rudder/models.json"), anything else unchanged.
 */
export function shownPath(path: string, home: string = homedir()): string {
	if (!home || home === "/") return path;
	const base = home.replace(/\/+$/, "");
	if (path === base) return "~";
	return path.startsWith(`${base}/`) ? `~${path.slice(base.length)}` : path;
}
