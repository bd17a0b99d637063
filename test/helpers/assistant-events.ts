// Reading an assistant event stream in provider tests: every event in order with the final message,
// the protocol's shape without payloads, and the message a list of events ended with.
import type { AssistantMessageEventStream } from "../../src/ai/event-stream.js";
import type { AssistantMessage, AssistantMessageEvent } from "../../src/ai/types.js";

/** Drains `stream`; `message` is its result (the terminal event's message). */
export async function collectEvents(
	stream: AssistantMessageEventStream,
): Promise<{ events: AssistantMessageEvent[]; message: AssistantMessage }> {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	return { events, message: await stream.result() };
}

/** `type` or `type@contentIndex` per event: the sequence the protocol promises, without payloads. */
export function eventShape(events: AssistantMessageEvent[]): string[] {
	return events.map((e) => ("contentIndex" in e ? `${e.type}@${e.contentIndex}` : e.type));
}

/** The message of the last event, which must be `done` or `error`. */
export function finalMessage(events: AssistantMessageEvent[]): AssistantMessage {
	const last = events.at(-1);
	if (last?.type === "done") return last.message;
	if (last?.type === "error") return last.error;
	throw new Error(`stream ended with ${last?.type}`);
}

/** The shape of one content block at `index`: its start, `deltas` deltas, its end. */
export function block(kind: "text" | "thinking" | "toolcall", index: number, deltas: number): string[] {
	return [`${kind}_start@${index}`, ...Array.from({ length: deltas }, () => `${kind}_delta@${index}`), `${kind}_end@${index}`];
}
