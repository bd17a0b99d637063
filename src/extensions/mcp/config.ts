// Where MCP servers are configured and what a configuration may say. Three sources, in rising
// precedence for a name: the user's global settings `mcpServers`, the project's `.mcp.json` (Claude
// Code's format), the project settings `mcpServers`. Project servers run only once trusted (trust.ts).
// `${VAR}` and `${VAR:-default}` in command, args, env, url and headers are read from the environment,
// so a token never has to be written into a checked-in file.
import { existsSync, readFileSync } from "node:fs";
import { configFile, mcpJsonFile, projectSettingsFile } from "../../config/paths.js";
import { checkMcpServerShape } from "../../config/schema/mcp.js";
import { isCredentialName } from "../../safety/child-env.js";
import { looksLikeToken, MIN_SECRET_LENGTH, processSecrets, redactSecrets } from "../../safety/secrets.js";

type Env = Record<string, string | undefined>;

/** "editor": given by an ACP client with its session (src/modes/acp/client-mcp.ts), trusted like the global ones. */
export type McpServerSource = "global" | "project-settings" | "mcp-json" | "editor";

export interface StdioTransportConfig {
	type: "stdio";
	command: string;
	args: string[];
	/** Added to the default environment the SDK passes (PATH, HOME, …). */
	env: Record<string, string>;
	cwd?: string;
}

/** A client registered with the server's authorization server beforehand, from the entry's `oauth`. */
export interface McpOAuthConfig {
	clientId?: string;
	clientSecret?: string;
	callbackPort?: number;
	clientMetadataUrl?: string;
	scope?: string;
}

export interface HttpTransportConfig {
	type: "http";
	url: string;
	headers: Record<string, string>;
	oauth?: McpOAuthConfig;
}

export interface McpServerConfig {
	name: string;
	source: McpServerSource;
	/** The file it was read from, for messages. */
	file: string;
	transport: StdioTransportConfig | HttpTransportConfig;
	/** Per tool call; default DEFAULT_CALL_TIMEOUT_MS. */
	timeoutMs: number;
	/** Its secret env values (by name, from a variable, or by shape) and header values: never shown, written or sent. */
	secrets: string[];
}

export const DEFAULT_CALL_TIMEOUT_MS = 120_000;

/** Server names become part of tool names (`mcp__<name>__<tool>`), which providers limit to these characters. */
const SERVER_NAME = /^[A-Za-z0-9_-]{1,40}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Replaces `${VAR}` / `${VAR:-default}`; an unset variable without a default becomes "". `used` collects the values. */
export function expandVariables(text: string, env: Env, used?: string[]): string {
	return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback?: string) => {
		const value = env[name] ?? fallback ?? "";
		used?.push(value);
		return value;
	});
}

/**
 * An env value is a secret when its name says so (GITHUB_TOKEN), it came from a variable (`${GH_TOKEN}`)
 * or it has a key's shape. Other values (NODE_OPTIONS, PATH, a flag) are shown in the trust prompt:
 * they decide what runs.
 */
const secretEnvValue = (name: string, raw: string, value: string): boolean =>
	isCredentialName(name) || raw.includes("${") || looksLikeToken(value);

/** A header value is always treated as a secret: headers carry the tokens of http servers. */
const secretHeaderValue = (): boolean => true;

function stringRecord(
	value: unknown,
	where: string,
	env: Env,
	used: string[],
	isSecret: (name: string, raw: string, value: string) => boolean,
): Record<string, string> {
	if (value === undefined) return {};
	if (!isObject(value)) throw new Error(`${where} must be an object of strings`);
	const out: Record<string, string> = {};
	for (const [key, v] of Object.entries(value)) {
		if (typeof v !== "string") throw new Error(`${where}.${key} must be a string`);
		out[key] = expandVariables(v, env, used);
		if (isSecret(key, v, out[key])) used.push(out[key]);
	}
	return out;
}

/** The entry's `oauth` (its shape already checked); the client secret is a secret, from a variable or not. */
function parseOAuth(raw: Record<string, unknown>, env: Env, used: string[]): McpOAuthConfig {
	const text = (v: unknown) => (typeof v === "string" ? expandVariables(v, env) : undefined);
	const oauth: McpOAuthConfig = {
		clientId: text(raw.clientId),
		clientSecret: text(raw.clientSecret),
		callbackPort: raw.callbackPort as number | undefined,
		clientMetadataUrl: text(raw.clientMetadataUrl),
		scope: text(raw.scope),
	};
	if (oauth.clientSecret) used.push(oauth.clientSecret);
	return Object.fromEntries(Object.entries(oauth).filter(([, v]) => v !== undefined)) as McpOAuthConfig;
}

/** One server entry; throws a message naming the field (the caller adds the file). */
function parseServer(name: string, input: unknown, env: Env): Pick<McpServerConfig, "transport" | "timeoutMs" | "secrets"> {
	const at = `mcpServers.${name}`;
	if (!SERVER_NAME.test(name)) throw new Error(`"${at}": the name must be 1-40 letters, digits, - or _`);
	if (!isObject(input)) throw new Error(`"${at}" must be an object`);
	const shape = checkMcpServerShape(input, at);
	const first = shape.problems[0];
	if (first) throw new Error(`"${first.field}" ${first.problem}`);
	// A null-prototype copy: every field read below is the entry's own.
	const raw = shape.value;
	const timeout = raw.timeout;
	const timeoutMs = (timeout as number | undefined) ?? DEFAULT_CALL_TIMEOUT_MS;
	const used: string[] = [];
	// Very short values ("1", "true") are settings, not secrets, and redacting them would garble text.
	const secrets = () => [...new Set(used.map((v) => v.trim()).filter((v) => v.length >= MIN_SECRET_LENGTH))];
	const type = raw.type ?? (raw.url !== undefined ? "http" : "stdio");
	if (type === "sse")
		throw new Error(`"${at}.type": "sse" servers are not supported; use the server's streamable HTTP endpoint ("type": "http")`);
	if (type === "http" || type === "streamable-http") {
		if (typeof raw.url !== "string") throw new Error(`"${at}.url" must be a string`);
		const url = expandVariables(raw.url, env);
		if (!/^https?:\/\//i.test(url)) throw new Error(`"${at}.url" must start with http:// or https://`);
		const headers = stringRecord(raw.headers, `"${at}.headers"`, env, used, secretHeaderValue);
		const oauth = raw.oauth === undefined ? undefined : parseOAuth(raw.oauth as Record<string, unknown>, env, used);
		return { transport: { type: "http", url, headers, ...(oauth ? { oauth } : {}) }, timeoutMs, secrets: secrets() };
	}
	if (raw.oauth !== undefined) throw new Error(`"${at}.oauth" applies to http servers only`);
	if (type !== "stdio") throw new Error(`"${at}.type" must be "stdio" or "http"`);
	if (typeof raw.command !== "string" || raw.command.trim() === "") throw new Error(`"${at}.command" must be a non-empty string`);
	if (raw.args !== undefined && !(Array.isArray(raw.args) && raw.args.every((a) => typeof a === "string"))) {
		throw new Error(`"${at}.args" must be an array of strings`);
	}
	if (raw.cwd !== undefined && typeof raw.cwd !== "string") throw new Error(`"${at}.cwd" must be a string`);
	const transport: StdioTransportConfig = {
		type: "stdio",
		// The command line is shown in the trust prompt, so its variables are not treated as secrets.
		command: expandVariables(raw.command, env),
		args: ((raw.args as string[] | undefined) ?? []).map((a) => expandVariables(a, env)),
		env: stringRecord(raw.env, `"${at}.env"`, env, used, secretEnvValue),
		cwd: typeof raw.cwd === "string" ? expandVariables(raw.cwd, env) : undefined,
	};
	return { transport, timeoutMs, secrets: secrets() };
}

/**
 * The `mcpServers` object of a settings file or `.mcp.json`, server by server: a bad entry is one line
 * naming the file and field, and the others still load.
 */
export function readMcpServers(
	value: unknown,
	file: string,
	source: McpServerSource,
	env: Env = process.env,
): { servers: McpServerConfig[]; problems: string[] } {
	if (!isObject(value)) return { servers: [], problems: [`Invalid MCP configuration in ${file}: "mcpServers" must be an object`] };
	const servers: McpServerConfig[] = [];
	const problems: string[] = [];
	for (const name of Object.keys(value)) {
		try {
			servers.push({ name, source, file, ...parseServer(name, value[name], env) });
		} catch (error) {
			problems.push(`Invalid MCP configuration in ${file}: ${(error as Error).message}`);
		}
	}
	return { servers, problems };
}

/** The `mcpServers` object of a settings file or `.mcp.json`; throws the first problem, one line naming the file and field. */
export function parseMcpServers(value: unknown, file: string, source: McpServerSource, env: Env = process.env): McpServerConfig[] {
	const { servers, problems } = readMcpServers(value, file, source, env);
	if (problems[0]) throw new Error(problems[0]);
	return servers;
}

/** For settings validation: the problem with an `mcpServers` value, without the file (settings adds it). */
export function checkMcpServersSetting(value: unknown): string | undefined {
	try {
		parseMcpServers(value, "", "global", {});
		return undefined;
	} catch (error) {
		const message = (error as Error).message.replace(/^Invalid MCP configuration in : /, "");
		return message.startsWith('"mcpServers" ') ? message.slice('"mcpServers" '.length) : `is invalid: ${message}`;
	}
}

/** What the user's own global settings say about trusting project servers (never read from a project). */
export interface McpTrustSettings {
	enableAllProjectMcpServers: boolean;
	enabledMcpjsonServers: string[];
}

export interface LoadedMcpConfig {
	/** One per name, the highest-precedence source winning. */
	servers: McpServerConfig[];
	trust: McpTrustSettings;
	/** A broken file or field: the rest still loads. */
	warnings: string[];
}

function readJson(file: string): unknown {
	if (!existsSync(file)) return undefined;
	try {
		return JSON.parse(readFileSync(file, "utf8"));
	} catch (error) {
		throw new Error(`Invalid JSON in ${file}: ${(error as Error).message.split("\n")[0]}`);
	}
}

/** Reads the three sources. A broken one is a warning and contributes no server; the others load. */
export function loadMcpConfig(options: { cwd: string; env?: Env }): LoadedMcpConfig {
	const env = options.env ?? process.env;
	const warnings: string[] = [];
	const byName = new Map<string, McpServerConfig>();
	const trust: McpTrustSettings = { enableAllProjectMcpServers: false, enabledMcpjsonServers: [] };
	const sources: [string, McpServerSource][] = [
		[configFile("settings", env), "global"],
		[mcpJsonFile(options.cwd), "mcp-json"],
		[projectSettingsFile(options.cwd), "project-settings"],
	];
	for (const [file, source] of sources) {
		try {
			const data = readJson(file);
			if (!isObject(data)) continue;
			if (source === "global") readTrust(data, trust);
			else if (data.enableAllProjectMcpServers !== undefined || data.enabledMcpjsonServers !== undefined) {
				warnings.push(`Ignored the MCP trust settings in ${file}: only your global settings can trust a project's servers`);
			}
			if (data.mcpServers === undefined) continue;
			const { servers, problems } = readMcpServers(data.mcpServers, file, source, env);
			for (const server of servers) byName.set(server.name, server);
			for (const problem of problems) warnings.push(`${problem} (that server was not started)`);
		} catch (error) {
			warnings.push(`${(error as Error).message} (its MCP servers were not started)`);
		}
	}
	// From here on every writer (session file, print/json/rpc, notices) masks them.
	for (const server of byName.values()) for (const secret of server.secrets) processSecrets.add(secret);
	return { servers: [...byName.values()], trust, warnings };
}

function readTrust(data: Record<string, unknown>, trust: McpTrustSettings): void {
	if (data.enableAllProjectMcpServers === true) trust.enableAllProjectMcpServers = true;
	const names = data.enabledMcpjsonServers;
	if (Array.isArray(names)) trust.enabledMcpjsonServers = names.filter((n): n is string => typeof n === "string");
}

/** A word as a shell would need it quoted, so spaces and quotes inside an argument stay visible. */
export function shellWord(word: string): string {
	return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command line or URL, as the trust prompt and `/mcp` show it: env and header values never, secrets masked. */
export function describeTransport(config: McpServerConfig): string {
	return redactSecrets(describeUnmasked(config));
}

function describeUnmasked(config: McpServerConfig): string {
	const t = config.transport;
	if (t.type === "http") {
		const headers = Object.keys(t.headers);
		return `${t.url}${headers.length ? ` (headers: ${headers.join(", ")})` : ""}`;
	}
	const env = Object.keys(t.env);
	return `${[t.command, ...t.args].map(shellWord).join(" ")}${env.length ? ` (env: ${env.join(", ")})` : ""}${t.cwd ? ` (in ${t.cwd})` : ""}`;
}
