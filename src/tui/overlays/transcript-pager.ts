// A sub-agent's transcript in a pager (Ctrl+O on a sub-agent): its prompt, replies, thinking, tool calls
// and their results in full, as lines fitted to the width, scrolled a line or a page at a time. Pure:
// the lines of a transcript and the pager's next state for a key. Everything shown came from the model
// or a tool, so every line goes through `screenText` (secrets redacted, then sanitised).
import type { AgentMessage } from "../../agent/types.js";
import type { SubAgentMessages } from "../../session/types.js";
import type { Action } from "../keys/keybindings.js";
import { formatToolArgs } from "../text/format-args.js";
import { screenText } from "../text/screen-text.js";
import { wrapLine } from "../text/text-width.js";

export interface TranscriptPagerState {
	/** The sub-agent shown: the pager is drawn again from its transcript as it goes on. */
	agentId: string;
	title: string;
	lines: readonly string[];
	/** The first line shown. */
	top: number;
}

/** The prefix of each kind of line: the user's prompt, the agent's text and thinking, a tool call, its result. */
const MARKS = { user: "› ", text: "  ", thinking: "  ∴ ", call: "⏺ ", result: "  ⎿ " } as const;

function block(mark: string, text: string, width: number): string[] {
	const indent = " ".repeat(mark.length);
	return text
		.replace(/\s+$/, "")
		.split("\n")
		.flatMap((line, i) => wrapLine(`${i === 0 ? mark : indent}${screenText(line)}`, width));
}

function messageLines(message: AgentMessage, width: number): string[] {
	if (message.role === "user") {
		const text =
			typeof message.content === "string" ? message.content : message.content.map((c) => (c.type === "text" ? c.text : "[image]")).join("");
		return block(MARKS.user, text, width);
	}
	if (message.role === "assistant") {
		return message.content.flatMap((c) => {
			if (c.type === "text") return block(MARKS.text, c.text, width);
			if (c.type === "thinking") return block(MARKS.thinking, c.thinking, width);
			if (c.type === "toolCall") return block(MARKS.call, `${c.name}(${formatToolArgs(c.arguments)})`, width);
			return [];
		});
	}
	if (message.role === "toolResult") {
		const text = message.content.map((c) => (c.type === "text" ? c.text : "[image]")).join("\n");
		return block(MARKS.result, text || "(no output)", width);
	}
	return [];
}

/** The pager opened on `transcript`, at its end (the latest lines). */
export function openTranscriptPager(transcript: SubAgentMessages, width: number, page: number): TranscriptPagerState {
	const { info } = transcript;
	const lines = transcript.messages.flatMap((m) => messageLines(m, Math.max(10, width)));
	const title = screenText(`Sub-agent ${info.name} (${info.agentId}) · ${info.status} · ${info.task}`).replace(/\s*\n\s*/g, " ");
	return {
		agentId: info.agentId,
		title,
		lines: lines.length > 0 ? lines : ["(no finished message yet)"],
		top: Math.max(0, lines.length - page),
	};
}

/**
 * The open pager drawn again from the sub-agent's transcript now (its status and new messages): a pager
 * at its end follows the end, one scrolled up keeps its place. The same state when nothing changed.
 */
export function refreshTranscriptPager(
	state: TranscriptPagerState,
	transcript: SubAgentMessages,
	width: number,
	page: number,
): TranscriptPagerState {
	const next = openTranscriptPager(transcript, width, page);
	if (next.title === state.title && next.lines.length === state.lines.length) return state;
	const atEnd = state.top >= Math.max(0, state.lines.length - page);
	return { ...next, top: atEnd ? next.top : Math.min(state.top, next.top) };
}

/** The pager after `action`, or undefined when it closes. Keys of no pager action leave it as it is. */
export function transcriptPagerKey(
	state: TranscriptPagerState,
	action: Action | undefined,
	page: number,
): TranscriptPagerState | undefined {
	const last = Math.max(0, state.lines.length - page);
	const to = (top: number) => ({ ...state, top: Math.min(last, Math.max(0, top)) });
	switch (action) {
		case "pagerClose":
			return undefined;
		case "pagerUp":
			return to(state.top - 1);
		case "pagerDown":
			return to(state.top + 1);
		case "pagerPageUp":
			return to(state.top - page);
		case "pagerPageDown":
			return to(state.top + page);
		default:
			return state;
	}
}
