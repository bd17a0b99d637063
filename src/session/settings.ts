// User settings: `<configDir>/settings.json` (global) overridden field by field by
// `<cwd>/.rudder/settings.json` (project). A typo must not be silently ignored, so an unknown key or a
// bad value is an error naming the file and the field: `loadSettings` throws the first, the CLI uses
// `loadSettingsChecked`, which drops each bad field, keeps the rest and reports every problem.
import { existsSync, readFileSync } from "node:fs";
import type { QueueMode } from "../agent/types.js";
import { THINKING_LEVELS, type ThinkingLevel } from "../ai/index.js";
import { configFile, projectSettingsFile } from "../config/paths.js";
import type { ConfigProblem } from "../config/problems.js";
import { checkMcpServersSetting } from "../extensions/mcp/config.js";
import { type PermissionsSection, permissionsChecks, type SandboxSection, sandboxChecks } from "../permissions/settings-section.js";

export interface CompactionSettings {
	/** Compact automatically when the context nears the model's window. Default true. */
	enabled: boolean;
	/** Tokens kept free for the next reply: compaction starts above `contextWindow - reserveTokens`. */
	reserveTokens: number;
	/** Roughly how many tokens of recent turns stay verbatim after a compaction. */
	keepRecentTokens: number;
}

export interface RetrySettings {
	/** Retry 429/5xx/connection failures before the first byte. Default true. */
	enabled: boolean;
	maxRetries: number;
}

export interface ToolSettings {
	/** Tool processes (bash commands) running at once; more wait their turn. Default 8. */
	maxProcesses: number;
	/** Largest web page web_fetch reads, in bytes. Default 5 MB. */
	webFetchMaxBytes?: number;
	/** Time for one web_fetch, redirects included, in seconds. Default 30. */
	webFetchTimeoutSeconds?: number;
}

export interface Settings {
	/** "provider/id", e.g. "anthropic/claude-sonnet-4-5". */
	defaultModel?: string;
	defaultThinkingLevel?: ThinkingLevel;
	steeringMode: QueueMode;
	followUpMode: QueueMode;
	compaction: CompactionSettings;
	retry: RetrySettings;
	tools: ToolSettings;
	/** Snapshots of the workspace before each prompt, for /rewind and /undo (default on). */
	checkpoints?: boolean;
	shell: ShellSettings;
	/** A desktop notification when a long run ends (the app only); off unless `afterSeconds` is set. */
	notifications?: NotificationSettings;
}

export interface NotificationSettings {
	/** Runs that took at least this many seconds notify when they end; absent: no notifications. */
	afterSeconds?: number;
	/** How the terminal is asked: OSC 9 (default), OSC 777, or the bell. */
	method?: "osc9" | "osc777" | "bell";
}

export interface ShellSettings {
	/**
	 * Variables the model's commands get although their names look like credentials (KEY, SECRET,
	 * TOKEN, PASSWORD), e.g. ["GITHUB_TOKEN"]. Read from the global settings only: a project's file
	 * must not hand a key to commands the model writes.
	 */
	passEnv: string[];
}

/** What a settings file may hold: every field optional, sections merged field by field. */
export type SettingsFile = Partial<Omit<Settings, "compaction" | "retry" | "tools" | "shell">> & {
	compaction?: Partial<CompactionSettings>;
	retry?: Partial<RetrySettings>;
	tools?: Partial<ToolSettings>;
	shell?: Partial<ShellSettings>;
	/** MCP servers (see src/extensions/mcp/config.ts); read from each file, not merged. */
	mcpServers?: Record<string, unknown>;
	/** Global settings only: start every project's MCP servers without asking. */
	enableAllProjectMcpServers?: boolean;
	/** Global settings only: project MCP servers (by name) to start without asking. */
	enabledMcpjsonServers?: string[];
	/** Read per layer, not merged: a project's entries count only when they narrow or the folder is trusted. */
	permissions?: PermissionsSection;
	sandbox?: SandboxSection;
};

export const defaultSettings: Readonly<Settings> = Object.freeze({
	steeringMode: "one-at-a-time",
	followUpMode: "one-at-a-time",
	compaction: { enabled: true, reserveTokens: 16_384, keepRecentTokens: 20_000 },
	retry: { enabled: true, maxRetries: 3 },
	tools: { maxProcesses: 8 },
	shell: { passEnv: [] },
});

const queueModes: readonly QueueMode[] = ["one-at-a-time", "all"];

type Check = (value: unknown) => string | undefined;
const oneOf =
	(values: readonly string[]): Check =>
	(v) =>
		typeof v === "string" && values.includes(v) ? undefined : `must be one of ${values.map((x) => `"${x}"`).join(", ")}`;
const bool: Check = (v) => (typeof v === "boolean" ? undefined : "must be true or false");
const count: Check = (v) => (Number.isInteger(v) && (v as number) >= 0 ? undefined : "must be a non-negative integer");
const positive: Check = (v) => (Number.isInteger(v) && (v as number) >= 1 ? undefined : "must be a positive integer");
const modelSpec: Check = (v) => (typeof v === "string" && /^[^/\s]+\/\S+$/.test(v) ? undefined : 'must be "provider/model-id"');

const topLevel: Record<string, Check | Record<string, Check>> = {
	defaultModel: modelSpec,
	defaultThinkingLevel: oneOf(THINKING_LEVELS),
	steeringMode: oneOf(queueModes),
	followUpMode: oneOf(queueModes),
	compaction: { enabled: bool, reserveTokens: count, keepRecentTokens: count },
	retry: { enabled: bool, maxRetries: count },
	tools: { maxProcesses: positive, webFetchMaxBytes: positive, webFetchTimeoutSeconds: positive },
	checkpoints: bool,
	notifications: { afterSeconds: count, method: oneOf(["osc9", "osc777", "bell"]) },
	shell: {
		passEnv: (v) => (Array.isArray(v) && v.every((n) => typeof n === "string") ? undefined : "must be an array of variable names"),
	},
	// Read by src/extensions/mcp/config.ts per file (where a server comes from decides whether it is trusted).
	mcpServers: checkMcpServersSetting,
	enableAllProjectMcpServers: bool,
	enabledMcpjsonServers: (v) =>
		Array.isArray(v) && v.every((n) => typeof n === "string") ? undefined : "must be an array of server names",
	permissions: permissionsChecks,
	sandbox: sandboxChecks,
};

/**
 * Checks parsed JSON against the schema above: every problem is listed (naming `file` and the field),
 * and `value` keeps only the fields that passed.
 */
export function checkSettings(data: unknown, file: string): { value: SettingsFile; problems: ConfigProblem[] } {
	const problems: ConfigProblem[] = [];
	const value: Record<string, unknown> = {};
	const bad = (field: string, problem: string) => problems.push({ file, field, problem });
	if (typeof data !== "object" || data === null || Array.isArray(data)) {
		bad("(root)", "must be a JSON object");
		return { value, problems };
	}
	for (const [key, raw] of Object.entries(data as Record<string, unknown>)) {
		const rule = topLevel[key];
		if (!rule) {
			bad(key, "is not a known setting");
			continue;
		}
		if (typeof rule === "function") {
			const problem = rule(raw);
			if (problem) bad(key, problem);
			else value[key] = raw;
			continue;
		}
		if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
			bad(key, "must be an object");
			continue;
		}
		const section: Record<string, unknown> = {};
		for (const [sub, subValue] of Object.entries(raw as Record<string, unknown>)) {
			const subRule = (rule as Record<string, Check>)[sub];
			const problem = subRule ? subRule(subValue) : "is not a known setting";
			if (problem) bad(`${key}.${sub}`, problem);
			else section[sub] = subValue;
		}
		value[key] = section;
	}
	return { value: value as SettingsFile, problems };
}

/** Checks parsed JSON against the schema above; throws one line naming `file` and the field. */
export function validateSettings(data: unknown, file: string): SettingsFile {
	const { value, problems } = checkSettings(data, file);
	if (problems[0]) throw new Error(`Invalid settings in ${file}: "${problems[0].field}" ${problems[0].problem}`);
	return value;
}

/** One settings file: missing is empty; unreadable JSON is one problem and no fields. */
export function readSettingsChecked(file: string): { value: SettingsFile; problems: ConfigProblem[] } {
	if (!existsSync(file)) return { value: {}, problems: [] };
	let data: unknown;
	try {
		data = JSON.parse(readFileSync(file, "utf8"));
	} catch (error) {
		const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
		return { value: {}, problems: [{ file, problem: `invalid JSON: ${reason}` }] };
	}
	return checkSettings(data, file);
}

/** Reads one settings file; a missing file is empty, a broken one throws one clear line. */
export function readSettingsFile(file: string): SettingsFile {
	const { value, problems } = readSettingsChecked(file);
	const first = problems[0];
	if (first && !first.field) throw new Error(`Invalid JSON in ${file}: ${first.problem.replace(/^invalid JSON: /, "")}`);
	if (first) throw new Error(`Invalid settings in ${file}: "${first.field}" ${first.problem}`);
	return value;
}

/** Later layers win field by field; sections (`compaction`, `retry`, `tools`) merge per field too. */
export function mergeSettings(...layers: SettingsFile[]): Settings {
	const out: Settings = structuredClone({ ...defaultSettings }) as Settings;
	for (const layer of layers) {
		const { compaction, retry, tools, shell, notifications, permissions: _permissions, sandbox: _sandbox, ...rest } = layer;
		Object.assign(out, rest);
		if (compaction) Object.assign(out.compaction, compaction);
		if (retry) Object.assign(out.retry, retry);
		if (tools) Object.assign(out.tools, tools);
		if (shell) Object.assign(out.shell, shell);
		if (notifications) out.notifications = { ...out.notifications, ...notifications };
	}
	return out;
}

export function globalSettingsPath(env?: Record<string, string | undefined>): string {
	return configFile("settings", env);
}

export function projectSettingsPath(cwd: string): string {
	return projectSettingsFile(cwd);
}

/** Global settings, then the project's on top. */
export function loadSettings(options: { cwd: string; env?: Record<string, string | undefined> }): Settings {
	// `shell` is global-only (see ShellSettings.passEnv).
	const { shell: _globalOnly, ...project } = readSettingsFile(projectSettingsPath(options.cwd));
	return mergeSettings(readSettingsFile(globalSettingsPath(options.env)), project);
}

/**
 * Global settings, then the project's on top, never throwing: a bad field is dropped and listed in
 * `problems` with its file (the CLI shows each once at start), the rest of the file still applies.
 */
export function loadSettingsChecked(options: { cwd: string; env?: Record<string, string | undefined> }): {
	settings: Settings;
	problems: ConfigProblem[];
} {
	const global = readSettingsChecked(globalSettingsPath(options.env));
	const projectFile = projectSettingsPath(options.cwd);
	const project = readSettingsChecked(projectFile);
	const problems = [...global.problems, ...project.problems];
	if (project.value.shell) {
		problems.push({ file: projectFile, field: "shell", problem: "is read from the global settings only (it can pass keys to commands)" });
		delete project.value.shell;
	}
	return { settings: mergeSettings(global.value, project.value), problems };
}
