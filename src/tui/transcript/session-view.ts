// What the screen shows, derived from session events: an append-only history (finished items, written
// once into <Static>) and a small live part (the streaming message's open tail, running tools, the
// queue). Each event does work proportional to the event, never to the transcript or the reply, so
// the per-token path stays flat however long the session gets. Plain TypeScript; `use-session.ts`
// connects it to React.
import type { AgentMessage } from "../../agent/types.js";
import type { AssistantMessage, ToolResultMessage, WebSearchContent, WebSource } from "../../ai/types.js";
import { type AttachedFile, splitAttachments } from "../../session/prompt-attachments.js";
import type { AgentSessionApi, RunPhase, SessionEvent } from "../../session/types.js";
import { MarkdownBlockSplitter } from "../markdown/block-splitter.js";

export type HistoryItem =
	/**
	 * `full`: the text as sent, when `text` shows big pastes as their placeholders or leaves out the
	 * `@file`s appended to it (`attached`: one `Read big.js (400 lines)` row each); Ctrl+O prints it.
	 */
	| { kind: "user"; id: number; text: string; full?: string; pasted?: boolean; attached?: AttachedFile[]; expanded?: boolean }
	| { kind: "markdown"; id: number; source: string }
	| { kind: "thinking"; id: number; text: string; expanded?: boolean }
	| { kind: "tool"; id: number; name: string; args: unknown; output: string; isError: boolean; diff?: string; expanded?: boolean }
	/** `unanswered`: the request failed before any answer, so the prompt is marked failed (↑ recalls it). */
	| { kind: "error"; id: number; text: string; unanswered?: boolean }
	| { kind: "aborted"; id: number }
	| { kind: "notice"; id: number; level: "info" | "warning" | "error"; text: string }
	/** A web search the provider ran (`query`), or the pages a reply cites (no query): titles and URLs. */
	| { kind: "sources"; id: number; search?: { query: string; error?: string }; sources: WebSource[] }
	| { kind: "shell"; id: number; command: string; output: string; exitCode: number | null; aborted?: boolean; excluded?: boolean };

/** Distributes Omit over the union, so `add()` takes any item without its id. */
type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;

export interface RunningTool {
	id: string;
	name: string;
	args: unknown;
	startedAt: number;
	/** The last few lines of streamed output (bash). */
	outputTail: string;
	/** It waits for the checkpoint snapshot before it runs: no timer yet. */
	waiting?: true;
}

/** A `!cmd` still running. */
export interface RunningShell {
	command: string;
	startedAt: number;
	/** The end of its output so far (secrets redacted, not yet sanitised), shown live under it. */
	output?: string;
}

/** The streaming message's parts that are not yet in history. */
export interface LiveTail {
	thinking: string;
	text: string;
	/** Name of a tool call the model is still writing. */
	writingToolCall?: string;
	/**
	 * A text block of the message is streaming (from its first delta to its end): its tail keeps its
	 * place on screen while a delta has just closed a block and left the open text empty.
	 */
	textOpen?: boolean;
}

const TOOL_TAIL_LINES = 3;
/** Lines of a finished thinking block printed until Ctrl+O prints it whole. */
export const THINKING_SHOWN = 6;
/** Messages of a resumed session printed at start; older ones are only in the session file. */
export const RESUME_SHOWN = 100;

export class SessionView {
	/** Finished items; only ever appended to. */
	readonly history: HistoryItem[] = [];
	/** Where the current session's items start in `history`: a reprint (Ctrl+L, a cleared screen) starts there. */
	sessionStart = 0;
	tail: LiveTail = { thinking: "", text: "", textOpen: false };
	readonly tools = new Map<string, RunningTool>();
	readonly shells = new Map<number, RunningShell>();
	steering: string[] = [];
	followUp: string[] = [];
	/** The running sub-agent the input steers (Alt+S picks it); undefined: the main agent. */
	selectedAgent: string | undefined;
	/** The session's run phase as of the last `phase_changed` (a retry wait, an approval, ...). */
	phase: RunPhase;
	/** Bumped on every change; the React hook compares it. */
	version = 0;
	/**
	 * Bumped on every change but streamed text and thinking: while it stands still, a frame redraws the
	 * live tail alone (use-session.ts), and prints the blocks that text closed (appended to `history`)
	 * above it (src/tui/ink/live-region.ts).
	 */
	structure = 0;

	private nextId = 1;
	private splitters = new Map<number, MarkdownBlockSplitter>();
	private thinking = new Map<number, string>();
	private toolsShown = new Set<string>();
	/**
	 * Arguments of tool calls whose result has not been shown, by call id: a result with no execution
	 * events (a restored transcript, an aborted call) shows its call's arguments as the live row did.
	 */
	private callArgs = new Map<string, unknown>();
	/**
	 * Results that ended before an earlier call of the same reply (calls run in parallel; one may wait
	 * for its approval): held, by call id, so results print in the order the model wrote the calls.
	 */
	private heldResults = new Map<string, WithoutId<HistoryItem>>();
	/** Prompts sent with big pastes, until their user message arrives: shown with the placeholders. */
	private pastesShownAs: { sent: string; display: string }[] = [];

	constructor(
		private readonly session: AgentSessionApi,
		private readonly now: () => number = Date.now,
	) {
		const state = session.getState();
		this.phase = state.phase;
		this.steering = [...state.steering];
		this.followUp = [...state.followUp];
		this.addResumed(state.messages);
	}

	add(item: WithoutId<HistoryItem>): void {
		this.history.push({ ...item, id: this.nextId++ } as HistoryItem);
		this.version++;
		this.structure++;
	}

	/**
	 * The input sent `sent` (pastes expanded) for what showed as `display` (their placeholders): its
	 * user message goes into history as `display`, so a 500-line paste is one line there too.
	 */
	showPastesAs(sent: string, display: string): void {
		if (sent !== display) this.pastesShownAs.push({ sent, display });
	}

	/**
	 * Ctrl+O: prints the last tool result, thinking or pasted prompt again, in full (printed history
	 * cannot change). Nothing when that item is already shown whole.
	 */
	expandLast(): boolean {
		for (let i = this.history.length - 1; i >= 0; i--) {
			const item = this.history[i];
			if (item.kind === "user") {
				if (item.full === undefined) continue;
				if (item.expanded) return false;
				this.add({ kind: "user", text: item.full, expanded: true });
				return true;
			}
			if (item.kind !== "tool" && item.kind !== "thinking") continue;
			if (item.kind === "thinking" && item.text.split("\n").length <= THINKING_SHOWN) continue;
			if (item.expanded) return false;
			this.add({ ...item, expanded: true });
			return true;
		}
		return false;
	}

	handle(event: SessionEvent): void {
		switch (event.type) {
			case "message_start":
				if (event.message.role === "assistant") this.resetTail();
				break;
			case "message_update":
				this.onAssistantEvent(event.assistantMessageEvent);
				break;
			case "message_end":
				this.onMessageEnd(event.message);
				break;
			case "tool_execution_start":
			case "tool_execution_update":
			case "tool_execution_end":
				this.onToolEvent(event);
				break;
			case "agent_end":
				this.releaseResults(true);
				this.tools.clear();
				this.resetTail();
				break;
			case "tool_waiting":
				this.onToolWaiting(event.toolCallId, event.waiting);
				break;
			case "phase_changed":
				this.phase = event.phase;
				break;
			case "queue_update":
				this.steering = event.steering;
				this.followUp = event.followUp;
				break;
			case "session_changed": {
				// A divider above the transcript printed again; the command that switched says what happened
				// (/new: "New session", /undo: what it restored), so an empty transcript gets no line of its own.
				const { sessionId, messages } = this.session.getState();
				this.sessionStart = this.history.length;
				if (messages.length > 0) this.add({ kind: "notice", level: "info", text: `── session ${sessionId.slice(0, 8)} ──` });
				this.toolsShown.clear();
				this.callArgs.clear();
				this.addResumed(messages);
				break;
			}
			case "notice":
				this.add({ kind: "notice", level: event.level, text: event.text });
				break;
			case "user_shell_start":
				this.shells.set(event.id, { command: event.command, startedAt: this.now() });
				break;
			case "user_shell_output": {
				const shell = this.shells.get(event.id);
				if (shell) shell.output = event.tail;
				break;
			}
			case "user_shell":
				this.onShellEnd(event);
				break;
			case "compaction_start":
				this.add({ kind: "notice", level: "info", text: `Compacting the context (${event.reason})…` });
				break;
			case "compaction_end":
				this.add(
					event.error
						? { kind: "notice", level: "error", text: `Compaction failed: ${event.error}` }
						: { kind: "notice", level: "info", text: "Context compacted." },
				);
				break;
		}
		this.version++;
		if (!changesTailOnly(event)) this.structure++;
	}

	/** A tool call starts (it shows as running), streams output (its last lines), or ends (into the history). */
	private onToolEvent(event: Extract<SessionEvent, { type: `tool_execution_${string}` }>): void {
		if (event.type === "tool_execution_start") {
			this.tools.set(event.toolCallId, {
				id: event.toolCallId,
				name: event.toolName,
				args: event.args,
				startedAt: this.now(),
				outputTail: "",
			});
			return;
		}
		const tool = this.tools.get(event.toolCallId);
		if (event.type === "tool_execution_update") {
			if (tool) tool.outputTail = lastLines(resultText(event.partialResult.content), TOOL_TAIL_LINES);
			return;
		}
		this.tools.delete(event.toolCallId);
		this.toolsShown.add(event.toolCallId);
		this.heldResults.set(event.toolCallId, {
			kind: "tool",
			name: event.toolName,
			args: tool?.args,
			output: resultText(event.result.content),
			isError: event.isError,
			diff: typeof event.result.details?.diff === "string" ? event.result.details.diff : undefined,
		});
		this.releaseResults();
	}

	/** A running call waits for the snapshot, or starts now: its timer counts from then. */
	private onToolWaiting(id: string, waiting: boolean): void {
		const tool = this.tools.get(id);
		if (!tool) return;
		if (waiting) tool.waiting = true;
		else {
			delete tool.waiting;
			tool.startedAt = this.now();
		}
	}

	/** Prints held results in call order, up to the first earlier call not finished (`all`: everything held). */
	private releaseResults(all = false): void {
		for (const id of [...this.callArgs.keys(), ...this.heldResults.keys()]) {
			const held = this.heldResults.get(id);
			if (!held && !all) return;
			if (!held) continue;
			this.heldResults.delete(id);
			this.callArgs.delete(id);
			this.add(held);
		}
	}

	/** A `!cmd` ended: off the running list, into the history with its output. */
	private onShellEnd(event: Extract<SessionEvent, { type: "user_shell" }>): void {
		this.shells.delete(event.id);
		this.add({
			kind: "shell",
			command: event.command,
			output: event.output,
			exitCode: event.exitCode,
			...(event.aborted ? { aborted: true } : {}),
			...(event.excluded ? { excluded: true } : {}),
		});
	}

	private resetTail(): void {
		this.splitters.clear();
		this.thinking.clear();
		this.tail = { thinking: "", text: "", textOpen: false };
	}

	private onAssistantEvent(e: Extract<SessionEvent, { type: "message_update" }>["assistantMessageEvent"]): void {
		switch (e.type) {
			case "text_delta": {
				let splitter = this.splitters.get(e.contentIndex);
				if (!splitter) {
					splitter = new MarkdownBlockSplitter();
					this.splitters.set(e.contentIndex, splitter);
				}
				// A block the delta closed is history, but no change of structure: the tail's frame prints it.
				// An index loop: for-of makes an iterator and a result object per step, once per read.
				const closed = splitter.push(e.delta);
				for (let i = 0; i < closed.length; i++) this.history.push({ kind: "markdown", source: closed[i], id: this.nextId++ });
				this.tail = withTail(this.tail, splitter.tail, this.tail.thinking, true);
				break;
			}
			case "text_end":
				this.flushText(e.contentIndex);
				break;
			case "thinking_delta": {
				const text = (this.thinking.get(e.contentIndex) ?? "") + e.delta;
				this.thinking.set(e.contentIndex, text);
				this.tail = withTail(this.tail, this.tail.text, text, this.tail.textOpen);
				break;
			}
			case "thinking_end":
				this.flushThinking(e.contentIndex);
				break;
			case "toolcall_start": {
				const block = e.partial.content[e.contentIndex];
				this.tail = { ...this.tail, writingToolCall: block?.type === "toolCall" ? block.name : "tool" };
				break;
			}
			case "toolcall_end":
				this.tail = { ...this.tail, writingToolCall: undefined };
				break;
			case "websearch":
				this.addSearch(e.search);
				break;
		}
	}

	private addSearch(search: WebSearchContent): void {
		this.add({ kind: "sources", search: { query: search.query, ...(search.error && { error: search.error }) }, sources: search.sources });
	}

	/** The pages the reply's text cites, once each, in one row after it. */
	private addCitations(message: AssistantMessage): void {
		const cited: WebSource[] = [];
		for (const block of message.content) {
			if (block.type !== "text") continue;
			for (const source of block.citations ?? []) if (!cited.some((c) => c.url === source.url)) cited.push(source);
		}
		if (cited.length > 0) this.add({ kind: "sources", sources: cited });
	}

	private flushText(index: number): void {
		const splitter = this.splitters.get(index);
		if (!splitter) return;
		for (const block of splitter.finish()) this.add({ kind: "markdown", source: block });
		this.splitters.delete(index);
		this.tail = { ...this.tail, text: "", textOpen: this.splitters.size > 0 };
	}

	private flushThinking(index: number): void {
		const text = this.thinking.get(index);
		this.thinking.delete(index);
		if (text?.trim()) this.add({ kind: "thinking", text: text.trim() });
		this.tail = { ...this.tail, thinking: "" };
	}

	private onMessageEnd(message: AgentMessage): void {
		// The reply's results are in the transcript now: whatever is held prints before what comes next.
		this.releaseResults(true);
		if (message.role === "assistant") {
			// Whatever is still open (an aborted or failed stream) stays on screen as it was.
			for (const index of [...this.thinking.keys()]) this.flushThinking(index);
			for (const index of [...this.splitters.keys()].sort((a, b) => a - b)) this.flushText(index);
			this.resetTail();
			this.noteCallArgs(message);
			this.addCitations(message);
			this.addAssistantEnding(message);
		} else this.addMessages([message]);
	}

	private addAssistantEnding(message: AssistantMessage): void {
		if (message.stopReason === "aborted") this.add({ kind: "aborted" });
		else if (message.stopReason === "error") {
			const text = message.errorMessage ?? "The model request failed.";
			this.add(answered(message) ? { kind: "error", text } : { kind: "error", text, unanswered: true });
		}
	}

	/** Finished messages (a resumed transcript, a user message, a tool result) as history items. */
	/**
	 * A resumed transcript: only its last RESUME_SHOWN messages are printed (from a user message on).
	 * Printing a thousand messages would fill the scrollback and cost one huge first frame; the rest
	 * stays in the session file.
	 */
	private addResumed(messages: readonly AgentMessage[]): void {
		let start = Math.max(0, messages.length - RESUME_SHOWN);
		while (start > 0 && start < messages.length && messages[start].role !== "user") start++;
		if (start >= messages.length) start = Math.max(0, messages.length - RESUME_SHOWN);
		if (start > 0) {
			this.add({ kind: "notice", level: "info", text: `… ${start} earlier messages are in the session file (/export writes them all)` });
		}
		this.addMessages(start > 0 ? messages.slice(start) : messages);
	}

	private addMessages(messages: readonly AgentMessage[]): void {
		for (const m of messages) {
			if (m.role === "user") {
				const text = typeof m.content === "string" ? m.content : resultText(m.content);
				// Attachments are appended to what was sent, so the sent text is the message's start.
				const { prompt, files } = splitAttachments(text);
				const attached = files.length > 0 ? { attached: files, full: text } : {};
				const shown = this.pastesShownAs.findIndex((p) => prompt.startsWith(p.sent));
				if (shown === -1) this.add({ kind: "user", text: prompt, ...attached });
				else {
					const { sent, display } = this.pastesShownAs.splice(shown, 1)[0];
					this.add({ kind: "user", text: display + prompt.slice(sent.length), full: text, pasted: true, ...attached });
				}
			} else if (m.role === "assistant") {
				for (const block of m.content) {
					if (block.type === "thinking" && !block.redacted && block.thinking.trim())
						this.add({ kind: "thinking", text: block.thinking.trim() });
					else if (block.type === "text" && block.text.trim()) this.add({ kind: "markdown", source: block.text });
					else if (block.type === "webSearch") this.addSearch(block);
				}
				this.noteCallArgs(m);
				this.addCitations(m);
				this.addAssistantEnding(m);
			} else if (m.role === "toolResult") this.addToolResult(m);
			else if (m.role === "shellOutput") {
				const { command, output, exitCode, aborted } = m;
				this.add({ kind: "shell", command, output, exitCode, ...(aborted ? { aborted } : {}) });
			} else if (m.role === "compactionSummary") {
				this.add({ kind: "notice", level: "info", text: "Earlier turns were compacted into a summary." });
			}
		}
	}

	private noteCallArgs(message: AssistantMessage): void {
		for (const block of message.content)
			if (block.type === "toolCall" && !this.toolsShown.has(block.id)) this.callArgs.set(block.id, block.arguments);
	}

	/** A tool result no execution event announced (resumed, or written for an aborted call). */
	private addToolResult(m: ToolResultMessage): void {
		if (this.toolsShown.has(m.toolCallId)) return;
		this.toolsShown.add(m.toolCallId);
		const args = this.callArgs.get(m.toolCallId);
		this.callArgs.delete(m.toolCallId);
		this.add({
			kind: "tool",
			name: m.toolName,
			args,
			output: resultText(m.content),
			isError: m.isError,
			diff: typeof m.details?.diff === "string" ? m.details.diff : undefined,
		});
	}
}

/**
 * The tail with new text, thinking and textOpen, as a literal, once per streamed delta: a spread that
 * then overrides keys it copied (`{ ...tail, text }`) takes V8's slow path in baseline code, ~0.2–0.5 µs
 * against ~0.02 µs (docs/streaming.md, "No spread that overrides what it copied"). `writingToolCall`
 * is kept only when present, as the spread kept it.
 */
function withTail(tail: LiveTail, text: string, thinking: string, textOpen: boolean | undefined): LiveTail {
	return "writingToolCall" in tail ? { thinking, text, textOpen, writingToolCall: tail.writingToolCall } : { thinking, text, textOpen };
}

/** Streamed text and thinking change the open tail only (a block they close is added to history, which counts). */
function changesTailOnly(event: SessionEvent): boolean {
	if (event.type !== "message_update") return false;
	const type = event.assistantMessageEvent.type;
	return type === "text_delta" || type === "thinking_delta";
}

function resultText(content: readonly { type: string; text?: string }[]): string {
	return content.map((c) => (c.type === "text" ? (c.text ?? "") : `[${c.type}]`)).join("\n");
}

/** The last `n` lines, found from the end (bash output can be long; only its end is shown). */
export function lastLines(text: string, n: number): string {
	let end = text.length;
	while (end > 0 && text[end - 1] === "\n") end--;
	let start = 0;
	let pos = end;
	for (let count = 0; count < n && pos > 0; count++) {
		const nl = text.lastIndexOf("\n", pos - 1);
		if (nl === -1) break;
		if (count === n - 1) start = nl + 1;
		pos = nl;
	}
	return text.slice(start, end);
}

/** The reply said something or called a tool before it ended (a failure then is not the prompt's). */
function answered(message: AssistantMessage): boolean {
	return message.content.some((c) => (c.type === "text" ? c.text.trim() !== "" : c.type === "toolCall"));
}

/**
 * The prompt `message` failed to answer, as typed (attachments left out), when it is a failed reply
 * with no answer in it; undefined otherwise. The app puts it back in the input history (↑ recalls it).
 */
export function unansweredPrompt(message: AgentMessage, messages: readonly AgentMessage[]): string | undefined {
	if (message.role !== "assistant" || message.stopReason !== "error" || answered(message)) return undefined;
	const user = messages.findLast((m) => m.role === "user");
	if (!user) return undefined;
	return splitAttachments(typeof user.content === "string" ? user.content : resultText(user.content)).prompt;
}
