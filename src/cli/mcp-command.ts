// `rudder mcp add|list|get|remove|login|logout`: MCP servers from the shell, in Claude Code's syntax.
//   rudder mcp add [--transport stdio|http] [-s user|project] [-e K=V]... [--header "K: V"]... <name> <command or url> [args...]
//   rudder mcp add github -s project --transport http https://api.example.com/mcp
//   rudder mcp add files -e ROOT=/srv -- npx -y @modelcontextprotocol/server-filesystem /srv
// `user` is the global settings file, `project` the folder's .mcp.json (servers there run once trusted).
// Names, commands and URLs may come from a cloned repo's files: sanitised before they reach the
// terminal; env values, header values, secrets and tokens are never printed.
import { Command, Option } from "commander";
import { openBrowser } from "../extensions/mcp/auth/browser.js";
import { signIn } from "../extensions/mcp/auth/sign-in.js";
import { McpAuthStore } from "../extensions/mcp/auth/token-store.js";
import { describeTransport, loadMcpConfig, type McpServerConfig } from "../extensions/mcp/config.js";
import { addServerEntry, MCP_SCOPES, type McpScope, removeServerEntry, scopeOfSource } from "../extensions/mcp/server-files.js";
import { sanitizeTerminalText } from "../safety/sanitize.js";
import { redactSecrets } from "../safety/secrets.js";
import { type CommandOutput, failedCommand } from "./subcommand-result.js";

type Env = Record<string, string | undefined>;

interface Out {
	stdout: string;
	stderr: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];
const shown = (text: string) => sanitizeTerminalText(redactSecrets(text));

/** `-e KEY=VALUE` values as an object; throws naming the flag. */
export function parseEnvFlags(values: readonly string[]): Record<string, string> {
	const env: Record<string, string> = {};
	for (const value of values) {
		const at = value.indexOf("=");
		if (at <= 0) throw new Error(`-e ${value}: expected KEY=VALUE`);
		env[value.slice(0, at)] = value.slice(at + 1);
	}
	return env;
}

/** `--header "Name: value"` values as an object; throws naming the flag. */
export function parseHeaderFlags(values: readonly string[]): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const value of values) {
		const at = value.indexOf(":");
		const name = at > 0 ? value.slice(0, at).trim() : "";
		if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new Error(`--header ${value}: expected "Name: value"`);
		headers[name] = value.slice(at + 1).trim();
	}
	return headers;
}

interface AddOptions {
	transport?: string;
	scope: McpScope;
	env: string[];
	header: string[];
}

/** The entry `rudder mcp add` writes. An http URL without --transport is taken as http. */
export function buildEntry(target: string, args: readonly string[], options: AddOptions): Record<string, unknown> {
	const isUrl = /^https?:\/\//i.test(target);
	const transport = options.transport ?? (isUrl ? "http" : "stdio");
	if (transport === "sse")
		throw new Error("--transport sse: SSE servers are not supported; use the server's streamable HTTP endpoint (--transport http)");
	if (transport === "http") {
		if (!isUrl) throw new Error(`--transport http: ${target} is not an http:// or https:// URL`);
		if (args.length > 0) throw new Error(`--transport http: unexpected arguments after the URL: ${args.join(" ")}`);
		if (options.env.length > 0) throw new Error("-e: environment variables apply to stdio servers; an http server takes --header");
		const headers = parseHeaderFlags(options.header);
		return { type: "http", url: target, ...(Object.keys(headers).length ? { headers } : {}) };
	}
	if (transport !== "stdio") throw new Error(`--transport ${transport}: expected stdio or http`);
	if (options.header.length > 0) throw new Error("--header: headers apply to http servers; a stdio server takes -e KEY=VALUE");
	const env = parseEnvFlags(options.env);
	return { command: target, ...(args.length ? { args: [...args] } : {}), ...(Object.keys(env).length ? { env } : {}) };
}

function find(name: string, cwd: string, env: Env, out: Out): McpServerConfig {
	const loaded = loadMcpConfig({ cwd, env });
	for (const warning of loaded.warnings) out.stderr += `${shown(warning)}\n`;
	const server = loaded.servers.find((s) => s.name === name);
	if (!server) throw new Error(`No MCP server "${name}" (rudder mcp list shows them)`);
	return server;
}

function signInState(server: McpServerConfig, store: McpAuthStore): string {
	const t = server.transport;
	if (t.type !== "http") return "";
	return store.get(server.name, t.url)?.tokens ? "signed in" : "not signed in";
}

function program(out: Out, cwd: string, env: Env): Command {
	const store = new McpAuthStore(env);
	const scopeOption = (fallback?: McpScope) => {
		const option = new Option("-s, --scope <scope>", "user: your global settings; project: this folder's .mcp.json").choices(
			MCP_SCOPES as string[],
		);
		return fallback ? option.default(fallback) : option;
	};
	const root = new Command("rudder mcp")
		.description("configure MCP servers and sign in to them")
		.exitOverride()
		.configureOutput({ writeOut: (s) => (out.stdout += s), writeErr: (s) => (out.stderr += s) });
	root
		.command("add")
		.description("add a server: a command to run (stdio) or a URL (http)")
		.argument("<name>", "the server's name (tools are mcp__<name>__<tool>)")
		.argument("<commandOrUrl>", "the command, or the http(s) URL")
		.argument("[args...]", "the command's arguments (after --)")
		.addOption(new Option("-t, --transport <transport>", "stdio or http (default: http for a URL, else stdio)"))
		.addOption(scopeOption("user"))
		.option("-e, --env <KEY=VALUE>", "an environment variable of a stdio server (repeat for more)", collect, [])
		.option("-H, --header <Name: value>", "a header of an http server (repeat for more)", collect, [])
		.action((name: string, target: string, args: string[], options: AddOptions) => {
			const entry = buildEntry(target, args, options);
			const file = addServerEntry({ name, entry, scope: options.scope, cwd, env });
			out.stdout += `Added ${entry.type === "http" ? "http" : "stdio"} MCP server "${name}" to ${file} (${options.scope} scope)\n`;
			if (options.scope === "project") out.stdout += "Project servers start once you allow them (/mcp allow in rudder)\n";
		});
	root
		.command("list")
		.description("every configured server, with its scope and file")
		.action(() => {
			const loaded = loadMcpConfig({ cwd, env });
			for (const warning of loaded.warnings) out.stderr += `${shown(warning)}\n`;
			if (loaded.servers.length === 0) {
				out.stdout += "No MCP servers configured (rudder mcp add <name> <command or url>)\n";
				return;
			}
			for (const s of loaded.servers) {
				const state = signInState(s, store);
				out.stdout += `${shown(s.name)}: ${shown(describeTransport(s))}  [${scopeOfSource(s.source)}: ${shown(s.file)}]${state ? `  ${state}` : ""}\n`;
			}
		});
	root
		.command("get <name>")
		.description("one server's details (values of env and headers are not shown)")
		.action((name: string) => {
			const s = find(name, cwd, env, out);
			const t = s.transport;
			const lines = [`${shown(s.name)}:`, `  scope: ${scopeOfSource(s.source)} (${shown(s.file)})`, `  type: ${t.type}`];
			if (t.type === "http") {
				lines.push(`  url: ${shown(t.url)}`);
				if (Object.keys(t.headers).length) lines.push(`  headers: ${shown(Object.keys(t.headers).join(", "))}`);
				if (t.oauth?.clientId) lines.push(`  oauth client: ${shown(t.oauth.clientId)}${t.oauth.clientSecret ? " (with a secret)" : ""}`);
				lines.push(`  sign-in: ${signInState(s, store)}`);
			} else {
				lines.push(`  command: ${shown(describeTransport({ ...s, transport: { ...t, env: {} } }))}`);
				if (Object.keys(t.env).length) lines.push(`  env: ${shown(Object.keys(t.env).join(", "))}`);
			}
			out.stdout += `${lines.join("\n")}\n`;
		});
	root
		.command("remove <name>")
		.description("remove a server from the file it is in")
		.addOption(scopeOption())
		.action((name: string, options: { scope?: McpScope }) => {
			for (const file of removeServerEntry({ name, scope: options.scope, cwd, env }))
				out.stdout += `Removed MCP server "${name}" from ${file}\n`;
		});
	root
		.command("login <name>")
		.description("sign in to an http server (opens your browser; the address is printed too)")
		.action(async (name: string) => {
			const s = find(name, cwd, env, out);
			const t = s.transport;
			if (t.type !== "http") throw new Error(`MCP server "${name}" runs as a local command; only http servers sign in`);
			const result = await signIn(
				{ name, url: t.url, headers: t.headers, oauth: t.oauth },
				{
					store,
					openBrowser: (url) => openBrowser(url, env),
					onUrl: (url, opened) => {
						// Printed as it happens: the command then waits for the browser.
						process.stderr.write(
							`${opened ? "Opened your browser to sign in" : "Open this address to sign in"} to MCP server "${name}":\n${url}\n`,
						);
					},
				},
			).catch((error: Error) => {
				throw new Error(`sign-in to MCP server "${name}" failed: ${error.message}`);
			});
			out.stdout += result === "not-needed" ? `MCP server "${name}" does not ask for sign-in\n` : `Signed in to MCP server "${name}"\n`;
		});
	root
		.command("logout <name>")
		.description("delete the stored sign-in of a server")
		.action((name: string) => {
			const s = find(name, cwd, env, out);
			const t = s.transport;
			if (t.type !== "http") throw new Error(`MCP server "${name}" runs as a local command; it has no sign-in`);
			out.stdout += store.remove(name, t.url) ? `Signed out of MCP server "${name}"\n` : `No sign-in is stored for MCP server "${name}"\n`;
		});
	return root;
}

/** Runs `rudder mcp <args>`; every failure is one line on stderr. */
export async function runMcpCommand(args: readonly string[], cwd: string, env: Env): Promise<CommandOutput> {
	const out: Out = { stdout: "", stderr: "" };
	try {
		await program(out, cwd, env).parseAsync([...args], { from: "user" });
		return { code: 0, ...out };
	} catch (error) {
		return failedCommand("rudder mcp", error, out);
	}
}
