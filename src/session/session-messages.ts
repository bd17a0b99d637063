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
 * Only `messages[from…]` are looked at.
 */
function failedPrompts(messages: readonly AgentMessage[], from: number): ReadonlySet<AgentMessage> {
	const failed = new Set<AgentMessage>();
	for (let i = from; i < messages.length; i++) {
		const m = messages[i] as AgentMessage;
		if (m.role !== "assistant" || m.stopReason !== "error" || !isEmptyFailedAssistant(m)) continue;
		for (let j = i - 1; j >= from && messages[j]?.role === "user"; j--) failed.add(messages[j] as AgentMessage);
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
 *
 * Called before every model call with the whole transcript, so what it made last time is kept
 * (`Settled`) and only the messages after that are converted: the model messages up to a reply or a
 * tool result that was sent can no longer change (no later prompt joins them or drops them), and they
 * stay the same objects from call to call, which lets the provider send their bytes again
 * (src/ai/providers/wire-history.ts).
 */
export function convertToLlm(messages: AgentMessage[]): Message[] {
	const first = messages[0];
	if (first === undefined) return [];
	let settled = settledOf.get(first);
	if (!settled) {
		settled = { inputs: [], out: [], inputEnds: [0], outEnds: [0] };
		settledOf.set(first, settled);
	}
	// The settled messages this transcript still has, in place (a pointer comparison each).
	const limit = Math.min(settled.inputs.length, messages.length);
	let same = 0;
	while (same < limit && settled.inputs[same] === messages[same]) same++;
	if (same === messages.length && same < settled.inputs.length) {
		// An earlier part of the transcript (a side request): answered without forgetting the rest.
		const point = pointAtOrBefore(settled, same);
		return [...settled.out.slice(0, settled.outEnds[point]), ...convertFrom(messages, settled.inputEnds[point] as number).out];
	}
	if (same < settled.inputs.length) cutSettled(settled, pointAtOrBefore(settled, same));
	const from = settled.inputs.length;
	const tail = convertFrom(messages, from);
	if (tail.settledInputs > from) {
		for (let i = from; i < tail.settledInputs; i++) settled.inputs.push(messages[i] as AgentMessage);
		for (let i = 0; i < tail.settledOut; i++) settled.out.push(tail.out[i] as Message);
		settled.inputEnds.push(settled.inputs.length);
		settled.outEnds.push(settled.out.length);
	}
	return settled.out.concat(tail.out.slice(tail.settledOut));
}

/** What convertToLlm keeps of a transcript between calls: one per transcript, by its first message. */
interface Settled {
	/** Transcript messages whose model messages can no longer change, and those model messages. */
	readonly inputs: AgentMessage[];
	readonly out: Message[];
	/** Where each settled stretch ends, in `inputs` and in `out` (starting with 0, 0). */
	readonly inputEnds: number[];
	readonly outEnds: number[];
}

const settledOf = new WeakMap<AgentMessage, Settled>();

/** The last settled stretch that ends by `inputs` transcript messages. */
function pointAtOrBefore(settled: Settled, inputs: number): number {
	let point = settled.inputEnds.length - 1;
	while (point > 0 && (settled.inputEnds[point] as number) > inputs) point--;
	return point;
}

function cutSettled(settled: Settled, point: number): void {
	settled.inputs.length = settled.inputEnds[point] as number;
	settled.out.length = settled.outEnds[point] as number;
	settled.inputEnds.length = point + 1;
	settled.outEnds.length = point + 1;
}

/**
 * The model messages of `messages[from…]` (`from` is 0 or just after a settled reply or tool result),
 * and how far they are settled: up to the last reply or tool result sent, after which later messages
 * join no earlier user message and drop no earlier prompt.
 */
function convertFrom(messages: readonly AgentMessage[], from: number): { out: Message[]; settledInputs: number; settledOut: number } {
	const out: Message[] = [];
	let settledInputs = from;
	let settledOut = 0;
	const push = (m: Message) => {
		const last = out.at(-1);
		if (m.role === "user" && last?.role === "user") out[out.length - 1] = joinUserMessages(last, m);
		else out.push(m);
	};
	const settle = (index: number) => {
		settledInputs = index + 1;
		settledOut = out.length;
	};
	const failed = failedPrompts(messages, from);
	for (let i = from; i < messages.length; i++) {
		const m = messages[i] as AgentMessage;
		switch (m.role) {
			case "user":
				if (!failed.has(m)) push(m);
				break;
			case "toolResult":
				push(m);
				settle(i);
				break;
			case "assistant":
				if (isEmptyFailedAssistant(m)) break;
				push(m);
				settle(i);
				break;
			case "shellOutput":
				push(asUser(shellOutputText(m), m.timestamp));
				break;
			case "compactionSummary":
				push(asUser(compactionSummaryText(m.summary), m.timestamp));
				break;
		}
	}
	return { out, settledInputs, settledOut };
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
