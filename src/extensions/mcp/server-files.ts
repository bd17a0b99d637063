// Adding and removing MCP server entries in the files the loader reads (config.ts): `user` is the
// global settings file's `mcpServers`, `project` the folder's `.mcp.json` (Claude Code's format). An
// entry is checked with the loader's own parser before it is written, the rest of the file is kept
// as it was, and the file is replaced whole (written beside, renamed).
import { statSync } from "node:fs";
import { configFile, mcpJsonFile, projectSettingsFile } from "../../config/paths.js";
import { isObject, parseJsonObject, readIfExists, writeJsonAtomic } from "../../settings/json-object.js";
import { type McpServerSource, parseMcpServers } from "./config.js";

type Env = Record<string, string | undefined>;

export type McpScope = "user" | "project";
export const MCP_SCOPES: readonly McpScope[] = ["user", "project"];

/** Which scope a loaded server's source belongs to (project settings count as project). */
export const scopeOfSource = (source: McpServerSource): McpScope => (source === "global" ? "user" : "project");

export function scopeFile(scope: McpScope, cwd: string, env: Env): string {
	return scope === "user" ? configFile("settings", env) : mcpJsonFile(cwd);
}

/** Every file a server of that scope may be in, in the loader's order. */
function filesOf(scope: McpScope, cwd: string, env: Env): string[] {
	return scope === "user" ? [configFile("settings", env)] : [mcpJsonFile(cwd), projectSettingsFile(cwd)];
}

function readObject(file: string): Record<string, unknown> {
	const text = readIfExists(file);
	return text?.trim() ? parseJsonObject(text, file) : {};
}

/** Kept in the file's own mode; a new global settings file is the user's alone (its entries may hold tokens). */
function write(file: string, data: Record<string, unknown>, scope: McpScope): void {
	let mode = scope === "user" ? 0o600 : 0o644;
	try {
		mode = statSync(file).mode & 0o777;
	} catch {
		// a new file
	}
	writeJsonAtomic(file, data, mode);
}

/** Adds `entry` as server `name`; throws a one-line message when the name is taken or the entry is invalid. */
export function addServerEntry(options: { name: string; entry: Record<string, unknown>; scope: McpScope; cwd: string; env: Env }): string {
	const file = scopeFile(options.scope, options.cwd, options.env);
	const data = readObject(file);
	const servers = data.mcpServers === undefined ? {} : data.mcpServers;
	if (!isObject(servers)) throw new Error(`${file}: "mcpServers" is not an object; fix it by hand first`);
	if (Object.hasOwn(servers, options.name))
		throw new Error(`${file} already has an MCP server "${options.name}" (rudder mcp remove ${options.name} -s ${options.scope} first)`);
	// The loader's own check, with variables left as written (they are read when the server starts).
	parseMcpServers({ [options.name]: options.entry }, file, options.scope === "user" ? "global" : "mcp-json", {});
	write(file, { ...data, mcpServers: { ...servers, [options.name]: options.entry } }, options.scope);
	return file;
}

/** Removes server `name` from the files of `scope` (or of any scope); returns the files it was removed from. */
export function removeServerEntry(options: { name: string; scope?: McpScope; cwd: string; env: Env }): string[] {
	const scopes = options.scope ? [options.scope] : MCP_SCOPES;
	const holders = scopes.flatMap((scope) =>
		filesOf(scope, options.cwd, options.env)
			.map((file) => ({ file, scope, data: readObject(file) }))
			.filter((f) => isObject(f.data.mcpServers) && Object.hasOwn(f.data.mcpServers, options.name)),
	);
	if (holders.length === 0)
		throw new Error(`No MCP server "${options.name}"${options.scope ? ` in ${options.scope} scope` : ""} (rudder mcp list shows them)`);
	if (!options.scope && new Set(holders.map((h) => h.scope)).size > 1)
		throw new Error(`MCP server "${options.name}" is in both user and project scope; say which with -s user or -s project`);
	for (const { file, data, scope } of holders) {
		const { [options.name]: _removed, ...rest } = data.mcpServers as Record<string, unknown>;
		write(file, { ...data, mcpServers: rest }, scope);
	}
	return holders.map((h) => h.file);
}
