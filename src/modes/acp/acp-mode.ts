// ACP mode (`rudder --mode acp`, `rudder acp`): Rudder as an Agent Client Protocol agent on stdio, for
// editors (Zed, JetBrains, Neovim, Emacs clients). Built on the official SDK's agent side; docs/acp.md
// lists every method and notification, what Rudder does with it, and one full prompt turn.
// Each `session/new` or `session/load` opens a Rudder session in the client's folder; methods naming a
// session this connection does not have get a -32002 error, malformed params -32602, and no request
// ever ends the process (only the client closing stdin does).

import { randomUUID } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { AgentContext, ClientCapabilities } from "@agentclientprotocol/sdk";
import type { AgentTool } from "../../agent/types.js";
import { childEnv } from "../../safety/child-env.js";
import type { AgentSession } from "../../session/agent-session.js";
import { AcpError, internalError, invalidParams, invalidRequest, sessionNotFound } from "./acp-error.js";
import { AcpSession } from "./acp-session.js";
import { clientFilesOf, routeFilesThroughClient } from "./client-files.js";
import { type ClientMcpServers, clientMcpServers } from "./client-mcp.js";
import { clientTerminalOf, routeBashThroughClient, terminalBash } from "./client-terminal.js";
import { type AcpIo, acpStream } from "./stdio-stream.js";

/** What the CLI provides: sessions opened for a folder, new or saved. */
export interface AcpSessionSource {
	/** Sessions are saved, so `session/load` is offered (not with --no-session). */
	persist: boolean;
	/**
	 * A new session in `cwd`, or (`savedId`) the saved session of `cwd` with that id, with the client's MCP
	 * servers (settings' shape, trusted). Throws one line.
	 */
	open(
		cwd: string,
		savedId: string | undefined,
		mcpServers: Record<string, unknown>,
		/**
		 * What runs a command approved to run outside the sandbox (the editor's terminal, when offered),
		 * given the environment the session gives its commands.
		 */
		outsideBash?: (commandEnv: Record<string, string>) => AgentTool["execute"],
	): Promise<AgentSession>;
	/** Whether `cwd` has a saved session with this id. */
	hasSaved(cwd: string, id: string): boolean;
	/** The saved sessions of `cwd`, newest first. */
	list(cwd: string): { id: string; modified: Date; firstMessage: string }[];
}

/** A listed session's title: its first prompt, on one line. */
const TITLE_CHARS = 80;

export interface AcpOptions {
	version: string;
	sessions: AcpSessionSource;
}

type Handler<P, R> = (ctx: { params: P; client: AgentContext }) => Promise<R> | R;

/** Serves one client until it closes stdin; resolves to the exit code. */
export async function runAcp(io: AcpIo, options: AcpOptions): Promise<number> {
	// The SDK (and its schemas) is a script of its own in the bundle, loaded here only (scripts/bundle.mjs).
	const { agent, ndJsonStream, PROTOCOL_VERSION, RequestError } = await import("@agentclientprotocol/sdk");
	/** A handler whose failures reach the client as one-line JSON-RPC errors (never a stack trace). */
	const guarded =
		<P, R>(handler: Handler<P, R>): Handler<P, R> =>
		async (ctx) => {
			try {
				return await handler(ctx);
			} catch (error) {
				const known = error instanceof AcpError ? error : internalError(oneLine(error instanceof Error ? error.message : String(error)));
				throw new RequestError(known.code, known.message, known.data);
			}
		};
	const sessions = new Map<string, AcpSession>();
	let clientCapabilities: ClientCapabilities = {};
	const sessionOf = (sessionId: string): AcpSession => {
		const session = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
		if (!session) throw sessionNotFound(String(sessionId));
		return session;
	};

	const open = async (client: AgentContext, cwd: string, mcpServers: ClientMcpServers, savedId?: string): Promise<AcpSession> => {
		checkCwd(cwd);
		// The editor's terminal (client-terminal.ts), for commands that run unsandboxed anyway; the env is
		// the one Rudder gives its commands. A new session's id is its Rudder session's, read once it is open.
		let id = savedId ?? "";
		const terminal = clientCapabilities.terminal ? clientTerminalOf(client, () => id) : undefined;
		const rudder = await options.sessions.open(
			cwd,
			savedId,
			mcpServers.servers,
			terminal && ((env) => terminalBash(terminal, { cwd, env })),
		);
		id = savedId ?? (rudder.getState().sessionId || randomUUID());
		await sessions.get(id)?.close();
		if (clientCapabilities.fs?.readTextFile && clientCapabilities.fs.writeTextFile) {
			routeFilesThroughClient(rudder.agent.state.tools, clientFilesOf(client, id), rudder.cwd);
		}
		if (terminal) {
			routeBashThroughClient(rudder.agent.state.tools, terminal, {
				cwd: rudder.cwd,
				env: childEnv(process.env, rudder.settings.shell.passEnv),
				sandbox: () => rudder.getState().sandbox,
			});
		}
		const session = new AcpSession(id, rudder, client);
		sessions.set(id, session);
		rudder.startMcpServers("headless");
		return session;
	};
	// After the response that names the session: the client can only route updates for ids it knows.
	const afterResponse = (session: AcpSession, mcpServers: ClientMcpServers) =>
		setImmediate(() => {
			void session.announceCommands();
			void session.announcePlan();
			// The servers' prompts are commands too, once the servers are up.
			void session.session.mcpReady().then(() => session.announceCommandsIfChanged());
			for (const warning of mcpServers.warnings)
				void session.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `Warning: ${warning}\n` } });
		});

	const app = agent({ name: "rudder" })
		.onRequest(
			"initialize",
			guarded(({ params }) => {
				clientCapabilities = params.clientCapabilities ?? {};
				return {
					protocolVersion: PROTOCOL_VERSION,
					agentCapabilities: {
						loadSession: options.sessions.persist,
						promptCapabilities: { image: true, embeddedContext: true, audio: false },
						// stdio is every agent's; streamable HTTP is spoken, SSE (deprecated by MCP) is not.
						mcpCapabilities: { http: true, sse: false },
						sessionCapabilities: { close: {}, ...(options.sessions.persist ? { list: {} } : {}) },
					},
					agentInfo: { name: "rudder", title: "Rudder", version: options.version },
					authMethods: [],
				};
			}),
		)
		.onRequest(
			"session/new",
			guarded(async ({ params, client }) => {
				const servers = clientMcpServers(params.mcpServers);
				const session = await open(client, params.cwd, servers);
				afterResponse(session, servers);
				return { sessionId: session.id, modes: session.modes(), configOptions: session.configOptions() };
			}),
		)
		.onRequest(
			"session/load",
			guarded(async ({ params, client }) => {
				if (!options.sessions.persist) throw invalidRequest("sessions are not saved (--no-session)");
				checkCwd(params.cwd);
				if (!options.sessions.hasSaved(params.cwd, params.sessionId)) throw sessionNotFound(params.sessionId);
				const servers = clientMcpServers(params.mcpServers);
				const session = await open(client, params.cwd, servers, params.sessionId);
				await session.replay();
				afterResponse(session, servers);
				return { modes: session.modes(), configOptions: session.configOptions() };
			}),
		)
		.onRequest(
			"session/list",
			guarded(({ params }) => {
				// Rudder keeps sessions by folder: without a cwd, the folder the agent was started in.
				const cwd = params.cwd ?? process.cwd();
				checkCwd(cwd);
				const sessions = options.sessions.list(cwd).map((s) => ({
					sessionId: s.id,
					cwd,
					title: s.firstMessage.replace(/\s+/g, " ").trim().slice(0, TITLE_CHARS) || null,
					updatedAt: s.modified.toISOString(),
				}));
				return { sessions };
			}),
		)
		.onRequest(
			"session/prompt",
			guarded(({ params }) => sessionOf(params.sessionId).prompt(params.prompt)),
		)
		.onRequest(
			"session/set_mode",
			guarded(({ params }) => {
				sessionOf(params.sessionId).setMode(params.modeId);
				return {};
			}),
		)
		.onRequest(
			"session/set_config_option",
			guarded(async ({ params }) => ({
				configOptions: await sessionOf(params.sessionId).setConfigOption(params.configId, params.value),
			})),
		)
		.onRequest(
			"session/close",
			guarded(async ({ params }) => {
				await sessionOf(params.sessionId).close();
				sessions.delete(params.sessionId);
				return {};
			}),
		)
		.onNotification("session/cancel", ({ params }) => {
			sessions.get(params.sessionId)?.cancel();
		});
	// Rudder's extensions (docs/acp.md): steer the running turn, or queue a follow-up after it.
	for (const [method, kind] of EXTENSION_QUEUES) {
		app.onRequest(
			method,
			rawParams,
			guarded(({ params }) => {
				const { sessionId, text } = queueParams(params);
				sessionOf(sessionId).queue(kind, text);
				return {};
			}),
		);
	}

	const connection = app.connect(acpStream(io, ndJsonStream));
	await connection.closed;
	for (const session of sessions.values()) await session.close();
	return 0;
}

const EXTENSION_QUEUES = [
	["_rudder/steer", "steer"],
	["_rudder/follow_up", "followUp"],
] as const;

/** Extension params are checked in the handler, where a failure becomes a JSON-RPC error like any other. */
const rawParams = (raw: unknown): unknown => raw;

/** `{sessionId, text}` for the two extension methods; anything else is -32602. */
function queueParams(raw: unknown): { sessionId: string; text: string } {
	const p = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
	if (typeof p.sessionId !== "string" || typeof p.text !== "string" || p.text.trim() === "") {
		throw invalidParams('needs a string "sessionId" and a non-empty string "text"');
	}
	return { sessionId: p.sessionId, text: p.text };
}

/** ACP requires an absolute cwd; it must also be a folder that exists. */
function checkCwd(cwd: string): void {
	if (!isAbsolute(cwd)) throw invalidParams("cwd must be an absolute path", { cwd });
	if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw invalidParams(`no such folder: ${cwd}`, { cwd });
}

function oneLine(text: string): string {
	return text.split("\n")[0] ?? "";
}
