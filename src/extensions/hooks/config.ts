// Where hooks are configured and what an entry may say. Five files, all read, all their hooks kept
// (every matching hook runs, as in Claude Code): the user's own Rudder settings and
// `~/.claude/settings.json`, then the project's `.rudder/settings.json`, `.claude/settings.json` and
// `.claude/settings.local.json`. The project's came with the folder (perhaps a cloned repository), so
// each hook carries `project` and runs only once trusted (trust.ts). A bad entry is one problem naming
// the file and the field, and the rest loads. Every read is of an object's own property, so a key such
// as "constructor" or "__proto__" is just an unknown name.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { configFile, projectSettingsFile } from "../../config/paths.js";
import { type ConfigProblem, closestName } from "../../config/problems.js";
import { isHookEvent } from "./events.js";
import { compileMatcher } from "./matcher.js";
import { DEFAULT_TIMEOUT_SECONDS, HOOK_EVENTS, type HookCommand } from "./types.js";

type Env = Record<string, string | undefined>;
type Json = Record<string, unknown>;

export interface HookSource {
	file: string;
	project: boolean;
}

export interface LoadedHooks {
	hooks: HookCommand[];
	problems: ConfigProblem[];
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const own = (o: Json, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);

/** The files in the order they are read; the user's own first. */
export function hookSources(cwd: string, env: Env = process.env): HookSource[] {
	const home = env.HOME || homedir();
	const sources: HookSource[] = [
		{ file: configFile("settings", env), project: false },
		{ file: join(home, ".claude", "settings.json"), project: false },
		{ file: projectSettingsFile(cwd), project: true },
		{ file: join(cwd, ".claude", "settings.json"), project: true },
		{ file: join(cwd, ".claude", "settings.local.json"), project: true },
	];
	// Started in the home folder, ~/.claude/settings.json is both: the user's own, read once.
	const seen = new Set<string>();
	return sources.filter((s) => {
		const key = realOrSame(s.file);
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}

function realOrSame(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

/** Reads every source; a missing file is nothing, a broken one a problem. */
export function loadHooks(options: { cwd: string; env?: Env }): LoadedHooks {
	const hooks: HookCommand[] = [];
	const problems: ConfigProblem[] = [];
	for (const source of hookSources(options.cwd, options.env)) {
		if (!existsSync(source.file)) continue;
		let data: unknown;
		try {
			data = JSON.parse(readFileSync(source.file, "utf8"));
		} catch (error) {
			problems.push({ file: source.file, problem: `invalid JSON: ${(error as Error).message.split("\n")[0]} (its hooks were not loaded)` });
			continue;
		}
		if (!isObject(data)) continue;
		const value = own(data, "hooks");
		if (value === undefined) continue;
		const parsed = parseHooks(value, source);
		hooks.push(...parsed.hooks);
		problems.push(...parsed.problems);
	}
	return { hooks, problems };
}

/** The `hooks` object of one file: its valid hooks, and one problem per bad entry. */
export function parseHooks(value: unknown, source: HookSource): LoadedHooks {
	const hooks: HookCommand[] = [];
	const problems: ConfigProblem[] = [];
	const bad = (field: string, problem: string) => problems.push({ file: source.file, field, problem });
	if (!isObject(value)) {
		bad("hooks", 'must be an object of events, e.g. {"PreToolUse": [{"matcher": "Bash", "hooks": [...]}]}');
		return { hooks, problems };
	}
	for (const [event, groups] of Object.entries(value)) {
		const at = `hooks.${event}`;
		if (!isHookEvent(event)) {
			const near = closestName(event, HOOK_EVENTS);
			bad(at, `is not a hook event${near ? ` (did you mean ${near}?)` : ""}; events: ${HOOK_EVENTS.join(", ")}`);
			continue;
		}
		if (!Array.isArray(groups)) {
			bad(at, 'must be a list of {"matcher": ..., "hooks": [...]}');
			continue;
		}
		for (const [g, group] of groups.entries()) {
			const groupAt = `${at}[${g}]`;
			const parsed = parseGroup(group);
			if ("problem" in parsed) {
				bad(`${groupAt}${parsed.field}`, parsed.problem);
				continue;
			}
			for (const [h, entry] of parsed.list.entries()) {
				const command = parseCommand(entry);
				if ("problem" in command) bad(`${groupAt}.hooks[${h}]${command.field}`, command.problem);
				else hooks.push({ event, matcher: parsed.matcher, ...command, file: source.file, project: source.project });
			}
		}
	}
	return { hooks, problems };
}

type Problem = { field: string; problem: string };

/** One `{matcher, hooks}` group: its matcher and its list of entries, or the field at fault. */
function parseGroup(group: unknown): { matcher: string; list: unknown[] } | Problem {
	if (!isObject(group)) return { field: "", problem: 'must be an object {"matcher": ..., "hooks": [...]}' };
	const matcher = own(group, "matcher") ?? "";
	if (typeof matcher !== "string") return { field: ".matcher", problem: "must be a string" };
	const compiled = compileMatcher(matcher);
	if ("problem" in compiled) return { field: ".matcher", problem: compiled.problem };
	const list = own(group, "hooks");
	if (!Array.isArray(list)) return { field: ".hooks", problem: 'must be a list of {"type": "command", "command": ...}' };
	return { matcher, list };
}

/** One `{type, command, timeout}`, or the field (after the entry's path) at fault and why. */
function parseCommand(entry: unknown): Pick<HookCommand, "command" | "timeoutSeconds"> | Problem {
	if (!isObject(entry)) return { field: "", problem: 'must be an object {"type": "command", "command": ...}' };
	const type = own(entry, "type");
	if (type !== "command") {
		const problem = typeof type === "string" ? `"${type}" hooks are not supported; only "command"` : 'must be "command"';
		return { field: ".type", problem };
	}
	const command = own(entry, "command");
	if (typeof command !== "string" || command.trim() === "") return { field: ".command", problem: "must be a non-empty string" };
	const timeout = own(entry, "timeout");
	if (timeout !== undefined && !(typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0)) {
		return { field: ".timeout", problem: "must be a positive number of seconds" };
	}
	return { command, timeoutSeconds: (timeout as number | undefined) ?? DEFAULT_TIMEOUT_SECONDS };
}

/**
 * For the settings validator: only the shape of `hooks`. Each entry's problems are reported once, by
 * `loadHooks` (which reads Claude Code's files too), so a bad hook is not named twice.
 */
export function checkHooksSetting(value: unknown): string | undefined {
	return isObject(value) ? undefined : 'must be an object of events, e.g. {"PreToolUse": [{"matcher": "Bash", "hooks": [...]}]}';
}
