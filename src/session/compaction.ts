// Compaction: when the context nears the model's window, older turns are replaced by a summary the
// model writes, and recent turns stay verbatim. The cut falls only before a user message, so a tool
// call and its result are never separated. Everything here is pure except `summarize`, which makes
// one model call through the session's stream function.

import type { AgentMessage, StreamFn } from "../agent/types.js";
import { type Context, type Model, type SimpleStreamOptions, webSearchText } from "../ai/index.js";
import { messageText } from "./session-messages.js";
import type { CompactionSettings } from "./settings.js";

export type CompactionReason = "manual" | "threshold" | "overflow";

// Provider texts for "the request did not fit", from OpenAI, Anthropic, Google and local servers.
const overflowPatterns = [
	/context[ _]length/i,
	/maximum context/i,
	/prompt is too long/i,
	/too many tokens/i,
	/context window/i,
	/exceeds? the (?:model's )?context/i,
	/input is too long/i,
];

/** True when an error text says the request was larger than the model's window. */
export function isContextOverflowError(errorMessage: string | undefined): boolean {
	return !!errorMessage && overflowPatterns.some((p) => p.test(errorMessage));
}

/** Compact automatically when the last request used more than the window minus the reserve. */
export function shouldCompact(contextTokens: number, contextWindow: number, settings: CompactionSettings): boolean {
	return settings.enabled && contextWindow > 0 && contextTokens > contextWindow - settings.reserveTokens;
}

// An image costs about this many tokens on current providers; counted in characters like text.
const imageChars = 4_800;

/** Rough size of a message in tokens (characters / 4): enough to choose a cut, not to bill. */
export function estimateTokens(m: AgentMessage): number {
	let chars = 0;
	switch (m.role) {
		case "user":
			if (typeof m.content === "string") chars = m.content.length;
			else for (const c of m.content) chars += c.type === "text" ? c.text.length : imageChars;
			break;
		case "assistant":
			for (const c of m.content) {
				if (c.type === "text") chars += c.text.length;
				else if (c.type === "thinking") chars += c.thinking.length;
				else if (c.type === "webSearch") chars += JSON.stringify(c.replay ?? c.sources).length;
				else chars += c.name.length + JSON.stringify(c.arguments).length;
			}
			break;
		case "toolResult":
			for (const c of m.content) chars += c.type === "text" ? c.text.length : imageChars;
			break;
		default:
			chars = messageText(m).length;
	}
	return Math.ceil(chars / 4);
}

/**
 * Where the kept part starts: the latest user message such that the messages from it on hold at least
 * `keepRecentTokens`. When even the whole tail is smaller, the last user message (keep the last turn).
 * Never 0: something must be summarised. Undefined when no user message follows the first message.
 */
export function findCutIndex(messages: readonly AgentMessage[], keepRecentTokens: number): number | undefined {
	let tail = 0;
	let lastUser: number | undefined;
	for (let i = messages.length - 1; i > 0; i--) {
		tail += estimateTokens(messages[i]);
		if (messages[i].role !== "user") continue;
		lastUser ??= i;
		if (tail >= keepRecentTokens) return i;
	}
	return lastUser;
}

const summarySystemPrompt = `You summarise a conversation between a user and a coding assistant so the assistant can continue the work with only your summary and the most recent messages.`;

const summaryInstructions = `Write a concise but complete summary of the conversation above. Include:
- the user's goal and every requirement or preference they stated;
- what was done: files read, created or changed (with paths), commands run and their outcome;
- decisions made and why, and errors met and how they were solved;
- what remains to be done, and the exact next step.
Write it as notes for the assistant, not as a reply to the user.`;

const maxCharsPerMessage = 4_000;

/** The transcript as plain text for the summariser; long tool output is cut in the middle. */
export function serializeForSummary(messages: readonly AgentMessage[]): string {
	const clip = (text: string) =>
		text.length <= maxCharsPerMessage
			? text
			: `${text.slice(0, maxCharsPerMessage / 2)}\n[... ${text.length - maxCharsPerMessage} characters omitted ...]\n${text.slice(-maxCharsPerMessage / 2)}`;
	const lines: string[] = [];
	for (const m of messages) {
		switch (m.role) {
			case "assistant": {
				const text = messageText(m);
				if (text.trim()) lines.push(`[Assistant]: ${clip(text)}`);
				for (const c of m.content) {
					if (c.type === "toolCall") lines.push(`[Assistant tool call]: ${c.name}(${clip(JSON.stringify(c.arguments))})`);
					else if (c.type === "webSearch") lines.push(`[Assistant web search]: ${clip(webSearchText(c))}`);
				}
				break;
			}
			case "toolResult":
				lines.push(`[Tool result${m.isError ? " (error)" : ""} ${m.toolName}]: ${clip(messageText(m))}`);
				break;
			case "compactionSummary":
				lines.push(`[Summary of the conversation before this point]: ${m.summary}`);
				break;
			case "user":
				lines.push(`[User]: ${clip(messageText(m))}`);
				break;
			default:
				lines.push(`[User]: ${clip(messageText(m))}`);
		}
	}
	return lines.join("\n\n");
}

export interface SummarizeOptions {
	model: Model;
	messages: readonly AgentMessage[];
	streamFn: StreamFn;
	instructions?: string;
	apiKey?: string;
	signal?: AbortSignal;
	/** Extra stream options (retries). */
	streamOptions?: SimpleStreamOptions;
}

/** One model call that returns the summary text; throws one line when the call fails. */
export async function summarize(options: SummarizeOptions): Promise<string> {
	const extra = options.instructions?.trim() ? `\n\nAdditional instructions from the user: ${options.instructions.trim()}` : "";
	const context: Context = {
		systemPrompt: summarySystemPrompt,
		messages: [
			{
				role: "user",
				content: [
					{
						type: "text",
						text: `<conversation>\n${serializeForSummary(options.messages)}\n</conversation>\n\n${summaryInstructions}${extra}`,
					},
				],
				timestamp: Date.now(),
			},
		],
	};
	const stream = await options.streamFn(options.model, context, {
		...options.streamOptions,
		apiKey: options.apiKey,
		signal: options.signal,
		maxTokens: Math.min(options.model.maxTokens || 8_192, 8_192),
	});
	const reply = await stream.result();
	if (reply.stopReason === "error" || reply.stopReason === "aborted") {
		throw new Error(`Summarisation failed: ${reply.errorMessage ?? reply.stopReason}`);
	}
	const summary = reply.content
		.map((c) => (c.type === "text" ? c.text : ""))
		.join("")
		.trim();
	if (!summary) throw new Error("Summarisation failed: the model returned no text");
	return summary;
}
