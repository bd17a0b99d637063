// OpenAI chat completions (`POST {baseUrl}/chat/completions`, SSE). The same protocol serves OpenAI,
// OpenRouter, Groq and the local servers (Ollama, llama.cpp, vLLM, LM Studio); `model.compat` covers
// where they differ.

import { randomUUID } from "node:crypto";
import type { StreamFunction } from "../api-registry.js";
import type {
	AssistantMessage,
	Context,
	ImageContent,
	Message,
	Model,
	OpenAICompletionsCompat,
	SimpleStreamOptions,
	StopReason,
	Tool,
	UserMessage,
} from "../types.js";
import { webSearchText } from "../web-search.js";
import { type AssistantBuilder, runProviderStream } from "./assistant-builder.js";
import { ProviderError, parseSseJson } from "./http.js";
import { withKnownJson } from "./json-body.js";
import {
	convertWithToolResultImages,
	imageDataUrl,
	openAIRequest,
	reasoningEffort,
	splitToolCallId,
	startsOpenAISegment,
	toolResultText,
} from "./openai-shared.js";
import { readEventBatches, streamProviderRequest } from "./provider-request.js";
import { type HistoryProtocol, wireHistory } from "./wire-history.js";

// ---- Wire types (the subset we send and read) ----

type ChatContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

interface ChatToolCall {
	id: string;
	type: "function";
	function: { name: string; arguments: string };
}

export type ChatMessage =
	| { role: "system" | "developer"; content: string }
	| { role: "user"; content: string | ChatContentPart[] }
	| {
			role: "assistant";
			content: string | null;
			tool_calls?: ChatToolCall[];
			reasoning_content?: string;
			reasoning?: string;
	  }
	| { role: "tool"; tool_call_id: string; content: string };

interface ChatChunkToolCall {
	index?: number;
	id?: string;
	type?: string;
	function?: { name?: string; arguments?: string };
}

interface ChatChunk {
	id?: string;
	model?: string;
	choices?: {
		index?: number;
		delta?: {
			content?: string | null;
			reasoning_content?: string | null;
			reasoning?: string | null;
			tool_calls?: ChatChunkToolCall[];
		};
		finish_reason?: string | null;
	}[];
	usage?: ChatUsage | null;
	/** Groq puts usage here on the last chunk. */
	x_groq?: { usage?: ChatUsage | null } | null;
	error?: { message?: string; type?: string; code?: string | number };
}

interface ChatUsage {
	prompt_tokens?: number;
	completion_tokens?: number;
	prompt_tokens_details?: { cached_tokens?: number } | null;
}

// ---- Request ----

/** Compat flags with OpenAI's own behaviour filled in for provider "openai" and portable defaults elsewhere. */
export function resolveCompat(
	model: Model,
): Required<Omit<OpenAICompletionsCompat, "reasoningField">> & Pick<OpenAICompletionsCompat, "reasoningField"> {
	const isOpenAI = model.provider === "openai";
	const c = model.compat ?? {};
	return {
		maxTokensField: c.maxTokensField ?? (isOpenAI ? "max_completion_tokens" : "max_tokens"),
		supportsDeveloperRole: c.supportsDeveloperRole ?? false,
		supportsReasoningEffort: c.supportsReasoningEffort ?? true,
		supportsUsageInStreaming: c.supportsUsageInStreaming ?? true,
		supportsStore: c.supportsStore ?? isOpenAI,
		reasoningField: c.reasoningField,
		replayReasoning: c.replayReasoning ?? false,
	};
}

export function buildCompletionsBody(model: Model, context: Context, options?: SimpleStreamOptions): Record<string, unknown> {
	const compat = resolveCompat(model);
	const body: Record<string, unknown> = {
		model: model.id,
		messages: toChatMessages(model, context),
		stream: true,
	};
	if (compat.supportsUsageInStreaming) body.stream_options = { include_usage: true };
	// Only an explicit cap is sent: vLLM rejects a max_tokens that does not fit beside the prompt, and
	// every server's default is "until done or the context is full".
	if (options?.maxTokens !== undefined) body[compat.maxTokensField] = options.maxTokens;
	if (options?.temperature !== undefined) body.temperature = options.temperature;
	if (context.tools?.length) body.tools = context.tools.map(toChatTool);
	if (options?.reasoning && model.reasoning && compat.supportsReasoningEffort) {
		body.reasoning_effort = reasoningEffort(model, options.reasoning);
	}
	if (compat.supportsStore) body.store = false;
	return body;
}

function toChatTool(tool: Tool): unknown {
	return { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

/**
 * Our transcript as chat messages, the system prompt first. Thinking is dropped unless the compat asks
 * to replay it. The earlier messages' elements and bytes are those of the request before (wire-history.ts).
 */
export function toChatMessages(model: Model, context: Context): ChatMessage[] {
	const compat = resolveCompat(model);
	const role = compat.supportsDeveloperRole && model.reasoning ? "developer" : "system";
	const head: ChatMessage[] = context.systemPrompt ? [{ role, content: context.systemPrompt }] : [];
	const history = wireHistory(context.messages, chatProtocol(model, context.messages), head);
	return withKnownJson(history.elements, head.length, history.kept, history.bytes(history.kept));
}

/**
 * How chat messages are made from a transcript. Replayed thinking: with `replayReasoning: true` every
 * assistant message carries it (part of the key); with "tool-loop" only those after the last user
 * message, which a later prompt takes it from again, so they are converted anew by every request.
 */
export function chatProtocol(model: Model, messages: readonly Message[]): HistoryProtocol<ChatMessage> {
	const compat = resolveCompat(model);
	const replay = compat.replayReasoning;
	const loopFrom = replay === "tool-loop" ? messages.findLastIndex((m) => m.role === "user") + 1 : messages.length;
	const replayed = (message: Message, index: number) => message.role === "assistant" && (replay === true || index >= loopFrom);
	return {
		key: `chat:${compat.reasoningField ?? ""}:${replay === true ? "replay" : ""}`,
		startsSegment: startsOpenAISegment,
		volatileFrom: loopFrom,
		convert: (all, from, to) =>
			convertWithToolResultImages(
				all,
				from,
				to,
				(message, index) => convertMessage(message, compat, replayed(message, index)),
				(intro, images): ChatMessage => ({ role: "user", content: [{ type: "text", text: intro }, ...images.map(toImagePart)] }),
			),
	};
}

function convertMessage(message: Message, compat: ReturnType<typeof resolveCompat>, replayed: boolean): ChatMessage[] {
	if (message.role === "user") return [{ role: "user", content: userContent(message) }];
	if (message.role === "toolResult") {
		return [{ role: "tool", tool_call_id: splitToolCallId(message.toolCallId).callId, content: toolResultText(message.content) }];
	}
	const assistant = assistantMessage(message, compat.reasoningField, replayed);
	return assistant ? [assistant] : [];
}

function userContent(message: UserMessage): string | ChatContentPart[] {
	if (typeof message.content === "string") return message.content;
	// Plain strings where possible: some local servers accept nothing else.
	if (message.content.every((c) => c.type === "text")) return message.content.map((c) => (c as { text: string }).text).join("\n");
	return message.content.map((c) => (c.type === "text" ? { type: "text" as const, text: c.text } : toImagePart(c)));
}

function toImagePart(image: ImageContent): ChatContentPart {
	return { type: "image_url", image_url: { url: imageDataUrl(image) } };
}

function assistantMessage(
	message: AssistantMessage,
	reasoningField: OpenAICompletionsCompat["reasoningField"],
	replayReasoning: boolean,
): ChatMessage | undefined {
	let text = "";
	let thinking = "";
	const toolCalls: ChatToolCall[] = [];
	for (const block of message.content) {
		if (block.type === "text") text += block.text;
		else if (block.type === "thinking") {
			if (!block.redacted) thinking += block.thinking;
		} else if (block.type === "webSearch") {
			// Another API ran this search; what it found is context as text.
			text += `${text ? "\n\n" : ""}${webSearchText(block)}`;
		} else {
			toolCalls.push({
				id: splitToolCallId(block.id).callId,
				type: "function",
				function: { name: block.name, arguments: JSON.stringify(block.arguments) },
			});
		}
	}
	// An assistant message with neither text nor tool calls is rejected by OpenAI (an aborted empty reply).
	if (!text && toolCalls.length === 0) return undefined;
	const out: Extract<ChatMessage, { role: "assistant" }> = { role: "assistant", content: text || null };
	if (toolCalls.length > 0) out.tool_calls = toolCalls;
	if (replayReasoning && thinking) out[reasoningField ?? "reasoning_content"] = thinking;
	return out;
}

// ---- Response ----

const FINISH_REASONS: Record<string, Extract<StopReason, "stop" | "length" | "toolUse">> = {
	stop: "stop",
	length: "length",
	tool_calls: "toolUse",
	function_call: "toolUse",
};

export const streamOpenAICompletions: StreamFunction = (model, context, options) =>
	runProviderStream(model, options, async (builder) => {
		const request = openAIRequest(model, options, "chat/completions", buildCompletionsBody(model, context, options));
		const providerName = request.providerName;
		const events = await streamProviderRequest(model, options, request);
		builder.start();
		const reader = new ChunkReader(builder, model, providerName);
		const sawDone = await readEventBatches(builder, events, (event) => {
			if (event.data === "[DONE]") return true;
			reader.read(parseSseJson<ChatChunk>(providerName, event.data));
		});
		if (!sawDone && reader.finishReason === undefined) {
			throw new ProviderError(`${providerName}: the stream ended before the reply was complete`);
		}
		reader.end();
	});

/** Turns chat chunks into builder calls; keeps only what the next chunk needs (no history scans). */
class ChunkReader {
	finishReason: string | undefined;
	/** Tool-call keys by stream index, for servers that send the index only on the first chunk. */
	private lastToolKey: string | undefined;
	private readonly reasoningField: OpenAICompletionsCompat["reasoningField"];

	constructor(
		private readonly builder: AssistantBuilder,
		private readonly model: Model,
		private readonly providerName: string,
	) {
		this.reasoningField = resolveCompat(model).reasoningField;
	}

	read(chunk: ChatChunk): void {
		if (chunk.error) {
			throw new ProviderError(`${this.providerName}: ${chunk.error.message ?? JSON.stringify(chunk.error)}`);
		}
		const output = this.builder.output;
		if (chunk.id && !output.responseId) output.responseId = chunk.id;
		if (chunk.model && chunk.model !== this.model.id && !output.responseModel) output.responseModel = chunk.model;
		const usage = chunk.usage ?? chunk.x_groq?.usage;
		if (usage) {
			const prompt = usage.prompt_tokens ?? 0;
			const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
			this.builder.setUsage({ input: prompt - cached, output: usage.completion_tokens ?? 0, cacheRead: cached });
		}
		const choice = chunk.choices?.[0];
		if (!choice) return;
		const delta = choice.delta;
		if (delta) {
			const reasoning = this.reasoningOf(delta);
			if (reasoning) this.builder.thinking(reasoning);
			if (delta.content) this.builder.text(delta.content);
			if (delta.tool_calls) for (const [position, call] of delta.tool_calls.entries()) this.toolCall(call, position);
		}
		if (choice.finish_reason) this.finishReason = choice.finish_reason;
	}

	end(): void {
		const reason = this.finishReason;
		if (reason === "content_filter") throw new ProviderError(`${this.providerName}: the reply was blocked by the content filter`);
		this.builder.finish((reason && FINISH_REASONS[reason]) || "stop");
	}

	private reasoningOf(delta: NonNullable<NonNullable<ChatChunk["choices"]>[number]["delta"]>): string | undefined {
		const field = this.reasoningField;
		if (field) return delta[field] ?? undefined;
		// Servers name it differently (DeepSeek/vLLM `reasoning_content`, Ollama/OpenRouter `reasoning`); some send both.
		return delta.reasoning_content || delta.reasoning || undefined;
	}

	private toolCall(call: ChatChunkToolCall, position: number): void {
		const key = call.index !== undefined ? String(call.index) : call.id ? `id:${call.id}` : (this.lastToolKey ?? String(position));
		if (!this.builder.hasToolCall(key)) {
			// A tool result must name its call, so a server that sends no id still gets one.
			this.builder.toolCallStart(key, call.id || `call_${randomUUID()}`, call.function?.name ?? "");
		}
		this.lastToolKey = key;
		if (call.function?.arguments) this.builder.toolCallDelta(key, call.function.arguments);
	}
}
