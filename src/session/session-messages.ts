// Messages the session adds to the transcript beyond user/assistant/toolResult, and how the model sees
// them. They live in the Agent's transcript and the session file like any message, so a UI can show
// them in place; `convertToLlm` turns each into a user message.

import type { AgentMessage } from "../agent/types.js";
import type { ImageContent, Message, TextContent } from "../ai/index.js";

/** Output of a `!cmd` the user ran; the model sees it so it can help with the result. */
export interface ShellOutputMessage {
	role: "shellOutput";
	command: string;
	output: string;
	exitCode: number | null;
	/** Stopped by the user (Esc) before it finished. */
	aborted?: boolean;
	timestamp: number;
}

/** Stands in for the turns a compaction summarised; always the first message of the context. */
export interface CompactionSummaryMessage {
	role: "compactionSummary";
	summary: string;
	tokensBefore: number;
	timestamp: number;
}

declare module "../agent/types.js" {
	interface CustomAgentMessages {
		shellOutput: ShellOutputMessage;
		compactionSummary: CompactionSummaryMessage;
	}
}

export function shellOutputText(m: Pick<ShellOutputMessage, "command" | "output" | "exitCode" | "aborted">): string {
	const status = m.aborted ? "stopped by the user" : m.exitCode === null ? "killed" : `exit code ${m.exitCode}`;
	return `The user ran a shell command:\n$ ${m.command}\n${m.output}\n(${status})`;
}

export function compactionSummaryText(summary: string): string {
	return `The earlier part of this conversation was summarised to save context:\n\n<summary>\n${summary}\n</summary>`;
}

/** True for an assistant message that failed before saying anything (an overflow or network error). */
export function isEmptyFailedAssistant(m: AgentMessage): boolean {
	if (m.role !== "assistant") return false;
	if (m.stopReason !== "error" && m.stopReason !== "aborted") return false;
	return m.content.every((c) => (c.type === "text" ? c.text.trim() === "" : c.type === "thinking" && !c.thinking.trim()));
}

const asUser = (text: string, timestamp: number): Message => ({
	role: "user",
	content: [{ type: "text", text } satisfies TextContent] as (TextContent | ImageContent)[],
	timestamp,
});

/**
 * The user messages whose request failed with nothing said (an HTTP error): the prompts (and steering
 * messages) right before such a reply. The screen shows them marked failed, and the next request must
 * not carry them in front of the next prompt: a prompt the server always rejects would poison every
 * later one. An aborted reply (Esc) keeps its prompt: the user stopped it, the model may still see it.
 */
function failedPrompts(messages: AgentMessage[]): ReadonlySet<AgentMessage> {
	const failed = new Set<AgentMessage>();
	for (let i = 0; i < messages.length; i++) {
		const m = messages[i];
		if (m.role !== "assistant" || m.stopReason !== "error" || !isEmptyFailedAssistant(m)) continue;
		for (let j = i - 1; j >= 0 && messages[j].role === "user"; j--) failed.add(messages[j]);
	}
	return failed;
}

/**
 * What the model is sent: user, assistant and toolResult pass through; session messages become user
 * messages; failed assistant messages with no content are dropped (providers reject empty turns, and
 * they carry nothing the model needs), and so are the prompts that led to a failed one (`failedPrompts`).
 * User messages that then follow each other (a prompt whose reply was aborted, then the next prompt; a
 * `!cmd` output before a prompt) are joined into one, since Google and Anthropic ask for turns that
 * alternate.
 */
export function convertToLlm(messages: AgentMessage[]): Message[] {
	const out: Message[] = [];
	const push = (m: Message) => {
		const last = out.at(-1);
		if (m.role === "user" && last?.role === "user") out[out.length - 1] = joinUserMessages(last, m);
		else out.push(m);
	};
	const failed = failedPrompts(messages);
	for (const m of messages) {
		switch (m.role) {
			case "user":
				if (!failed.has(m)) push(m);
				break;
			case "toolResult":
				push(m);
				break;
			case "assistant":
				if (!isEmptyFailedAssistant(m)) push(m);
				break;
			case "shellOutput":
				push(asUser(shellOutputText(m), m.timestamp));
				break;
			case "compactionSummary":
				push(asUser(compactionSummaryText(m.summary), m.timestamp));
				break;
		}
	}
	return out;
}

type UserContent = Extract<Message, { role: "user" }>["content"];
const asParts = (content: UserContent): (TextContent | ImageContent)[] =>
	typeof content === "string" ? [{ type: "text", text: content }] : content;

/** One user turn holding both: the first's parts, then the second's (a new object; the inputs stay as they are). */
function joinUserMessages(a: Extract<Message, { role: "user" }>, b: Extract<Message, { role: "user" }>): Message {
	return { ...a, content: [...asParts(a.content), ...asParts(b.content)] };
}

/** Plain text of a message's text blocks (images and tool calls left out). */
export function messageText(m: AgentMessage): string {
	switch (m.role) {
		case "user":
			return typeof m.content === "string" ? m.content : m.content.map((c) => (c.type === "text" ? c.text : "")).join("");
		case "assistant":
			return m.content.map((c) => (c.type === "text" ? c.text : "")).join("");
		case "toolResult":
			return m.content.map((c) => (c.type === "text" ? c.text : "")).join("");
		case "shellOutput":
			return shellOutputText(m);
		case "compactionSummary":
			return m.summary;
		default:
			return "";
	}
}
