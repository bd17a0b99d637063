// RPC mode (`rudder --mode rpc`): pi's RPC protocol (0.73.1) over stdin/stdout, so clients written for
// pi (its own `RpcClient` too) drive Rudder unchanged. docs/rpc.md is the protocol's documentation:
// framing, every command with its request and response, the events, and what we add or do differently.
// This file does framing, dispatch and run control; the commands are the table in commands.ts.
// Approvals (ours): `approval_request` events, answered by `{"type":"approve","id","decision":"allow"|
// "always"|"deny","reason"?,"scope"?:"session"|"project","network"?}` (`network: true` with allow, for a
// command that failed in the sandbox: run it again inside with the network on, not outside); see
// docs/rpc.md § Approvals. Only a client that opted in (`--rpc-approvals`, `set_approvals`) gets them; for
// any other a call that would ask fails as in -p. After stdin closes, every request is denied.
import type { Readable } from "node:stream";
import type { ImageContent, Model } from "../../ai/types.js";
import type { AgentSession } from "../../session/agent-session.js";
import type { RunPhase } from "../../session/types.js";
import { jsonOutputLine } from "../json.js";
import { type ModeOutput, oneLine } from "../print.js";
import { type Command, compactionResultOf, type RpcContext, rpcHandlers } from "./commands.js";
import { createFullUpdates } from "./full-updates.js";
import { readJsonlLines } from "./jsonl.js";
import { createRetryEvents, rpcCompactionEnd, rpcEventLine } from "./shapes.js";

export interface RpcIo {
	stdin: Readable;
	stdout: ModeOutput;
}

export interface RpcOptions {
	/** Looks a model up for `set_model`: exact provider and id, no pattern matching. */
	findModel(provider: string, modelId: string): Model | undefined;
	/** `message_update` lines carry the partial message (pi's `message` and `partial`); default: the delta only. */
	fullUpdates?: boolean;
}

export async function runRpc(session: AgentSession, io: RpcIo, options: RpcOptions): Promise<number> {
	// Escaped (no raw C1 control or U+2028/9) and redacted (no known secret), as json mode does.
	const write = (value: object) => io.stdout.write(jsonOutputLine(value));
	const ctx = runControl(session, options, write);
	const retryEvents = createRetryEvents();
	const fullUpdates = options.fullUpdates === true ? createFullUpdates() : undefined;
	// After stdin closed nobody can answer an approval: deny it, or the run would wait forever.
	let closed = false;
	const deny = (id: string) => session.respondToApproval(id, { decision: "deny", reason: "The client closed the connection." });
	const unsubscribe = session.subscribe((event) => {
		const retry = retryEvents(event);
		if (retry) write(retry);
		if (event.type === "approval_request" && closed) queueMicrotask(() => deny(event.id));
		if (event.type === "elicitation_request" && closed) queueMicrotask(() => session.respondToElicitation(event.id, { action: "cancel" }));
		if (event.type === "plan_request" && closed)
			queueMicrotask(() => session.respondToPlan(event.id, { decision: "revise", feedback: "The client closed the connection." }));
		if (event.type === "compaction_end") {
			ctx.lastCompaction = compactionResultOf(event, session);
			write(rpcCompactionEnd(event, ctx.lastCompaction));
			return;
		}
		write(fullUpdates ? rpcEventLine(fullUpdates(event), true) : rpcEventLine(event, false));
	});
	const handleLine = lineHandler(ctx, write);
	const inFlight = new Set<Promise<void>>();
	try {
		for await (const line of readJsonlLines(io.stdin)) {
			const handled = handleLine(line);
			inFlight.add(handled);
			void handled.finally(() => inFlight.delete(handled));
		}
		await Promise.all(inFlight);
		closed = true;
		const waiting = session.getState().pendingApproval;
		if (waiting) deny(waiting.id);
		const asked = session.getState().pendingElicitation;
		if (asked) session.respondToElicitation(asked.id, { action: "cancel" });
		const plan = session.getState().pendingPlan;
		if (plan) session.respondToPlan(plan.id, { decision: "revise", feedback: "The client closed the connection." });
		await session.waitForIdle();
		return 0;
	} finally {
		unsubscribe();
	}
}

/**
 * Run control read from the session's one run phase (no flags of our own). The session is busy from
 * the moment `prompt` is called, so two prompt lines in one chunk never both start a run; a command
 * sent on seeing `agent_end` finds the phase `running` with `settling` (or a threshold compaction) and
 * waits for the run to settle instead of failing as busy.
 */
function runControl(session: AgentSession, options: RpcOptions, write: (value: object) => void): RpcContext {
	return {
		session,
		findModel: options.findModel,
		busy: () => session.getState().phase.kind !== "idle",
		settled: async () => {
			if (isSettling(session.getState().phase)) await session.waitForIdle();
		},
		startRun: (message: string, images?: ImageContent[]) => {
			void session
				.prompt(message, images)
				.catch((error: unknown) => write({ type: "notice", level: "error", text: oneLine(errorText(error)) }));
		},
		runEnded: () => session.waitForIdle(),
	};
}

/** The run has ended for the model; what is left (saving, compacting after it) ends by itself. */
export function isSettling(phase: RunPhase): boolean {
	return (phase.kind === "running" && phase.settling === true) || (phase.kind === "compacting" && phase.reason !== "manual");
}

/** Parses one line, dispatches it to its handler and writes exactly one response line. */
function lineHandler(ctx: RpcContext, write: (value: object) => void): (line: string) => Promise<void> {
	return async (line) => {
		if (line.trim() === "") return;
		const parsed = parseCommand(line);
		if (!parsed.ok) {
			write({ type: "response", command: "parse", success: false, error: parsed.error });
			return;
		}
		const command = parsed.command;
		const base = { ...(command.id !== undefined ? { id: command.id } : {}), type: "response", command: command.type };
		const handler = Object.hasOwn(rpcHandlers, command.type) ? rpcHandlers[command.type] : undefined;
		if (!handler) {
			write({ ...base, success: false, error: `Unknown command: ${oneLine(command.type)}` });
			return;
		}
		try {
			const data = await handler(command, ctx);
			write(data === undefined ? { ...base, success: true } : { ...base, success: true, data });
		} catch (error) {
			write({ ...base, success: false, error: oneLine(errorText(error)) });
		}
	};
}

type ParsedCommand = { ok: true; command: Command } | { ok: false; error: string };

function parseCommand(line: string): ParsedCommand {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch (error) {
		return { ok: false, error: `Failed to parse command: ${errorText(error)}` };
	}
	if (!value || typeof value !== "object" || Array.isArray(value)) {
		return { ok: false, error: "Failed to parse command: a command must be a JSON object" };
	}
	const command = value as Command;
	if (typeof command.type !== "string") return { ok: false, error: 'Failed to parse command: a command needs a string "type"' };
	if (command.id !== undefined && typeof command.id !== "string" && typeof command.id !== "number") {
		return { ok: false, error: 'Failed to parse command: "id" must be a string or a number' };
	}
	return { ok: true, command };
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
