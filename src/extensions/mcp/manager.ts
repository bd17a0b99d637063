// All configured MCP servers of a session: which may start (trust), starting them in the background,
// the AgentTools they offer, a snapshot for `/mcp` and rpc `get_state`, and one notice per failure.
import type { AgentTool } from "../../agent/types.js";
import { redactSecrets } from "../../safety/secrets.js";
import { openBrowser } from "./auth/browser.js";
import { ServerAuth } from "./auth/server-auth.js";
import { signIn } from "./auth/sign-in.js";
import { McpAuthStore } from "./auth/token-store.js";
import {
	describeTransport,
	type HttpTransportConfig,
	type McpServerConfig,
	type McpServerSource,
	type McpTrustSettings,
} from "./config.js";
import { McpConnection, type McpServerStatus } from "./connection.js";
import type { McpElicitHandler } from "./elicitation.js";
import { promptCommandName, promptMessage } from "./prompts.js";
import { resourceBlock } from "./resources.js";
import type { McpPromptDefinition } from "./server-lists.js";
import { UNUSABLE_PROMPT_REASON } from "./server-lists.js";
import { agentToolName, createMcpTool } from "./tools.js";
import { rememberTrust, trustStates } from "./trust.js";
import { type McpTrustServer, trustDetails } from "./trust-details.js";

type Env = Record<string, string | undefined>;

/** One server as `/mcp` and rpc `get_state` show it. */
export interface McpServerInfo {
	name: string;
	source: McpServerSource;
	status: McpServerStatus;
	/** Command line or URL; env and header values never appear. */
	target: string;
	/** The tool names the model sees. */
	tools: string[];
	/** Its prompts' slash commands (`mcp__<server>__<prompt>`). */
	prompts: string[];
	/** Its prompts left out because their names cannot be commands (visible-safe); `/mcp` shows them with the reason. */
	unusablePrompts: string[];
	/** Its resources, attachable as `@<server>:<uri>`. */
	resources: { uri: string; name: string }[];
	error?: string;
}

/** A server's prompt as a slash command. */
export interface McpPromptCommand {
	name: string;
	server: string;
	prompt: McpPromptDefinition;
}

/** Project servers waiting for the user's answer, with what each would run (trust-details.ts). */
export interface McpTrustRequest {
	servers: McpTrustServer[];
}

export interface McpManagerOptions {
	servers: McpServerConfig[];
	trust: McpTrustSettings;
	cwd: string;
	env?: Env;
	notify(level: "info" | "warning" | "error", text: string): void;
	/** Answers the servers' `elicitation/create`; absent: declined. */
	elicit?: McpElicitHandler;
	/** The tool list changed (a server became ready, died or changed its tools). */
	onToolsChanged(): void;
	/** How long the first request may wait for starting servers. Default READY_WAIT_MS. */
	readyWaitMs?: number;
}

/** "A few seconds": long enough for a local server, short enough that a hung one does not hold a prompt. */
export const READY_WAIT_MS = 5_000;

export type McpStartMode = "interactive" | "headless";

export class McpManager {
	private readonly connections: McpConnection[];
	private readonly states: Map<string, McpServerStatus>;
	private toolList: AgentTool[] = [];
	private snapshot: readonly McpServerInfo[] = [];
	private startedAt?: number;
	private starting: Promise<void>[] = [];
	private settingsPath = "";
	private mode: McpStartMode = "interactive";
	private readonly authStore: McpAuthStore;
	/** Step-up scopes already announced, per server: one notice each. */
	private readonly announcedStepUps = new Set<string>();
	/** Servers whose sign-in waits for the browser: a second /mcp login does not open another page. */
	private readonly signingIn = new Set<string>();
	/** Ends the sign-ins still waiting for the browser when the session closes (their listeners close). */
	private readonly signInAbort = new AbortController();

	constructor(private readonly options: McpManagerOptions) {
		const trust = trustStates(options.servers, { cwd: options.cwd, env: options.env, settings: options.trust });
		this.states = new Map();
		this.authStore = new McpAuthStore(options.env);
		this.connections = options.servers.map((config) => {
			const t = config.transport;
			const auth = t.type === "http" ? new ServerAuth({ name: config.name, url: t.url, oauth: t.oauth }, this.authStore) : undefined;
			const connection = new McpConnection(config, (c) => this.onChange(c), auth, options.elicit);
			const state = trust.get(config.name);
			connection.status = state === "trusted" ? "stopped" : state === "declined" ? "declined" : "untrusted";
			this.states.set(config.name, connection.status);
			return connection;
		});
		this.refreshSnapshot();
	}

	/** The global settings file, named in the notice on how to trust servers. */
	setSettingsPath(path: string): void {
		this.settingsPath = path;
	}

	get hasServers(): boolean {
		return this.connections.length > 0;
	}

	/** Starts every trusted server in the background (once); says once which project servers wait for trust. */
	start(mode: McpStartMode): void {
		if (this.startedAt !== undefined) return;
		this.startedAt = Date.now();
		this.mode = mode;
		for (const c of this.connections) if (c.status === "stopped") this.starting.push(c.start());
		const waiting = this.connections.filter((c) => c.status === "untrusted");
		if (waiting.length > 0) this.options.notify("warning", this.untrustedNotice(waiting, mode));
	}

	private untrustedNotice(waiting: McpConnection[], mode: McpStartMode): string {
		const names = waiting.map((c) => c.config.name);
		if (mode === "interactive") {
			const lines = waiting.map((c) => `  ${c.config.name}: ${describeTransport(c.config)}  (${c.config.file})`);
			return [
				"This project configures MCP servers that would run with your permissions:",
				...lines,
				"Start them? /mcp allow (remembered for this folder), /mcp deny",
			].join("\n");
		}
		const list = waiting.map((c) => `${c.config.name} (${describeTransport(c.config)})`).join(", ");
		return (
			`Project MCP servers not started, not trusted yet: ${list}. To allow them, run rudder in this folder and answer /mcp allow, ` +
			`or add "enabledMcpjsonServers": ${JSON.stringify(names)} to ${this.settingsPath || "your global settings"}`
		);
	}

	/** Waits until no server is starting, at most until READY_WAIT_MS after `start`. */
	async whenReady(): Promise<void> {
		if (this.startedAt === undefined || this.starting.length === 0) return;
		const left = this.startedAt + (this.options.readyWaitMs ?? READY_WAIT_MS) - Date.now();
		if (left <= 0) return;
		let timer: NodeJS.Timeout | undefined;
		await Promise.race([Promise.all(this.starting), new Promise<void>((r) => (timer = setTimeout(r, left)))]);
		clearTimeout(timer);
	}

	trustRequest(): McpTrustRequest | undefined {
		const waiting = this.connections.filter((c) => c.status === "untrusted");
		if (waiting.length === 0) return undefined;
		return {
			servers: waiting.map((c) => trustDetails(c.config, describeTransport(c.config))),
		};
	}

	/** The user's answer for the servers waiting for trust (or declined earlier): remembered for this folder. */
	answerTrust(allow: boolean): string[] {
		const asked = this.connections.filter((c) => c.status === "untrusted" || (allow && c.status === "declined"));
		if (asked.length === 0) return [];
		rememberTrust(
			asked.map((c) => c.config),
			allow,
			{ cwd: this.options.cwd, env: this.options.env },
		);
		for (const c of asked) {
			if (!allow) c.set("declined");
			else if (this.startedAt === undefined)
				c.set("stopped"); // `start` launches it with the others
			else this.starting.push(c.start());
		}
		return asked.map((c) => c.config.name);
	}

	/**
	 * `/mcp login <name>`: signs in (the browser opens; its URL is also in a notice) and restarts the
	 * server with the new tokens. Resolves when done; every outcome is a notice.
	 */
	async signIn(name: string): Promise<void> {
		const connection = this.httpConnection(name);
		if (!connection) return;
		const t = connection.config.transport as HttpTransportConfig;
		const notify = this.options.notify;
		if (this.signingIn.has(name)) return notify("info", `A sign-in to MCP server "${name}" is already waiting for the browser`);
		this.signingIn.add(name);
		try {
			const result = await signIn(
				{ name, url: t.url, headers: t.headers, oauth: t.oauth },
				{
					store: this.authStore,
					signal: this.signInAbort.signal,
					openBrowser: (url) => openBrowser(url, this.options.env),
					onUrl: (url, opened) =>
						notify(
							"info",
							`${opened ? "Opened your browser to sign in to" : "Open this address to sign in to"} MCP server "${name}":\n${url}`,
						),
				},
			);
			if (result === "not-needed") return notify("info", `MCP server "${name}" does not ask for sign-in`);
			notify("info", `Signed in to MCP server "${name}"; restarting it`);
			if (connection.status !== "untrusted" && connection.status !== "declined") await connection.restart();
		} catch (error) {
			notify("error", redactSecrets(`Sign-in to MCP server "${name}" failed: ${(error as Error).message}`));
		} finally {
			this.signingIn.delete(name);
		}
	}

	/** `/mcp logout <name>`: forgets its tokens and registered client; a running server shows "needs sign-in" on its next start. */
	async signOut(name: string): Promise<void> {
		const connection = this.httpConnection(name);
		if (!connection) return;
		const t = connection.config.transport as HttpTransportConfig;
		if (!this.authStore.remove(name, t.url)) return this.options.notify("info", `No sign-in is stored for MCP server "${name}"`);
		this.options.notify("info", `Signed out of MCP server "${name}" (its stored tokens are deleted)`);
		if (connection.status === "ready" || connection.status === "needs-login") await connection.restart();
	}

	private httpConnection(name: string): McpConnection | undefined {
		const connection = this.connections.find((c) => c.config.name === name);
		if (!connection) {
			const names = this.connections.map((c) => c.config.name).join(", ");
			this.options.notify("error", `No MCP server "${name}"${names ? ` (configured: ${names})` : ""}`);
			return undefined;
		}
		if (connection.config.transport.type !== "http") {
			this.options.notify("error", `MCP server "${name}" runs as a local command; only http servers sign in`);
			return undefined;
		}
		return connection;
	}

	tools(): AgentTool[] {
		return this.toolList;
	}

	servers(): readonly McpServerInfo[] {
		return this.snapshot;
	}

	/** The ready servers' prompts as commands; a name met twice (after lower-casing) keeps its first server's. */
	promptCommands(): McpPromptCommand[] {
		const seen = new Set<string>();
		return this.connections
			.filter((c) => c.status === "ready")
			.flatMap((c) => c.prompts.map((prompt) => ({ name: promptCommandName(c.config.name, prompt.name), server: c.config.name, prompt })))
			.filter((p) => !seen.has(p.name) && seen.add(p.name));
	}

	/** A prompt's messages, filled in, as the user's message. */
	async expandPrompt(command: McpPromptCommand, args: Record<string, string>) {
		const result = await this.connection(command.server).getPrompt(command.prompt.name, args);
		return promptMessage(result);
	}

	configuredNames(): Set<string> {
		return new Set(this.connections.map((c) => c.config.name));
	}

	/** The names of the ready servers that list resources. */
	resourceServers(): Set<string> {
		return new Set(this.connections.filter((c) => c.status === "ready" && c.resources.length > 0).map((c) => c.config.name));
	}

	/** The block `@server:uri` adds to a prompt, or why not. */
	async attachResource(server: string, uri: string, written: string) {
		return resourceBlock(server, written, await this.connection(server).readResource(uri));
	}

	private connection(name: string): McpConnection {
		const found = this.connections.find((c) => c.config.name === name);
		if (!found) throw new Error(`no MCP server "${name}"`);
		return found;
	}

	secrets(): string[] {
		return this.options.servers.flatMap((s) => s.secrets);
	}

	async dispose(): Promise<void> {
		this.signInAbort.abort();
		await Promise.all(this.connections.map((c) => c.close()));
	}

	private onChange(connection: McpConnection): void {
		const before = this.states.get(connection.config.name);
		this.states.set(connection.config.name, connection.status);
		// One notice per failure, whether at start or later; the run goes on without the server.
		if (connection.status === "failed" && before !== "failed") {
			const tools = connection.tools.length > 0 ? "; its tools answer with an error" : "";
			this.options.notify("error", `MCP server "${connection.config.name}" failed: ${connection.error ?? "unknown error"}${tools}`);
		}
		const name = connection.config.name;
		// One notice when a server needs sign-in, and one per scope a tool call was refused for.
		// A step-up says so in its own notice below.
		if (connection.status === "needs-login" && before !== "needs-login" && !connection.stepUp)
			this.options.notify("warning", `MCP server "${name}" needs sign-in: ${this.loginHint(name)}`);
		const stepUp = connection.stepUp;
		if (stepUp && !this.announcedStepUps.has(`${name} ${stepUp.scope} ${stepUp.exhausted}`)) {
			this.announcedStepUps.add(`${name} ${stepUp.scope} ${stepUp.exhausted}`);
			this.options.notify(
				"warning",
				stepUp.exhausted
					? `MCP server "${name}" still refuses a call for want of scope "${stepUp.scope}" after signing in for it`
					: `MCP server "${name}" needs more access (scope "${stepUp.scope}"): ${this.loginHint(name)}`,
			);
		}
		this.rebuildTools();
		this.refreshSnapshot();
		this.options.onToolsChanged();
	}

	private loginHint(name: string): string {
		return this.mode === "interactive" ? `/mcp login ${name}` : `run rudder mcp login ${name}`;
	}

	private rebuildTools(): void {
		const seen = new Set<string>();
		const tools: AgentTool[] = [];
		for (const c of this.connections) {
			for (const definition of c.tools) {
				const name = agentToolName(c.config.name, definition.name);
				if (seen.has(name)) continue;
				seen.add(name);
				tools.push(createMcpTool(c, definition, name));
			}
		}
		this.toolList = tools;
	}

	private refreshSnapshot(): void {
		this.snapshot = this.connections.map((c) => ({
			name: c.config.name,
			source: c.config.source,
			status: c.status,
			target: describeTransport(c.config),
			tools: c.tools.map((t) => agentToolName(c.config.name, t.name)),
			prompts: c.prompts.map((p) => promptCommandName(c.config.name, p.name)),
			unusablePrompts: c.unusablePrompts,
			resources: c.resources.map((r) => ({ uri: r.uri, name: r.name })),
			...(c.error && c.status === "failed" ? { error: c.error } : {}),
		}));
	}
}

/** The text of `/mcp`: each server with its status and tools. */
export function formatMcpServers(servers: readonly McpServerInfo[]): string {
	if (servers.length === 0) return 'No MCP servers (configure them in .mcp.json or settings "mcpServers")';
	const lines = servers.map((s) => {
		const head = `${s.name}  ${s.status}  ${s.target}  [${s.source}]`;
		const detail = s.error
			? `\n    ${s.error}`
			: s.status === "untrusted" || s.status === "declined"
				? "\n    start it with /mcp allow"
				: s.status === "needs-login"
					? `\n    sign in with /mcp login ${s.name}`
					: "";
		const tools = s.tools.length > 0 ? `\n    tools: ${s.tools.join(", ")}` : "";
		const prompts = s.prompts.length > 0 ? `\n    prompts: ${s.prompts.map((p) => `/${p}`).join(", ")}` : "";
		const resources = s.resources.length > 0 ? `\n    resources: ${s.resources.map((r) => `@${s.name}:${r.uri}`).join(", ")}` : "";
		const unusable =
			s.unusablePrompts.length > 0
				? `\n    prompts not usable (${UNUSABLE_PROMPT_REASON}): ${s.unusablePrompts.map((p) => JSON.stringify(p)).join(", ")}`
				: "";
		return head + detail + tools + prompts + resources + unusable;
	});
	return `MCP servers:\n${lines.join("\n")}`;
}
