// User settings: `<configDir>/settings.json` (global) overridden field by field by
// `<cwd>/.rudder/settings.json` (project). A typo must not be silently ignored, so an unknown key or a
// bad value is an error naming the file and the field: `loadSettings` throws the first, the CLI uses
// `loadSettingsChecked`, which drops each bad field, keeps the rest and reports every problem.
import { existsSync, readFileSync } from "node:fs";
import { Type } from "typebox";
import type { QueueMode } from "../agent/types.js";
import { THINKING_LEVELS, type ThinkingLevel } from "../ai/index.js";
import { configFile, projectSettingsFile } from "../config/paths.js";
import type { ConfigProblem } from "../config/problems.js";
import { checked, checkFields, type FieldRule, type Fields, field, type Section } from "../config/schema/fields.js";
import { checkHooksSetting } from "../extensions/hooks/config.js";
import { checkMcpServersSetting } from "../extensions/mcp/config.js";
import { type PermissionsSection, permissionsChecks, type SandboxSection, sandboxChecks } from "../permissions/settings-section.js";
import { type HeldSetting, holdProjectSettings } from "./settings-trust.js";

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
	/** Sub-agents (`task` calls) running at once; more wait, shown as queued. Default 4. */
	maxSubagents: number;
	/** Largest web page web_fetch reads, in bytes. Default 5 MB. */
	webFetchMaxBytes?: number;
	/** Time for one web_fetch, redirects included, in seconds. Default 30. */
	webFetchTimeoutSeconds?: number;
	/**
	 * The share of the context window (percent) the MCP tools' schemas may take; above it the model gets
	 * `tool_search` and the tools' names only (src/extensions/mcp/tool-search.ts). Default 10.
	 */
	mcpSchemaPercent?: number;
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
	webSearch?: WebSearchSettings;
}

export interface WebSearchSettings {
	/**
	 * A SearXNG-compatible JSON search API (`https://searx.example/search`, asked with `?q=…&format=json`)
	 * that backs the web_search tool for models whose provider has no search of its own.
	 */
	searxngUrl?: string;
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
	/** User hooks in Claude Code's format (see src/extensions/hooks/config.ts); read from each file, not merged. */
	hooks?: Record<string, unknown>;
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
	tools: { maxProcesses: 8, maxSubagents: 4 },
	shell: { passEnv: [] },
});

const queueModes: readonly QueueMode[] = ["one-at-a-time", "all"];

type Check = (value: unknown) => string | undefined;
const oneOf = (values: readonly string[]): FieldRule =>
	field(Type.Union(values.map((v) => Type.Literal(v))), `must be one of ${values.map((x) => `"${x}"`).join(", ")}`);
const bool = field(Type.Boolean(), "must be true or false");
const count = field(Type.Integer({ minimum: 0 }), "must be a non-negative integer");
const positive = field(Type.Integer({ minimum: 1 }), "must be a positive integer");
const percent = field(Type.Integer({ minimum: 0, maximum: 100 }), "must be a whole number from 0 to 100");
const modelSpec = field(Type.String({ pattern: "^[^/\\s]+/\\S+$" }), 'must be "provider/model-id"');
const names = (what: string) => field(Type.Array(Type.String()), `must be an array of ${what}`);
/** A section whose fields are checked by functions of another layer (permissions, sandbox). */
const checkedSection = (checks: Record<string, Check>): Section => ({
	section: Object.fromEntries(Object.entries(checks).map(([name, check]) => [name, checked(check)])),
});

/** The schema of a settings file; keys are looked up as own properties only (src/config/schema/fields.ts). */
const topLevel: Fields = {
	defaultModel: modelSpec,
	defaultThinkingLevel: oneOf(THINKING_LEVELS),
	steeringMode: oneOf(queueModes),
	followUpMode: oneOf(queueModes),
	compaction: { section: { enabled: bool, reserveTokens: count, keepRecentTokens: count } },
	retry: { section: { enabled: bool, maxRetries: count } },
	tools: {
		section: {
			maxProcesses: positive,
			maxSubagents: positive,
			webFetchMaxBytes: positive,
			webFetchTimeoutSeconds: positive,
			mcpSchemaPercent: percent,
		},
	},
	checkpoints: bool,
	notifications: { section: { afterSeconds: count, method: oneOf(["osc9", "osc777", "bell"]) } },
	shell: { section: { passEnv: names("variable names") } },
	webSearch: { section: { searxngUrl: field(Type.String({ pattern: "^https?://\\S+$" }), "must be an http:// or https:// URL") } },
	// Read by src/extensions/mcp/config.ts per file (where a server comes from decides whether it is trusted).
	mcpServers: checked(checkMcpServersSetting),
	// Read by src/extensions/hooks/config.ts per file (a project's hooks run only once trusted).
	hooks: checked(checkHooksSetting),
	enableAllProjectMcpServers: bool,
	enabledMcpjsonServers: names("server names"),
	permissions: checkedSection(permissionsChecks),
	sandbox: checkedSection(sandboxChecks),
};

/**
 * Checks parsed JSON against the schema above: every problem is listed (naming `file` and the field),
 * and `value` keeps only the fields that passed.
 */
export function checkSettings(data: unknown, file: string): { value: SettingsFile; problems: ConfigProblem[] } {
	const { value, problems } = checkFields(data, topLevel, file);
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
		const { compaction, retry, tools, shell, notifications, webSearch, permissions: _permissions, sandbox: _sandbox, ...rest } = layer;
		Object.assign(out, rest);
		if (compaction) Object.assign(out.compaction, compaction);
		if (retry) Object.assign(out.retry, retry);
		if (tools) Object.assign(out.tools, tools);
		if (shell) Object.assign(out.shell, shell);
		if (notifications) out.notifications = { ...out.notifications, ...notifications };
		if (webSearch) out.webSearch = { ...out.webSearch, ...webSearch };
	}
	return out;
}

export function globalSettingsPath(env?: Record<string, string | undefined>): string {
	return configFile("settings", env);
}

export function projectSettingsPath(cwd: string): string {
	return projectSettingsFile(cwd);
}

export interface SettingsLoadOptions {
	cwd: string;
	env?: Record<string, string | undefined>;
	/**
	 * The project folder is trusted (remembered, or `--trust-project`). Until it is, the project's entries
	 * that change the model, costs or safety wait (src/session/settings-trust.ts).
	 */
	trusted?: boolean;
}

/** The project layer as it applies: global-only and (untrusted) held entries taken out. */
function projectLayer(
	global: SettingsFile,
	project: SettingsFile,
	file: string,
	trusted: boolean,
): { project: SettingsFile; held: HeldSetting[] } {
	// `shell` is global-only (see ShellSettings.passEnv).
	const { shell: _globalOnly, ...rest } = project;
	return trusted ? { project: rest, held: [] } : holdProjectSettings(rest, mergeSettings(global), file);
}

/** Global settings, then the project's on top; throws the first problem. */
export function loadSettings(options: SettingsLoadOptions): Settings {
	const global = readSettingsFile(globalSettingsPath(options.env));
	const file = projectSettingsPath(options.cwd);
	return mergeSettings(global, projectLayer(global, readSettingsFile(file), file, options.trusted === true).project);
}

/**
 * Global settings, then the project's on top, never throwing: a bad field is dropped and listed in
 * `problems` with its file (the CLI shows each once at start), the rest of the file still applies.
 * `held` lists the project entries waiting for trust; `heldSettingsNotice` says them in one line.
 */
export function loadSettingsChecked(options: SettingsLoadOptions): {
	settings: Settings;
	problems: ConfigProblem[];
	held: HeldSetting[];
} {
	const global = readSettingsChecked(globalSettingsPath(options.env));
	const projectFile = projectSettingsPath(options.cwd);
	const project = readSettingsChecked(projectFile);
	const problems = [...global.problems, ...project.problems];
	if (project.value.shell) {
		problems.push({ file: projectFile, field: "shell", problem: "is read from the global settings only (it can pass keys to commands)" });
	}
	const layer = projectLayer(global.value, project.value, projectFile, options.trusted === true);
	return { settings: mergeSettings(global.value, layer.project), problems, held: layer.held };
}
