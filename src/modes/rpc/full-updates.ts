// `--rpc-full-updates` lines carry the streaming message as it stands (pi's `message` and `partial`).
// The session redacts the deltas and holds back an end that could still become a known key
// (src/session/stream-redaction.ts), but the partial message is the provider's, raw: a key split
// across two deltas sits half-written at the end of the open block, where the line's redaction (whole
// keys only) cannot see it. So each block still streaming shows its text up to where a key could
// begin, as the deltas sent so far do; a block that ended, and message_end, show everything.
import type { AgentMessage } from "../../agent/types.js";
import type { AssistantMessage } from "../../ai/types.js";
import { processSecrets, type Redactor } from "../../safety/secrets.js";
import type { SessionEvent } from "../../session/types.js";

type Block = AssistantMessage["content"][number];

/** One message's blocks that ended (their `*_end` was seen), reset at each assistant message_start. */
export function createFullUpdates(redactor: Redactor = processSecrets): (event: SessionEvent) => SessionEvent {
	const ended = new Set<number>();
	return (event) => {
		if (event.type === "message_start") ended.clear();
		if (event.type !== "message_update") return event;
		const update = event.assistantMessageEvent;
		if (update.type === "text_end" || update.type === "thinking_end" || update.type === "toolcall_end") ended.add(update.contentIndex);
		if (redactor.size === 0 || !("partial" in update)) return event;
		const partial = holdBack(update.partial, ended, redactor) as AssistantMessage;
		// `message` is the same object as `partial` when it comes from the agent loop.
		const message = event.message === update.partial ? partial : holdBack(event.message, ended, redactor);
		if (partial === update.partial && message === event.message) return event;
		return { ...event, message, assistantMessageEvent: { ...update, partial } };
	};
}

/** `message` with each open block cut before a possible key start; the same object when nothing is cut. */
function holdBack(message: AgentMessage, ended: ReadonlySet<number>, redactor: Redactor): AgentMessage {
	if (message.role !== "assistant") return message;
	let content: Block[] | undefined;
	message.content.forEach((block, index) => {
		if (ended.has(index)) return;
		const cut = holdBlock(block, redactor);
		if (cut === block) return;
		content ??= [...message.content];
		content[index] = cut;
	});
	return content ? { ...message, content } : message;
}

function holdBlock(block: Block, redactor: Redactor): Block {
	if (block.type === "text") {
		const text = heldText(block.text, redactor);
		return text === block.text ? block : { ...block, text };
	}
	if (block.type === "thinking") {
		const thinking = heldText(block.thinking, redactor);
		return thinking === block.thinking ? block : { ...block, thinking };
	}
	if (block.type === "toolCall") {
		// The arguments are parsed from the JSON so far: the string being written is one of the values.
		const args = heldValue(block.arguments, redactor) as Record<string, unknown>;
		return args === block.arguments ? block : { ...block, arguments: args };
	}
	return block;
}

function heldText(text: string, redactor: Redactor): string {
	const from = redactor.heldFrom(text);
	return from === text.length ? text : text.slice(0, from);
}

function heldValue(value: unknown, redactor: Redactor): unknown {
	if (typeof value === "string") return heldText(value, redactor);
	if (!value || typeof value !== "object") return value;
	let copy: Record<string, unknown> | unknown[] | undefined;
	for (const [key, item] of Object.entries(value)) {
		const held = heldValue(item, redactor);
		if (held === item) continue;
		copy ??= Array.isArray(value) ? [...value] : { ...value };
		(copy as Record<string, unknown>)[key] = held;
	}
	return copy ?? value;
}
