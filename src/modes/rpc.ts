// RPC mode (`rudder --mode rpc`): a client drives the session with JSON lines on stdin and reads JSON
// lines on stdout.
//
// Commands, one JSON object per line; `id` is optional and echoed back:
//   {"id"?, "type":"prompt", "message", "streamingBehavior"?: "steer"|"followUp"}
//       idle: starts a run. Busy: steers or queues a follow-up as `streamingBehavior` says (required then).
//   {"type":"steer", "message"}  {"type":"follow_up", "message"}  {"type":"abort"} (answers once the run ended)
//   {"type":"get_state"}  {"type":"get_messages"}  {"type":"set_model", "provider", "modelId"}
//   {"type":"set_thinking_level", "level"}  {"type":"compact", "customInstructions"?}  {"type":"new_session"}
// Each command gets exactly one response line:
//   {"type":"response", "id"?, "command", "success":true, "data"?} or {..., "success":false, "error"}
// A line that is not a JSON command gets `{"type":"response","command":"parse"|"unknown",success:false,...}`.
// Events are written as the event object itself, one per line (`{"type":"agent_start"}`, ...), in the
// form `toJsonEvent` gives them (message_update without the partial message). No event type is
// "response", so a client tells the two apart by `type`. The mode ends when stdin closes and the
// session is idle.
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { THINKING_LEVELS } from "../ai/constants.js";
import type { Model, ThinkingLevel } from "../ai/types.js";
import type { AgentSessionApi } from "../session/types.js";
import { jsonOutputLine, toJsonEvent, toJsonState } from "./json.js";
import { type ModeOutput, oneLine } from "./print.js";

export interface RpcIo {
	stdin: Readable;
	stdout: ModeOutput;
}

export interface RpcOptions {
	/** Looks a model up for `set_model`. */
	findModel(provider: string, modelId: string): Model | undefined;
}

type Command = { id?: string | number; type: string; [field: string]: unknown };
type Respond = (success: boolean, payload?: unknown) => void;

export async function runRpc(session: AgentSessionApi, io: RpcIo, options: RpcOptions): Promise<number> {
	const write = (value: object) => io.stdout.write(jsonOutputLine(value));
	// Our own flag: `isStreaming` may flip only after `prompt` has started its first await, and two
	// prompt lines in one chunk must not both start a run.
	let running: Promise<void> | undefined;
	// Set once the current run's agent_end has gone out: the run is only settling (saving, a threshold
	// compaction), and a command a client sends on seeing agent_end waits for that instead of failing.
	let ended = false;
	const unsubscribe = session.subscribe((event) => {
		if (event.type === "agent_end") ended = true;
		write(toJsonEvent(event));
	});
	const settled = async () => {
		if (running && ended) await running;
	};
	const inFlight = new Set<Promise<void>>();

	const startRun = (message: string) => {
		ended = false;
		const run = session
			.prompt(message)
			.catch((error: unknown) => write({ type: "notice", level: "error", text: oneLine(errorText(error)) }))
			.finally(() => {
				if (running === run) running = undefined;
			});
		running = run;
	};
	const busy = () => running !== undefined || session.getState().isStreaming;

	const handlers: Record<string, (command: Command, respond: Respond) => void | Promise<void>> = {
		prompt: async (command, respond) => {
			const message = requireString(command, "message");
			await settled();
			if (!busy()) {
				respond(true);
				startRun(message);
				return;
			}
			if (command.streamingBehavior === "steer") session.steer(message);
			else if (command.streamingBehavior === "followUp") session.followUp(message);
			else throw new Error('the agent is busy: pass "streamingBehavior": "steer" or "followUp"');
			respond(true);
		},
		steer: (command, respond) => {
			session.steer(requireString(command, "message"));
			respond(true);
		},
		follow_up: (command, respond) => {
			session.followUp(requireString(command, "message"));
			respond(true);
		},
		abort: async (_command, respond) => {
			session.abort();
			await (running ?? session.waitForIdle());
			respond(true);
		},
		get_state: (_command, respond) => respond(true, toJsonState(session.getState())),
		get_messages: (_command, respond) => respond(true, { messages: session.getState().messages }),
		set_model: async (command, respond) => {
			const provider = requireString(command, "provider");
			const modelId = requireString(command, "modelId");
			const model = options.findModel(provider, modelId);
			if (!model) throw new Error(`unknown model "${provider}/${modelId}"`);
			await session.setModel(model);
			respond(true, { model });
		},
		set_thinking_level: (command, respond) => {
			const level = requireString(command, "level");
			if (!THINKING_LEVELS.includes(level as ThinkingLevel)) {
				throw new Error(`unknown thinking level "${level}" (one of ${THINKING_LEVELS.join(", ")})`);
			}
			session.setThinkingLevel(level as ThinkingLevel);
			respond(true);
		},
		compact: async (command, respond) => {
			const instructions = command.customInstructions;
			await settled();
			await session.compact(typeof instructions === "string" ? instructions : undefined);
			respond(true);
		},
		new_session: async (_command, respond) => {
			await settled();
			if (busy()) throw new Error("the agent is busy: abort first");
			await session.newSession();
			respond(true, { sessionFile: session.getState().sessionFile });
		},
	};

	const handleLine = async (line: string) => {
		if (line.trim() === "") return;
		const parsed = parseCommand(line);
		if (!parsed.ok) {
			write({ type: "response", command: "parse", success: false, error: parsed.error });
			return;
		}
		const command = parsed.command;
		const base = { type: "response", ...(command.id !== undefined ? { id: command.id } : {}), command: command.type };
		let answered = false;
		const respond: Respond = (success, payload) => {
			answered = true;
			if (success) write(payload === undefined ? { ...base, success } : { ...base, success, data: payload });
			else write({ ...base, success, error: oneLine(String(payload)) });
		};
		const handler = handlers[command.type];
		if (!handler) {
			respond(false, `unknown command "${command.type}"`);
			return;
		}
		try {
			await handler(command, respond);
		} catch (error) {
			if (!answered) respond(false, errorText(error));
		}
	};

	const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
	try {
		for await (const line of lines) {
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
		return { ok: false, error: `malformed JSON line: ${errorText(error)}` };
	}
	if (!value || typeof value !== "object" || Array.isArray(value)) {
		return { ok: false, error: "a command must be a JSON object" };
	}
	const command = value as Command;
	if (typeof command.type !== "string") return { ok: false, error: 'a command needs a string "type"' };
	if (command.id !== undefined && typeof command.id !== "string" && typeof command.id !== "number") {
		return { ok: false, error: '"id" must be a string or a number' };
	}
	return { ok: true, command };
}

function requireString(command: Command, field: string): string {
	const value = command[field];
	if (typeof value !== "string") throw new Error(`"${command.type}" needs a string "${field}"`);
	return value;
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
