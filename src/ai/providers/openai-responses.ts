// OpenAI Responses (`POST {baseUrl}/responses`, SSE with named events). Stateless (`store:false`):
// reasoning items travel back in full from `thinkingSignature`, with their encrypted content.
import type { StreamFunction } from "../api-registry.js";
import type {
	AssistantMessage,
	Context,
	ImageContent,
	Model,
	SimpleStreamOptions,
	TextContent,
	Tool,
	UserMessage,
	WebSearchContent,
} from "../types.js";
import { addSource, cleanSource, cleanTitle, hostedWebSearch, webSearchText } from "../web-search.js";
import type { AssistantBuilder } from "./assistant-builder.js";
import { runProviderStream } from "./assistant-builder.js";
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

type InputContent =
	| { type: "input_text"; text: string }
	| { type: "input_image"; detail: "auto"; image_url: string }
	| { type: "output_text"; text: string; annotations: [] };

export type ResponsesInputItem =
	| { role: "user" | "assistant"; content: string | InputContent[] }
	| {
			type: "message";
			role: "assistant";
			id: string;
			status: "completed";
			content: InputContent[];
			phase?: MessagePhase;
	  }
	| { type: "function_call"; id?: string; call_id: string; name: string; arguments: string }
	| { type: "function_call_output"; call_id: string; output: string }
	| { type: "reasoning"; [key: string]: unknown }
	/** A web search the server ran, sent back exactly as it came. */
	| { type: "web_search_call"; [key: string]: unknown };

/** Labels an assistant message item; OpenAI asks clients to send it back unchanged (gpt-5.3-codex and later). */
type MessagePhase = NonNullable<TextContent["phase"]>;

interface OutputItem {
	id?: string;
	type: string;
	call_id?: string;
	name?: string;
	arguments?: string;
	status?: string;
	phase?: string | null;
	/** web_search_call: what the search did (a search with its sources, a page opened, a find in a page). */
	action?: { type?: string; query?: string; queries?: string[]; url?: string; pattern?: string; sources?: { url?: string }[] };
}

interface WireError {
	message?: string;
	code?: string | null;
	type?: string;
}

interface ResponseObject {
	id?: string;
	model?: string;
	status?: string;
	error?: WireError | null;
	incomplete_details?: { reason?: string } | null;
	usage?: {
		input_tokens?: number;
		output_tokens?: number;
		input_tokens_details?: { cached_tokens?: number } | null;
	} | null;
}

interface ResponsesEvent {
	type: string;
	item?: OutputItem;
	item_id?: string;
	delta?: string;
	arguments?: string;
	response?: ResponseObject;
	/** The `error` event: the SDK types put message and code at the top, the live API nests them in `error`. */
	message?: string;
	code?: string | null;
	error?: WireError | null;
	/** response.output_text.annotation.added */
	annotation?: { type?: string; url?: string; title?: string };
}

// ---- Request ----

export function buildResponsesBody(model: Model, context: Context, options?: SimpleStreamOptions): Record<string, unknown> {
	const body: Record<string, unknown> = {
		model: model.id,
		input: toResponsesInput(model, context),
		stream: true,
		store: false,
	};
	if (context.systemPrompt) body.instructions = context.systemPrompt;
	const include: string[] = [];
	if (context.tools?.length) {
		const hosted = hostedWebSearch(model);
		body.tools = context.tools.map((tool) => (tool.hosted === "web_search" && hosted ? WEB_SEARCH_TOOL : toResponsesTool(tool)));
		// The pages a search consulted, for the sources row (otherwise only the cited ones are known).
		if (hosted && context.tools.some((tool) => tool.hosted === "web_search")) include.push("web_search_call.action.sources");
	}
	if (options?.maxTokens !== undefined) body.max_output_tokens = options.maxTokens;
	if (options?.temperature !== undefined) body.temperature = options.temperature;
	if (options?.reasoning && model.reasoning) {
		body.reasoning = { effort: reasoningEffort(model, options.reasoning), summary: "auto" };
		// Without storage the server forgets its reasoning; asking for it encrypted lets us send it back.
		include.unshift("reasoning.encrypted_content");
	}
	if (include.length > 0) body.include = include;
	if (options?.sessionId) body.prompt_cache_key = options.sessionId;
	return body;
}

/** OpenAI's server-side web search. */
const WEB_SEARCH_TOOL = { type: "web_search" } as const;

function toResponsesTool(tool: Tool): unknown {
	return { type: "function", name: tool.name, description: tool.description, parameters: tool.parameters };
}

/** Our transcript as Responses input items; the earlier messages' are those of the request before (wire-history.ts). */
export function toResponsesInput(model: Model, context: Context): ResponsesInputItem[] {
	const history = wireHistory(context.messages, responsesProtocol(model));
	return withKnownJson(history.elements, 0, history.kept, history.bytes(history.kept));
}

/** How Responses input items are made from a transcript. */
export function responsesProtocol(model: Model): HistoryProtocol<ResponsesInputItem> {
	return {
		// Reasoning items and item ids are kept for the model that made them (assistantItems).
		key: `responses:${model.api}:${model.provider}:${model.id}`,
		startsSegment: startsOpenAISegment,
		convert: (messages, from, to) =>
			convertWithToolResultImages<ResponsesInputItem>(
				messages,
				from,
				to,
				(message) => {
					if (message.role === "user") return [{ role: "user", content: userContent(message) }];
					if (message.role === "assistant") return assistantItems(model, message);
					return [
						{ type: "function_call_output", call_id: splitToolCallId(message.toolCallId).callId, output: toolResultText(message.content) },
					];
				},
				(intro, images) => ({ role: "user", content: [{ type: "input_text", text: intro }, ...images.map(toImageInput)] }),
			),
	};
}

function userContent(message: UserMessage): string | InputContent[] {
	if (typeof message.content === "string") return message.content;
	return message.content.map((c) => (c.type === "text" ? { type: "input_text" as const, text: c.text } : toImageInput(c)));
}

function toImageInput(image: ImageContent): InputContent {
	return { type: "input_image", detail: "auto", image_url: imageDataUrl(image) };
}

function assistantItems(model: Model, message: AssistantMessage): ResponsesInputItem[] {
	// Reasoning items and item ids only mean something to the model that produced them; the server
	// rejects a function_call id whose reasoning item is missing, so other models' ids are dropped.
	const sameModel = message.api === model.api && message.provider === model.provider && message.model === model.id;
	const items: ResponsesInputItem[] = [];
	for (const block of message.content) {
		if (block.type === "thinking") {
			const item = sameModel ? parseReasoningItem(block.thinkingSignature) : undefined;
			if (item) items.push(item);
		} else if (block.type === "text") {
			if (!block.text) continue;
			if (sameModel && block.textSignature) {
				items.push({
					type: "message",
					role: "assistant",
					id: block.textSignature,
					status: "completed",
					content: [{ type: "output_text", text: block.text, annotations: [] }],
					...(block.phase && { phase: block.phase }),
				});
			} else items.push({ role: "assistant", content: block.text });
		} else if (block.type === "webSearch") {
			// The web_search_call item goes back as it came (after its reasoning item); elsewhere as text.
			if (sameModel && block.replay?.length) items.push(...(block.replay as ResponsesInputItem[]));
			else items.push({ role: "assistant", content: webSearchText(block) });
		} else {
			const { callId, itemId } = splitToolCallId(block.id);
			items.push({
				type: "function_call",
				...(sameModel && itemId ? { id: itemId } : {}),
				call_id: callId,
				name: block.name,
				arguments: JSON.stringify(block.arguments),
			});
		}
	}
	return items;
}

function parseReasoningItem(signature: string | undefined): ResponsesInputItem | undefined {
	if (!signature) return undefined;
	try {
		const item = JSON.parse(signature);
		return item && item.type === "reasoning" ? item : undefined;
	} catch {
		return undefined;
	}
}

// ---- Response ----

export const streamOpenAIResponses: StreamFunction = (model, context, options) =>
	runProviderStream(model, options, async (builder) => {
		const request = openAIRequest(model, options, "responses", buildResponsesBody(model, context, options));
		const providerName = request.providerName;
		const events = await streamProviderRequest(model, options, request);
		builder.start();
		const over = await readEventBatches(builder, events, (sse) =>
			readEvent(builder, model, providerName, parseSseJson<ResponsesEvent>(providerName, sse.data)),
		);
		if (over) return;
		throw new ProviderError(`${providerName}: the stream ended before the response completed`);
	});

/** Applies one event to the builder; true once the response is over. */
function readEvent(builder: AssistantBuilder, model: Model, providerName: string, event: ResponsesEvent): boolean {
	switch (event.type) {
		case "response.created":
			if (event.response?.id) builder.output.responseId = event.response.id;
			if (event.response?.model && event.response.model !== model.id) builder.output.responseModel = event.response.model;
			return false;
		case "response.output_item.added":
			startItem(builder, event.item);
			return false;
		case "response.reasoning_summary_part.added":
			// Summary parts are separate paragraphs of one thinking block.
			if (lastThinkingText(builder)) builder.thinking("\n\n");
			return false;
		case "response.reasoning_summary_text.delta":
			if (event.delta) builder.thinking(event.delta);
			return false;
		case "response.output_text.delta":
		case "response.refusal.delta":
			if (event.delta) builder.text(event.delta);
			return false;
		case "response.function_call_arguments.delta":
			if (event.item_id && event.delta) builder.toolCallDelta(event.item_id, event.delta);
			return false;
		case "response.function_call_arguments.done":
			if (event.item_id && event.arguments !== undefined) {
				builder.toolCallEnd(event.item_id, event.arguments);
			}
			return false;
		case "response.output_item.done":
			endItem(builder, event.item);
			return false;
		case "response.output_text.annotation.added":
			cite(builder, event.annotation);
			return false;
		case "response.completed":
		case "response.incomplete":
			finishResponse(builder, providerName, event.response);
			return true;
		case "response.failed":
			throw new ProviderError(errorText(providerName, event.response?.error, "the response failed"));
		case "error":
			throw new ProviderError(errorText(providerName, event.error ?? { message: event.message, code: event.code }, "stream error"));
		default:
			return false;
	}
}

function errorText(providerName: string, error: WireError | null | undefined, fallback: string): string {
	const code = error?.code ?? error?.type;
	return `${providerName}: ${error?.message || fallback}${code ? ` (${code})` : ""}`;
}

function startItem(builder: AssistantBuilder, item: OutputItem | undefined): void {
	if (!item) return;
	if (item.type === "reasoning") builder.thinking("");
	else if (item.type === "message") {
		builder.text("", item.id);
		keepPhase(builder, item);
	} else if (item.type === "function_call" && item.id) {
		builder.toolCallStart(item.id, `${item.call_id ?? item.id}|${item.id}`, item.name ?? "");
	}
}

function endItem(builder: AssistantBuilder, item: OutputItem | undefined): void {
	if (!item) return;
	if (item.type === "reasoning") {
		// The whole item (with encrypted_content) is what the server needs back next turn.
		builder.thinkingSignature(JSON.stringify(item));
		builder.closeAll();
	} else if (item.type === "message") {
		keepPhase(builder, item);
		builder.closeAll();
	} else if (item.type === "function_call" && item.id && builder.hasToolCall(item.id)) {
		builder.toolCallEnd(item.id, item.arguments);
	} else if (item.type === "web_search_call") builder.webSearch(webSearchOf(item));
}

/** A finished web_search_call item as our search block; the item itself is what the server needs back. */
function webSearchOf(item: OutputItem): WebSearchContent {
	const action = item.action ?? {};
	const sources: WebSearchContent["sources"] = [];
	for (const source of action.sources ?? []) addSource(sources, cleanSource(undefined, source?.url));
	if (action.url) addSource(sources, cleanSource(undefined, action.url));
	const queries = action.queries?.length ? action.queries : action.query ? [action.query] : [];
	const query =
		action.type === "open_page"
			? `open ${sources[0]?.url ?? "a page"}`
			: action.type === "find_in_page"
				? `find "${cleanTitle(action.pattern)}" in ${sources[0]?.url ?? "a page"}`
				: queries.map(cleanTitle).join("; ");
	return {
		type: "webSearch",
		id: item.id ?? "",
		query,
		sources,
		...(item.status === "failed" && { error: "failed" }),
		replay: [item],
	};
}

/** A url_citation on the text being written: kept on that text block. */
function cite(builder: AssistantBuilder, annotation: ResponsesEvent["annotation"]): void {
	if (annotation?.type !== "url_citation") return;
	const last = builder.output.content.at(-1);
	if (last?.type !== "text") return;
	last.citations ??= [];
	addSource(last.citations, cleanSource(annotation.title, annotation.url));
}

/** Puts the item's phase on the text block it opened (the last block while the item streams). */
function keepPhase(builder: AssistantBuilder, item: OutputItem): void {
	const phase = item.phase;
	if (phase !== "commentary" && phase !== "final_answer") return;
	const last = builder.output.content.at(-1);
	if (last?.type === "text" && last.textSignature === item.id) last.phase = phase satisfies MessagePhase;
}

function lastThinkingText(builder: AssistantBuilder): string {
	const last = builder.output.content.at(-1);
	return last?.type === "thinking" ? last.thinking : "";
}

function finishResponse(builder: AssistantBuilder, providerName: string, response: ResponseObject | undefined): void {
	const usage = response?.usage;
	if (usage) {
		const cached = usage.input_tokens_details?.cached_tokens ?? 0;
		builder.setUsage({ input: (usage.input_tokens ?? 0) - cached, output: usage.output_tokens ?? 0, cacheRead: cached });
	}
	const status = response?.status ?? "completed";
	if (status === "incomplete") {
		if (response?.incomplete_details?.reason === "content_filter") {
			throw new ProviderError(`${providerName}: the reply was blocked by the content filter`);
		}
		builder.finish("length");
	} else if (status === "completed") builder.finish("stop");
	else throw new ProviderError(`${providerName}: the response ended with status ${status}`);
}
