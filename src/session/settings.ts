// User settings: `<configDir>/settings.json` (global) overridden field by field by
// `<cwd>/.rudder/settings.json` (project). A typo must not be silently ignored, so an unknown key or a
// bad value is an error naming the file and the field.
import { existsSync, readFileSync } from "node:fs";
import type { QueueMode } from "../agent/types.js";
import { THINKING_LEVELS, type ThinkingLevel } from "../ai/index.js";
import { configFile, projectSettingsFile } from "../config/paths.js";
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
}

/** What a settings file may hold: every field optional, sections merged field by field. */
export type SettingsFile = Partial<Omit<Settings, "compaction" | "retry" | "tools">> & {
	compaction?: Partial<CompactionSettings>;
	retry?: Partial<RetrySettings>;
	tools?: Partial<ToolSettings>;
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
	tools: { maxProcesses: positive },
	checkpoints: bool,
	// Read by src/extensions/mcp/config.ts per file (where a server comes from decides whether it is trusted).
	mcpServers: checkMcpServersSetting,
	enableAllProjectMcpServers: bool,
	enabledMcpjsonServers: (v) =>
		Array.isArray(v) && v.every((n) => typeof n === "string") ? undefined : "must be an array of server names",
	permissions: permissionsChecks,
	sandbox: sandboxChecks,
};

/** Checks parsed JSON against the schema above; throws one line naming `file` and the field. */
export function validateSettings(data: unknown, file: string): SettingsFile {
	const fail = (field: string, problem: string): never => {
		throw new Error(`Invalid settings in ${file}: "${field}" ${problem}`);
	};
	if (typeof data !== "object" || data === null || Array.isArray(data)) fail("(root)", "must be a JSON object");
	for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
		const rule = topLevel[key];
		if (!rule) fail(key, "is not a known setting");
		if (typeof rule === "function") {
			const problem = rule(value);
			if (problem) fail(key, problem);
			continue;
		}
		if (typeof value !== "object" || value === null || Array.isArray(value)) fail(key, "must be an object");
		for (const [sub, subValue] of Object.entries(value as Record<string, unknown>)) {
			const subRule = (rule as Record<string, Check>)[sub];
			if (!subRule) fail(`${key}.${sub}`, "is not a known setting");
			const problem = subRule(subValue);
			if (problem) fail(`${key}.${sub}`, problem);
		}
	}
	return data as SettingsFile;
}

/** Reads one settings file; a missing file is empty, a broken one throws one clear line. */
export function readSettingsFile(file: string): SettingsFile {
	if (!existsSync(file)) return {};
	let data: unknown;
	try {
		data = JSON.parse(readFileSync(file, "utf8"));
	} catch (error) {
		const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
		throw new Error(`Invalid JSON in ${file}: ${reason}`);
	}
	return validateSettings(data, file);
}

/** Later layers win field by field; sections (`compaction`, `retry`, `tools`) merge per field too. */
export function mergeSettings(...layers: SettingsFile[]): Settings {
	const out: Settings = structuredClone({ ...defaultSettings }) as Settings;
	for (const layer of layers) {
		const { compaction, retry, tools, permissions: _permissions, sandbox: _sandbox, ...rest } = layer;
		Object.assign(out, rest);
		if (compaction) Object.assign(out.compaction, compaction);
		if (retry) Object.assign(out.retry, retry);
		if (tools) Object.assign(out.tools, tools);
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
	return mergeSettings(readSettingsFile(globalSettingsPath(options.env)), readSettingsFile(projectSettingsPath(options.cwd)));
}
