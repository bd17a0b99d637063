// One MCP server: starts it with the official SDK (imported on first start, so a launch without MCP
// never loads it), lists its tools, calls them with a timeout and the run's abort signal (the SDK turns
// an abort into MCP's `notifications/cancelled`), and notices when it dies.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { redactSecrets } from "../../safety/secrets.js";
import type { AuthFailure, ServerAuth } from "./auth/server-auth.js";
import type { McpServerConfig } from "./config.js";
import { answerElicitation, type McpElicitHandler } from "./elicitation-handler.js";
import { listAll, listedPrompts, type McpPromptDefinition, type McpResourceDefinition, offeredResources } from "./server-lists.js";

export type McpServerStatus = "untrusted" | "declined" | "starting" | "ready" | "failed" | "stopped" | "needs-login";

/** A tool as the server lists it. */
export type McpToolDefinition = Pick<Tool, "name" | "description" | "inputSchema">;

/** A progress notification of a running call (`notifications/progress`). */
export interface McpProgress {
	progress: number;
	total?: number;
	message?: string;
}

/** Connecting and listing tools must finish within this; a server still installing itself (npx) may be slow. */
export const START_TIMEOUT_MS = 30_000;
const STDERR_TAIL_CHARS = 2_000;

/** Control characters (ESC included) become spaces: a server's text may not drive the terminal. */
const plain = (text: string) => text.replace(/[\x00-\x1f\x7f-\x9f]+/g, " ").trim();

export class McpConnection {
	status: McpServerStatus = "stopped";
	tools: McpToolDefinition[] = [];
	prompts: McpPromptDefinition[] = [];
	/** Names of the prompts not offered as commands (name not allowed), visible-safe, for `/mcp`. */
	unusablePrompts: string[] = [];
	resources: McpResourceDefinition[] = [];
	/** Why it failed or stopped, one line, secrets masked. */
	error?: string;
	/** A tool call the server refused for want of scope: what the next sign-in asks for. */
	stepUp?: Extract<AuthFailure, { kind: "step-up" }>;

	private client?: Client;
	private stderrTail = "";
	private started?: Promise<void>;
	private closing = false;
	/** The transport closed while connecting: connect's own failure says why (a 401 closes it too). */
	private closedWhileStarting = false;

	constructor(
		readonly config: McpServerConfig,
		/** Called on every change of status or tools. */
		private readonly onChange: (connection: McpConnection) => void,
		/** For http servers: the stored sign-in its requests carry (src/extensions/mcp/auth). */
		private readonly auth?: ServerAuth,
		/** Answers the server's `elicitation/create` (the session asks the user); absent: every request is declined. */
		private readonly elicit?: McpElicitHandler,
	) {}

	/** Starts once; resolves when ready or failed, never rejects. */
	start(): Promise<void> {
		this.started ??= this.connect();
		return this.started;
	}

	private async connect(): Promise<void> {
		this.set("starting");
		try {
			const [{ Client }, transport] = await Promise.all([import("@modelcontextprotocol/sdk/client/index.js"), this.createTransport()]);
			const client = new Client(
				{ name: "rudder", version: "0.1.0" },
				{
					capabilities: { elicitation: { form: {}, url: {} } },
					listChanged: {
						tools: { onChanged: (error, tools) => !error && tools && this.setLists({ tools }) },
						prompts: { onChanged: (error, prompts) => !error && prompts && this.setLists(listedPrompts(prompts)) },
						resources: {
							onChanged: (error, resources) => !error && resources && this.setLists({ resources: offeredResources(resources) }),
						},
					},
				},
			);
			const { ElicitRequestSchema, ElicitationCompleteNotificationSchema } = await import("@modelcontextprotocol/sdk/types.js");
			client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
				answerElicitation(this.config.name, request.params, extra.signal, this.elicit),
			);
			client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) =>
				this.elicit?.completed(this.config.name, notification.params.elicitationId),
			);
			client.onclose = () => this.onClosed();
			this.client = client;
			await client.connect(transport, { timeout: START_TIMEOUT_MS });
			const listed = await listAll((c) => client.listTools(c, { timeout: START_TIMEOUT_MS }), "tools");
			const capabilities = client.getServerCapabilities();
			const options = { timeout: START_TIMEOUT_MS };
			const prompts = listedPrompts(capabilities?.prompts ? await listAll((c) => client.listPrompts(c, options), "prompts") : []);
			const resources = capabilities?.resources
				? offeredResources(await listAll((c) => client.listResources(c, options), "resources"))
				: [];
			if (this.closing) return;
			this.tools = listed;
			Object.assign(this, prompts);
			this.resources = resources;
			this.set("ready");
		} catch (error) {
			if (this.closing) return;
			this.failStart(error);
			await this.client?.close().catch(() => undefined);
		}
	}

	/** Why the start failed: a sign-in it needs (shown as needs-login, not as a failure), or an error. */
	private failStart(error: unknown): void {
		const failure = this.auth?.explain(error);
		if (failure?.kind === "step-up") this.stepUp = failure;
		if (failure?.kind === "needs-sign-in" || (failure?.kind === "step-up" && !failure.exhausted)) {
			this.error = undefined;
			this.set("needs-login");
			return;
		}
		// The SDK's "Connection closed" says less than what happened: the server went away.
		const closed = this.closedWhileStarting && /connection closed/i.test(String(error));
		if (failure?.kind === "step-up") this.fail(new Error(this.stepUpMessage(failure)));
		else this.fail(closed ? new Error("the server exited while starting") : error);
	}

	/** Closes and starts again (after a sign-in or sign-out). */
	async restart(): Promise<void> {
		await this.close();
		this.closing = false;
		this.closedWhileStarting = false;
		this.started = undefined;
		this.error = undefined;
		this.stepUp = undefined;
		await this.start();
	}

	private async createTransport() {
		const t = this.config.transport;
		if (t.type === "http") {
			const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
			return new StreamableHTTPClientTransport(new URL(t.url), {
				requestInit: { headers: t.headers },
				authProvider: this.auth?.provider,
				fetch: this.auth?.fetch,
			});
		}
		const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
		// stderr is piped, never inherited: a server's output must not reach our terminal raw. Its tail
		// explains a failure.
		const transport = new StdioClientTransport({ command: t.command, args: t.args, env: t.env, cwd: t.cwd, stderr: "pipe" });
		transport.stderr?.on("data", (chunk: Buffer) => {
			this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
		});
		return transport;
	}

	async callTool(
		name: string,
		args: Record<string, unknown>,
		signal?: AbortSignal,
		onProgress?: (progress: McpProgress) => void,
	): Promise<CallToolResult> {
		const client = this.running();
		try {
			const result = await client.callTool({ name, arguments: args }, undefined, {
				signal,
				timeout: this.config.timeoutMs,
				// A server reporting progress is working; the timeout counts from its last report.
				resetTimeoutOnProgress: true,
				onprogress: (p) => onProgress?.(p),
			});
			return result as CallToolResult;
		} catch (error) {
			throw this.signInError(error) ?? error;
		}
	}

	/** A refused call as the model and the user read it: what to sign in for, never a token. */
	private signInError(error: unknown): Error | undefined {
		const failure = this.auth?.explain(error);
		const name = this.config.name;
		if (failure?.kind === "needs-sign-in" || failure?.kind === "refused") {
			this.set("needs-login");
			return new Error(`MCP server "${name}" needs sign-in; the user can sign in with /mcp login ${name}`);
		}
		if (failure?.kind !== "step-up") return undefined;
		this.stepUp = failure;
		this.onChange(this);
		return new Error(this.stepUpMessage(failure));
	}

	private stepUpMessage(failure: Extract<AuthFailure, { kind: "step-up" }>): string {
		const name = this.config.name;
		return failure.exhausted
			? `MCP server "${name}" refused the request for want of scope "${failure.scope}" even after signing in for it`
			: `MCP server "${name}" needs more access for this call (scope "${failure.scope}"); the user can grant it with /mcp login ${name}, then it can be tried again`;
	}

	/** A prompt's messages, filled in with `args` (prompts.ts turns them into the user's message). */
	getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal) {
		return this.running().getPrompt({ name, arguments: args }, { signal, timeout: this.config.timeoutMs });
	}

	/** A resource's contents (resources.ts turns them into an attachment). */
	readResource(uri: string, signal?: AbortSignal) {
		return this.running().readResource({ uri }, { signal, timeout: this.config.timeoutMs });
	}

	private running(): Client {
		if (this.status !== "ready" || !this.client) {
			throw new Error(`MCP server "${this.config.name}" is not running${this.error ? ` (${this.error})` : ""}`);
		}
		return this.client;
	}

	async close(): Promise<void> {
		this.closing = true;
		const client = this.client;
		this.client = undefined;
		if (client) await client.close().catch(() => undefined);
		if (this.status === "ready" || this.status === "starting") this.set("stopped");
	}

	private onClosed(): void {
		if (this.closing || this.status === "failed" || this.status === "needs-login") return;
		if (this.status === "starting") {
			this.closedWhileStarting = true;
			return;
		}
		const wasReady = this.status === "ready";
		this.client = undefined;
		this.fail(new Error(wasReady ? "the server closed the connection" : "the server exited while starting"));
	}

	private fail(error: unknown): void {
		const reason = plain(error instanceof Error ? error.message : String(error)).slice(0, 300);
		const lastLine = plain(this.stderrTail.trim().split("\n").at(-1) ?? "").slice(0, 200);
		this.error = redactSecrets(lastLine && !reason.includes(lastLine) ? `${reason}; stderr: ${lastLine}` : reason);
		this.set("failed");
	}

	/** A `list_changed` notification's new list (the SDK fetched it): tools, prompts or resources. */
	private setLists(lists: Partial<Pick<McpConnection, "tools" | "prompts" | "unusablePrompts" | "resources">>): void {
		Object.assign(this, lists);
		this.onChange(this);
	}

	set(status: McpServerStatus): void {
		this.status = status;
		this.onChange(this);
	}
}
