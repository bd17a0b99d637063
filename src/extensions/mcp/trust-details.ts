// What the MCP trust prompt shows of each server: everything that decides what runs (the whole
// command line, its folder, every env value, the URL and header names) with only secrets masked, and
// each env name that can make other code run flagged. `formatMcpTrustLines` gives the lines a UI
// prints; every line is sanitised, so an escape or an invisible character in a value shows as a marker.

import { sanitizeTerminalText } from "../../safety/sanitize.js";
import { REDACTED, redactSecrets } from "../../safety/secrets.js";
import { codeRunningEnv } from "./code-env.js";
import { type McpServerConfig, type McpServerSource, shellWord } from "./config.js";

/** One env variable or header as the prompt shows it. */
export interface McpTrustVariable {
	name: string;
	/** The value, or REDACTED for a secret. */
	value: string;
	secret: boolean;
	/** Why this name can run code (env only). */
	runsCode?: string;
}

/** One project server waiting for the user's answer. */
export interface McpTrustServer {
	name: string;
	source: McpServerSource;
	file: string;
	/** The one-line summary `/mcp` shows too (env names only). */
	target: string;
	transport: "stdio" | "http";
	/** stdio: the program and its arguments, whole. */
	command?: string;
	args?: string[];
	/** stdio: the folder it starts in (absent: the project folder). */
	cwd?: string;
	env: McpTrustVariable[];
	/** http: the endpoint, and its headers (values are secrets). */
	url?: string;
	headers: McpTrustVariable[];
}

function variable(config: McpServerConfig, name: string, value: string, runsCode?: string): McpTrustVariable {
	const secret = config.secrets.includes(value.trim());
	// Other secrets the process knows (a provider key pasted into an arg) are masked inside the value too.
	return { name, value: secret ? REDACTED : redactSecrets(value), secret, ...(runsCode ? { runsCode } : {}) };
}

/** The prompt's data for one server. */
export function trustDetails(config: McpServerConfig, target: string): McpTrustServer {
	const base = { name: config.name, source: config.source, file: config.file, target };
	const t = config.transport;
	if (t.type === "http") {
		const headers = Object.entries(t.headers).map(([name, value]) => variable(config, name, value));
		return { ...base, transport: "http", url: redactSecrets(t.url), env: [], headers };
	}
	const env = Object.entries(t.env).map(([name, value]) => variable(config, name, value, codeRunningEnv(name)));
	return {
		...base,
		transport: "stdio",
		command: redactSecrets(t.command),
		args: t.args.map(redactSecrets),
		...(t.cwd !== undefined ? { cwd: redactSecrets(t.cwd) } : {}),
		env,
		headers: [],
	};
}

/**
 * The lines of the trust prompt for `servers`: per server its name and file, then the command line
 * (or URL), the folder, and one line per env variable (`NAME=value`, flagged when the name can run
 * code) or header. Nothing is cut: a UI wraps long lines, it does not truncate them.
 */
export function formatMcpTrustLines(request: { servers: readonly McpTrustServer[] }): string[] {
	const lines: string[] = [];
	for (const server of request.servers) {
		lines.push(`${server.name}  (from ${server.file})`);
		if (server.transport === "http") lines.push(`  url: ${server.url ?? ""}`);
		else lines.push(`  runs: ${[server.command ?? "", ...(server.args ?? [])].map(shellWord).join(" ")}`);
		if (server.cwd !== undefined) lines.push(`  in: ${server.cwd}`);
		for (const v of server.env) {
			lines.push(`  env ${v.name}=${v.secret ? v.value : shellWord(v.value)}${v.runsCode ? `  ⚠ can run code: ${v.runsCode}` : ""}`);
		}
		for (const h of server.headers) lines.push(`  header ${h.name}: ${h.value}`);
	}
	return lines.map(sanitizeTerminalText);
}
