// Which call of its reply an approval is about ("call 1 of 2"): the reply is the assistant message that
// holds the call; the position counts its tool calls in the order the model wrote them.
import type { AgentMessage } from "../../agent/types.js";
import type { CallPosition } from "../overlays/ApprovalPrompt.js";

export function callPosition(messages: readonly AgentMessage[], toolCallId: string): CallPosition | undefined {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i];
		if (message.role !== "assistant") continue;
		const ids = message.content.flatMap((block) => (block.type === "toolCall" ? [block.id] : []));
		const index = ids.indexOf(toolCallId);
		if (index >= 0) return { index: index + 1, count: ids.length };
	}
	return undefined;
}
