// The sessions of a project: one JSONL file per session under `<dataDir>/sessions/<cwd slug>/`,
// listed newest first and found by id prefix. One file is written by `SessionLog` (session-log.ts) and
// read by `loadSession` (session-load.ts); its format is in session-format.ts.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { sessionsRoot } from "../config/paths.js";
import { redactSecrets } from "../safety/secrets.js";
import { readSessionInfo, type SessionInfo } from "./session-load.js";

export type { SessionInfo };

type Env = Record<string, string | undefined>;

/** A folder name that says which project the sessions belong to: `/home/a/proj` → `--home-a-proj--`. */
export function cwdSlug(cwd: string): string {
	return `--${resolve(cwd)
		.replace(/^[/\\]+/, "")
		.replace(/[/\\:]+/g, "-")}--`;
}

export function sessionsDir(cwd: string, env?: Env): string {
	return join(sessionsRoot(env), cwdSlug(cwd));
}

// Keys whose values are credentials wherever they appear (compared without case, "-" or "_").
const secretKeys = new Set(["apikey", "authorization", "xapikey", "accesstoken", "refreshtoken", "password", "secret"]);

/**
 * Serialises an entry with every credential removed: keys that name one are dropped, and any known
 * secret string (the keys in use) is replaced wherever it appears, e.g. echoed inside tool output.
 */
export function serializeRedacted(value: unknown, secrets: readonly string[] = []): string {
	const known = secrets.filter((s) => s.length >= 8);
	// Then every secret the process knows (src/safety/secrets.ts), in the line as written.
	return redactSecrets(
		JSON.stringify(value, (key, v) => {
			if (key && secretKeys.has(key.toLowerCase().replace(/[-_]/g, ""))) return undefined;
			if (typeof v === "string" && known.length > 0) {
				let out = v;
				for (const secret of known) if (out.includes(secret)) out = out.split(secret).join("[redacted]");
				return out;
			}
			return v;
		}),
	);
}

/** Sessions of `cwd`, newest first. Unreadable files are left out. */
export function listSessions(cwd: string, env?: Env): SessionInfo[] {
	const dir = sessionsDir(cwd, env);
	if (!existsSync(dir)) return [];
	const infos: SessionInfo[] = [];
	for (const name of readdirSync(dir)) {
		if (!name.endsWith(".jsonl")) continue;
		const path = join(dir, name);
		const info = readSessionInfo(path);
		// A file with no header is not ours to list.
		if (info) infos.push(info);
	}
	// File names start with the ISO start time, so the name order is the start order; ties fall to mtime.
	return infos.sort((a, b) => b.modified.getTime() - a.modified.getTime() || basename(b.path).localeCompare(basename(a.path)));
}

export function latestSession(cwd: string, env?: Env): SessionInfo | undefined {
	return listSessions(cwd, env)[0];
}

/**
 * The name of the session file opened or started last in a project's folder. A file's mtime says
 * when it was last written, not used: a session resumed and read, then left, would lose to an older
 * one written later, so `-c` asks this first.
 */
const LAST_USED = "last-used";

/** Notes `path` (a session file) as the one used last in its folder; best effort, never throws. */
export function rememberLastUsed(path: string): void {
	try {
		writeFileSync(join(dirname(path), LAST_USED), basename(path), { mode: 0o600 });
	} catch {
		// A read-only folder: -c falls back to the newest file.
	}
}

/** Sessions of `cwd` for `-c`: the one used last first (when its file is still there), then newest first. */
export function sessionsByLastUse(cwd: string, env?: Env): SessionInfo[] {
	const sessions = listSessions(cwd, env);
	let name = "";
	try {
		name = readFileSync(join(sessionsDir(cwd, env), LAST_USED), "utf8").trim();
	} catch {
		return sessions;
	}
	const used = sessions.findIndex((s) => basename(s.path) === name);
	return used <= 0 ? sessions : [sessions[used], ...sessions.slice(0, used), ...sessions.slice(used + 1)];
}

/** A session of `cwd` by id prefix; throws one line when none or several match. */
export function findSession(cwd: string, idPrefix: string, env?: Env): SessionInfo {
	const matches = listSessions(cwd, env).filter((s) => s.id.startsWith(idPrefix));
	if (matches.length === 0) throw new Error(`No session of ${resolve(cwd)} has an id starting with "${idPrefix}"`);
	if (matches.length > 1) throw new Error(`Several sessions match "${idPrefix}": ${matches.map((s) => s.id.slice(0, 8)).join(", ")}`);
	return matches[0];
}
