// RPC mode (`rudder --mode rpc`): pi's RPC protocol (0.73.1) over stdin/stdout, so clients written for
// pi (its own `RpcClient` too) drive Rudder unchanged. docs/rpc.md is the protocol's documentation:
// framing, every command with its request and response, the events, and what we add or do differently.
// This file does framing, dispatch and run control; the commands are the table in rpc-commands.ts.
import type { Readable } from "node:stream";
import type { ImageContent, Model } from "../ai/types.js";
import type { AgentSession } from "../session/agent-session.js";
import { jsonOutputLine } from "./json.js";
import { readJsonlLines } from "./jsonl.js";
import { type ModeOutput, oneLine } from "./print.js";
import { type Command, compactionResultOf, type RpcContext, rpcHandlers } from "./rpc-commands.js";
import { rpcCompactionEnd, rpcEventLine } from "./rpc-shapes.js";

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
	// Our own flag: `isStreaming` may flip only after `prompt` has started its first await, and two
	// prompt lines in one chunk must not both start a run.
	let running: Promise<void> | undefined;
	// Set once the current run's agent_end has gone out: the run is only settling (saving, a threshold
	// compaction), and a command a client sends on seeing agent_end waits for that instead of failing.
	let ended = false;
	const ctx: RpcContext = {
		session,
		findModel: options.findModel,
		busy: () => running !== undefined || session.getState().isStreaming,
		settled: async () => {
			if (running && ended) await running;
		},
		startRun: (message: string, images?: ImageContent[]) => {
			ended = false;
			const run = session
				.prompt(message, images)
				.catch((error: unknown) => write({ type: "notice", level: "error", text: oneLine(errorText(error)) }))
				.finally(() => {
					if (running === run) running = undefined;
				});
			running = run;
		},
		runEnded: async () => {
			await (running ?? session.waitForIdle());
		},
	};
	const unsubscribe = session.subscribe((event) => {
		if (event.type === "agent_end") ended = true;
		if (event.type === "compaction_end") {
			ctx.lastCompaction = compactionResultOf(event, session);
			write(rpcCompactionEnd(event, ctx.lastCompaction));
			return;
		}
		write(rpcEventLine(event, options.fullUpdates === true));
	});

	const handleLine = async (line: string) => {
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

	const inFlight = new Set<Promise<void>>();
	try {
		for await (const line of readJsonlLines(io.stdin)) {
			const handled = handleLine(line);
			inFlight.add(handled);
			void handled.finally(() => inFlight.delete(handled));
		}
		await Promise.all(inFlight);
		if (running) await running;
		await session.waitForIdle();
		return 0;
	} finally {
		unsubscribe();
	}
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
