// JSON mode (`rudder --mode json`): one prompt; every session event goes to stdout as one JSON line,
// then the process exits (1 when the run failed). Token events are trimmed to their delta so that
// each line costs O(token), not O(message so far): `message_update` lines carry
// `assistantMessageEvent` without its `partial` message and no `message`; `message_end` carries the
// complete message. Of the run phase only what the events do not already say is written (retrying,
// awaiting-approval, compacting): plain running and idle are agent_start … agent_end.
// Lines are escaped by `toJsonLine` (no raw C1 control or U+2028/9) and redacted (no known secret).
import type { Model } from "../ai/types.js";
import { toJsonLine } from "../safety/json-line.js";
import { REDACTED, redactSecrets } from "../safety/secrets.js";
import { isLoginCommand } from "../session/login-command.js";
import type { AgentSessionApi, SessionEvent, SessionState } from "../session/types.js";
import { errorLine, INTERRUPTED_EXIT_CODE, interruptedLine, lastRunOutcome, type PrintIo } from "./print.js";

/** `value` as one output line for json and rpc clients: escaped, secrets redacted, newline-terminated. */
export function jsonOutputLine(value: unknown): string {
	return `${redactSecrets(toJsonLine(value))}\n`;
}

export async function runJson(session: AgentSessionApi, prompt: string, io: PrintIo): Promise<number> {
	let noticedError = false;
	const unsubscribe = session.subscribe((event) => {
		if (event.type === "notice" && event.level === "error") noticedError = true;
		if (event.type === "phase_changed" && (event.phase.kind === "running" || event.phase.kind === "idle")) return;
		io.stdout.write(jsonOutputLine(toJsonEvent(event)));
	});
	try {
		await session.prompt(prompt);
		// `/login` runs as a command (no model call); its notices were the output.
		if (isLoginCommand(prompt)) return noticedError ? 1 : 0;
		await session.waitForIdle();
		const interrupted = io.interrupted?.();
		if (interrupted) {
			io.stderr.write(interruptedLine(interrupted));
			return INTERRUPTED_EXIT_CODE;
		}
		const outcome = lastRunOutcome(session.getState().messages);
		if (!outcome.ok) {
			io.stderr.write(errorLine(outcome.error));
			return 1;
		}
		return 0;
	} finally {
		unsubscribe();
	}
}

/**
 * The JSON form of an event; `message_update` (the main agent's or a sub-agent's) drops the growing
 * partial message (see the header).
 */
export function toJsonEvent(event: SessionEvent): object {
	if (event.type !== "message_update" && event.type !== "subagent_message_update") return event;
	const { partial: _partial, ...rest } = event.assistantMessageEvent as { partial?: unknown };
	if (event.type === "message_update") return { type: event.type, assistantMessageEvent: rest };
	return { ...event, assistantMessageEvent: rest };
}

/**
 * The JSON form of the session state: the transcript is left out (ask `get_messages`), sets become
 * arrays, and the model's header values (models.json `headers`, often `Authorization`) are masked.
 */
export function toJsonState(state: SessionState): object {
	const { messages, pendingToolCalls, streamingMessage: _streaming, model, ...rest } = state;
	return { ...rest, model: maskHeaders(model), messageCount: messages.length, pendingToolCalls: [...pendingToolCalls] };
}

/** `model` with its header values masked, for every model a json or rpc client is sent. */
export function maskHeaders(model: Model): Model {
	if (!model.headers) return model;
	return { ...model, headers: Object.fromEntries(Object.keys(model.headers).map((name) => [name, REDACTED])) };
}
