// JSON mode (`rudder --mode json`): one prompt; every session event goes to stdout as one JSON line,
// then the process exits (1 when the run failed). Token events are trimmed to their delta so that
// each line costs O(token), not O(message so far): `message_update` lines carry
// `assistantMessageEvent` without its `partial` message and no `message`; `message_end` carries the
// complete message.
import type { AgentSessionApi, SessionEvent, SessionState } from "../session/types.js";
import { lastRunOutcome, oneLine, type PrintIo } from "./print.js";

export async function runJson(session: AgentSessionApi, prompt: string, io: PrintIo): Promise<number> {
	const unsubscribe = session.subscribe((event) => io.stdout.write(`${JSON.stringify(toJsonEvent(event))}\n`));
	try {
		await session.prompt(prompt);
		await session.waitForIdle();
		const outcome = lastRunOutcome(session.getState().messages);
		if (!outcome.ok) {
			io.stderr.write(`rudder: ${oneLine(outcome.error)}\n`);
			return 1;
		}
		return 0;
	} finally {
		unsubscribe();
	}
}

/** The JSON form of an event; `message_update` drops the growing partial message (see the header). */
export function toJsonEvent(event: SessionEvent): object {
	if (event.type !== "message_update") return event;
	const { partial: _partial, ...rest } = event.assistantMessageEvent as { partial?: unknown };
	return { type: event.type, assistantMessageEvent: rest };
}

/** The JSON form of the session state: the transcript is left out (ask `get_messages`), sets become arrays. */
export function toJsonState(state: SessionState): object {
	const { messages, pendingToolCalls, streamingMessage: _streaming, ...rest } = state;
	return { ...rest, messageCount: messages.length, pendingToolCalls: [...pendingToolCalls] };
}
