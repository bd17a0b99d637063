// Test helpers for the agent layer: a scripted stream function speaking the real assistant event
// protocol (one macrotask between events, abort honoured between events unless told otherwise), and a
// compact trace of agent events so tests can assert exact orders.

import type { AgentEvent, AgentMessage, AgentTool, StreamFn } from "../../src/agent/types.js";
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "../../src/ai/event-stream.js";
import type { AssistantMessage, Context, Model, SimpleStreamOptions, StopReason, ToolCall, UserMessage } from "../../src/ai/types.js";
import { createOutputMessage } from "../../src/ai/usage.js";

export const testModel: Model = {
	id: "scripted-1",
	name: "Scripted",
	api: "scripted-test",
	provider: "scripted",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
};

export interface Reply {
	/** Text deltas of one text block. */
	text?: string[];
	toolCalls?: ToolCall[];
	/** Default: "toolUse" with tool calls, else "stop". "error" ends with an error event. */
	stop?: StopReason;
	errorMessage?: string;
	/** Keep streaming after an abort, like a provider that does not check the signal. */
	ignoreAbort?: boolean;
	/** Awaited before the terminal event (to hold the stream open). */
	hold?: Promise<void>;
	/** End the stream without a terminal event and without a result. */
	noTerminal?: boolean;
	/** Send only `done` with the final message, no `start`. */
	doneOnly?: boolean;
}

export type Script = Reply | ((context: Context, options: SimpleStreamOptions | undefined) => Reply);

export interface ScriptedStreamFn extends StreamFn {
	calls: { context: Context; options?: SimpleStreamOptions }[];
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A stream function replaying `scripts` in order; with none left it answers "done". */
export function scriptedStream(scripts: Script[]): ScriptedStreamFn {
	const queue = [...scripts];
	const calls: ScriptedStreamFn["calls"] = [];
	const fn = ((model: Model, context: Context, options?: SimpleStreamOptions) => {
		calls.push({ context: { ...context, messages: [...context.messages] }, options });
		const next = queue.shift() ?? { text: ["done"] };
		const reply = typeof next === "function" ? next(context, options) : next;
		return play(model, reply, options?.signal);
	}) as ScriptedStreamFn;
	fn.calls = calls;
	return fn;
}

class Aborted extends Error {}

function play(model: Model, reply: Reply, signal: AbortSignal | undefined): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const out = createOutputMessage(model);
	const step = async () => {
		await tick();
		if (signal?.aborted && !reply.ignoreAbort) throw new Aborted();
	};
	void (async () => {
		try {
			if (reply.doneOnly) {
				await step();
				if (reply.text) out.content.push({ type: "text", text: reply.text.join("") });
				stream.push({ type: "done", reason: "stop", message: out });
				return;
			}
			await step();
			stream.push({ type: "start", partial: out });
			if (reply.text) {
				const contentIndex = out.content.length;
				const block = { type: "text" as const, text: "" };
				out.content.push(block);
				stream.push({ type: "text_start", contentIndex, partial: out });
				for (const delta of reply.text) {
					await step();
					block.text += delta;
					stream.push({ type: "text_delta", contentIndex, delta, partial: out });
				}
				stream.push({ type: "text_end", contentIndex, content: block.text, partial: out });
			}
			for (const call of reply.toolCalls ?? []) {
				const contentIndex = out.content.length;
				const block: ToolCall = { ...call, arguments: {} };
				out.content.push(block);
				stream.push({ type: "toolcall_start", contentIndex, partial: out });
				await step();
				block.arguments = call.arguments;
				stream.push({ type: "toolcall_end", contentIndex, toolCall: block, partial: out });
			}
			if (reply.hold) await reply.hold;
			await step();
			if (reply.noTerminal) {
				stream.end();
				return;
			}
			if (reply.stop === "error" || reply.stop === "aborted") {
				out.stopReason = reply.stop;
				out.errorMessage = reply.errorMessage ?? "HTTP 500";
				stream.push({ type: "error", reason: reply.stop, error: out });
				return;
			}
			out.stopReason = reply.stop ?? (reply.toolCalls?.length ? "toolUse" : "stop");
			stream.push({ type: "done", reason: out.stopReason as "stop" | "length" | "toolUse", message: out });
		} catch {
			out.stopReason = "aborted";
			out.errorMessage = "Request was aborted";
			stream.push({ type: "error", reason: "aborted", error: out });
		}
	})();
	return stream;
}

export const user = (text: string): UserMessage => ({ role: "user", content: text, timestamp: Date.now() });

export const call = (id: string, name: string, args: Record<string, any> = {}): ToolCall => ({
	type: "toolCall",
	id,
	name,
	arguments: args,
});

export function assistant(text: string, stopReason: StopReason = "stop"): AssistantMessage {
	const m = createOutputMessage(testModel);
	m.content = [{ type: "text", text }];
	m.stopReason = stopReason;
	return m;
}

/** A tool over a plain JSON schema `{value: string}` (optional) whose execute the test supplies. */
export function tool(name: string, execute: AgentTool["execute"], extra: Partial<AgentTool> = {}): AgentTool {
	return {
		name,
		label: name,
		description: `${name} tool`,
		parameters: { type: "object", properties: { value: { type: "string" } } },
		execute,
		...extra,
	};
}

export const ok = (text = "ok") => ({ content: [{ type: "text" as const, text }], details: { text } });

export function textOf(message: AgentMessage | undefined): string {
	if (!message || !("content" in message)) return "";
	const content = (message as { content: unknown }).content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content.map((c: any) => (c.type === "text" ? c.text : c.type === "toolCall" ? `[${c.name}]` : "")).join("");
}

function describe(message: AgentMessage): string {
	switch (message.role) {
		case "user":
			return `user(${textOf(message)})`;
		case "toolResult":
			return `toolResult ${message.toolCallId}`;
		default:
			return message.role;
	}
}

/** One short label per event: `ms user(hi)`, `upd text_delta`, `me assistant(stop)`, `tes t1`, `turn_end(t1,t2)`. */
export function label(event: AgentEvent): string {
	switch (event.type) {
		case "message_start":
			return `ms ${describe(event.message)}`;
		case "message_end":
			return event.message.role === "assistant"
				? `me assistant(${(event.message as AssistantMessage).stopReason})`
				: `me ${describe(event.message)}`;
		case "message_update":
			return `upd ${event.assistantMessageEvent.type}`;
		case "tool_execution_start":
			return `tes ${event.toolCallId}`;
		case "tool_execution_update":
			return `teu ${event.toolCallId}`;
		case "tool_execution_end":
			return `tee ${event.toolCallId}`;
		case "turn_end":
			return `turn_end(${event.toolResults.map((r) => r.toolCallId).join(",")})`;
		default:
			return event.type;
	}
}

/** A promise with its resolver outside, to gate a tool or a stream on the test's schedule. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
	let resolve!: (value: T) => void;
	const promise = new Promise<T>((r) => {
		resolve = r;
	});
	return { promise, resolve };
}
