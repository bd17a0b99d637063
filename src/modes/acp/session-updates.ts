// Rudder's session events as ACP `session/update`s, and a saved transcript replayed as the same updates
// (`session/load`). Streamed text and thinking go out as chunks; a tool call is announced (`tool_call`,
// pending) as soon as its arguments are complete, then updated as it runs and ends (`tool_call_update`).
import type { ContentBlock, SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { AgentMessage, AgentToolResult } from "../../agent/types.js";
import type { AssistantMessage, ImageContent, TextContent, ToolCall, ToolResultMessage, UserMessage } from "../../ai/types.js";
import type { SessionEvent, TodoItem } from "../../session/types.js";
import { toolCallView } from "./tool-calls.js";

/** The todo list (`todo_write`) as ACP's plan: the whole list each time, as the spec asks. */
export function planUpdate(todos: readonly TodoItem[]): SessionUpdate {
	return { sessionUpdate: "plan", entries: todos.map((t) => ({ content: t.content, status: t.status, priority: "medium" })) };
}

/** A running tool's output is sent as its last this many characters (the full result comes at the end). */
const MAX_PARTIAL_CHARS = 8000;

type ResultContent = AgentToolResult<unknown>["content"];

/**
 * Per session: which tool calls were announced and the diff each was announced with (an update's
 * `content` replaces the call's, so the diff is sent again with the result).
 */
export class UpdateMapper {
	private readonly announced = new Map<string, ToolCallContent[]>();
	/** Waiting approvals: approval id → tool call id. */
	private readonly asking = new Map<string, string>();
	/** The next user message is the turn's own prompt, which the client already shows. */
	private promptPending = false;

	constructor(private readonly cwd: string) {}

	/** A turn starts with the prompt `text`: its user message is not echoed back. */
	turnStarted(): void {
		this.promptPending = true;
	}

	updatesFor(event: SessionEvent): SessionUpdate[] {
		switch (event.type) {
			case "message_start":
				return this.userMessage(event.message);
			case "message_update": {
				const e = event.assistantMessageEvent;
				if (e.type === "text_delta") return [chunk("agent_message_chunk", e.delta)];
				if (e.type === "thinking_delta") return [chunk("agent_thought_chunk", e.delta)];
				if (e.type === "toolcall_end") return this.announce(e.toolCall, "pending");
				return [];
			}
			case "tool_execution_start":
				return [
					...this.announce({ type: "toolCall", id: event.toolCallId, name: event.toolName, arguments: event.args }, "in_progress"),
					{ sessionUpdate: "tool_call_update", toolCallId: event.toolCallId, status: "in_progress" },
				];
			case "tool_execution_update": {
				const text = textOf(event.partialResult.content);
				const tail = text.length > MAX_PARTIAL_CHARS ? `…${text.slice(-MAX_PARTIAL_CHARS)}` : text;
				return [
					{
						sessionUpdate: "tool_call_update",
						toolCallId: event.toolCallId,
						content: [...this.diffOf(event.toolCallId), textContent(tail)],
					},
				];
			}
			case "tool_execution_end":
				return [this.finished(event.toolCallId, event.result.content, event.isError)];
			// The permission check runs after execution starts: the call is pending again while it asks.
			case "approval_request":
				this.asking.set(event.id, event.toolCallId);
				return [{ sessionUpdate: "tool_call_update", toolCallId: event.toolCallId, status: "pending" }];
			case "approval_end": {
				const toolCallId = this.asking.get(event.id);
				this.asking.delete(event.id);
				const runs = event.decision === "allow" || event.decision === "always";
				return toolCallId && runs ? [{ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" }] : [];
			}
			case "notice":
				// Command output (`/help`, `/model`) and warnings: shown as the agent's text, one line each.
				return [chunk("agent_message_chunk", `${event.level === "info" ? "" : `${capitalise(event.level)}: `}${event.text}\n`)];
			case "user_shell":
				return [chunk("agent_message_chunk", `$ ${event.command}\n${event.output}\n`)];
			case "todo_updated":
				return [planUpdate(event.todos)];
			default:
				return [];
		}
	}

	/** A steer or follow-up that joined the run: shown as the user's, since the client did not send it as a prompt. */
	private userMessage(message: AgentMessage): SessionUpdate[] {
		if ((message as { role?: string }).role !== "user") return [];
		if (this.promptPending) {
			this.promptPending = false;
			return [];
		}
		return userChunks(message as UserMessage);
	}

	/** `tool_call` once per call id (the first of toolcall_end and execution start). */
	private announce(call: ToolCall, status: "pending" | "in_progress"): SessionUpdate[] {
		if (this.announced.has(call.id)) return [];
		const view = toolCallView(call.name, call.arguments, this.cwd);
		this.announced.set(call.id, view.content);
		return [{ sessionUpdate: "tool_call", toolCallId: call.id, status, rawInput: call.arguments, ...view }];
	}

	private diffOf(toolCallId: string): ToolCallContent[] {
		return this.announced.get(toolCallId) ?? [];
	}

	private finished(toolCallId: string, content: ResultContent, isError: boolean): SessionUpdate {
		const update: SessionUpdate = {
			sessionUpdate: "tool_call_update",
			toolCallId,
			status: isError ? "failed" : "completed",
			// A failed edit changed nothing: its diff is no longer shown.
			content: [...(isError ? [] : this.diffOf(toolCallId)), ...resultContent(content)],
		};
		this.announced.delete(toolCallId);
		return update;
	}
}

/** A saved transcript as the updates a client would have seen live (tool calls already finished). */
export function replayUpdates(messages: readonly AgentMessage[], cwd: string): SessionUpdate[] {
	const results = new Map<string, ToolResultMessage>();
	for (const m of messages)
		if ((m as { role?: string }).role === "toolResult") results.set((m as ToolResultMessage).toolCallId, m as ToolResultMessage);
	const updates: SessionUpdate[] = [];
	for (const message of messages) {
		const role = (message as { role?: string }).role;
		if (role === "user") updates.push(...userChunks(message as UserMessage));
		if (role !== "assistant") continue;
		for (const block of (message as AssistantMessage).content) {
			if (block.type === "text" && block.text) updates.push(chunk("agent_message_chunk", block.text));
			else if (block.type === "thinking" && block.thinking) updates.push(chunk("agent_thought_chunk", block.thinking));
			else if (block.type === "toolCall") {
				const result = results.get(block.id);
				// The file has changed since: a diff from today's file would be wrong, so none is shown.
				const { content: _diff, ...view } = toolCallView(block.name, block.arguments, cwd);
				updates.push({
					sessionUpdate: "tool_call",
					toolCallId: block.id,
					rawInput: block.arguments,
					...view,
					status: !result ? "failed" : result.isError ? "failed" : "completed",
					content: result ? resultContent(result.content) : [textContent("(no result: the run was interrupted)")],
				});
			}
		}
	}
	return updates;
}

function userChunks(message: UserMessage): SessionUpdate[] {
	const content = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
	return content.map((block) => ({ sessionUpdate: "user_message_chunk", content: contentBlock(block) }));
}

function contentBlock(block: TextContent | ImageContent): ContentBlock {
	return block.type === "text" ? { type: "text", text: block.text } : { type: "image", data: block.data, mimeType: block.mimeType };
}

function chunk(kind: "agent_message_chunk" | "agent_thought_chunk", text: string): SessionUpdate {
	return { sessionUpdate: kind, content: { type: "text", text } };
}

function textContent(text: string): ToolCallContent {
	return { type: "content", content: { type: "text", text } };
}

function resultContent(content: ResultContent): ToolCallContent[] {
	return content.map((block) => ({ type: "content", content: contentBlock(block) }));
}

function textOf(content: ResultContent): string {
	return content
		.filter((c): c is TextContent => c.type === "text")
		.map((c) => c.text)
		.join("\n");
}

function capitalise(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
