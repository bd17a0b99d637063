// Anthropic Messages API (`POST /v1/messages`, streamed). Builds the request from our context (prompt
// caching marks, extended thinking, tool results as user turns) and maps the SSE events onto the
// assistant event protocol through `AssistantBuilder`.
import type { StreamFunction } from "../api-registry.js";
import { PROVIDER_KEY_ENV } from "../constants.js";
import type {
	AssistantMessage,
	Context,
	ImageContent,
	Message,
	Model,
	SimpleStreamOptions,
	StopReason,
	TextContent,
	ToolResultMessage,
	UserMessage,
	WebSearchContent,
} from "../types.js";
import { addSource, cleanSource, cleanTitle, hostedWebSearch, webSearchText } from "../web-search.js";
import { type AssistantBuilder, runProviderStream } from "./assistant-builder.js";
import { joinUrl, oneLine, ProviderError, parseSseJson } from "./http.js";
import { withKnownJson } from "./json-body.js";
import { readEventBatches, streamProviderRequest } from "./provider-request.js";
import { thinkingBudgetFor } from "./thinking-budget.js";
import { type HistoryProtocol, makesAssistantTurn, wireHistory } from "./wire-history.js";

const PROVIDER_NAME = "Anthropic";
const API_KEY_ENV = PROVIDER_KEY_ENV.anthropic[0];
const API_VERSION = "2023-06-01";
/** Streams tool arguments in small pieces instead of one buffered blob at the end of each call. */
const FINE_GRAINED_TOOL_STREAMING = "fine-grained-tool-streaming-2025-05-14";
/** Anthropic's smallest accepted thinking budget. */
const MIN_THINKING_BUDGET = 1024;
/**
 * How many times one reply is resumed after `stop_reason: "pause_turn"` (a long server-side tool loop,
 * such as web searches, paused by the API) before it ends as an error instead of asking again.
 */
export const MAX_PAUSE_CONTINUATIONS = 5;
/** Anthropic's server-side web search (GA, no beta header) and how many searches one request may run. */
const WEB_SEARCH_TOOL = { type: "web_search_20250305", name: "web_search", max_uses: 5 } as const;

type CacheControl = { type: "ephemeral"; ttl?: "1h" };

type AnthropicTextBlock = { type: "text"; text: string; cache_control?: CacheControl };
type AnthropicImageBlock = {
	type: "image";
	source: { type: "base64"; media_type: string; data: string };
	cache_control?: CacheControl;
};
type AnthropicToolResultBlock = {
	type: "tool_result";
	tool_use_id: string;
	is_error: boolean;
	content: (AnthropicTextBlock | AnthropicImageBlock)[];
	cache_control?: CacheControl;
};
type AnthropicAssistantBlock =
	| AnthropicTextBlock
	| { type: "thinking"; thinking: string; signature: string }
	| { type: "redacted_thinking"; data: string }
	| { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
	/** A server_tool_use or web_search_tool_result block, sent back exactly as it came. */
	| { type: "server_tool_use" | "web_search_tool_result"; [key: string]: unknown };
type AnthropicUserBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicToolResultBlock;

export type AnthropicMessageParam =
	| { role: "user"; content: AnthropicUserBlock[] }
	| { role: "assistant"; content: AnthropicAssistantBlock[] };

export interface AnthropicRequestBody {
	model: string;
	max_tokens: number;
	stream: true;
	system?: AnthropicTextBlock[];
	messages: AnthropicMessageParam[];
	tools?: ({ name: string; description: string; input_schema: unknown } | typeof WEB_SEARCH_TOOL)[];
	thinking?: { type: "enabled"; budget_tokens: number };
	temperature?: number;
}

/** Builds the request body for `context`; pure, so the wire shape can be tested without a server. */
export function buildAnthropicRequest(model: Model, context: Context, options?: SimpleStreamOptions): AnthropicRequestBody {
	let maxTokens = options?.maxTokens ?? model.maxTokens;
	const body: AnthropicRequestBody = {
		model: model.id,
		max_tokens: maxTokens,
		stream: true,
		messages: [],
	};
	const cache = cacheControlFor(options?.cacheRetention);
	if (context.systemPrompt) {
		body.system = [{ type: "text", text: context.systemPrompt, ...(cache && { cache_control: cache }) }];
	}
	// The earlier messages' wire form and bytes are those of the request before (wire-history.ts); the
	// cache mark moves to each request's last user turn, so it goes on a copy, never on a kept element.
	const history = wireHistory(context.messages, anthropicProtocol(model));
	const messages = history.elements;
	const marked = cache ? markLastUserBlock(messages, cache) : messages.length;
	const known = Math.min(history.kept, marked);
	body.messages = withKnownJson(messages, 0, known, history.bytes(known));
	if (context.tools?.length) {
		const hosted = hostedWebSearch(model);
		body.tools = context.tools.map((tool) =>
			tool.hosted === "web_search" && hosted
				? WEB_SEARCH_TOOL
				: { name: tool.name, description: tool.description, input_schema: tool.parameters },
		);
	}
	if (options?.reasoning && model.reasoning) {
		let budget = thinkingBudgetFor(options.reasoning, model, options.thinkingBudgets);
		// max_tokens counts the thinking too, so it must leave room for an answer after the budget.
		if (maxTokens <= budget) maxTokens = Math.min(budget + maxTokens, Math.max(model.maxTokens, maxTokens));
		if (maxTokens <= budget) budget = maxTokens - MIN_THINKING_BUDGET;
		if (budget >= MIN_THINKING_BUDGET) {
			body.max_tokens = maxTokens;
			body.thinking = { type: "enabled", budget_tokens: budget };
		}
	}
	// The API rejects a temperature other than 1 while thinking is on.
	if (options?.temperature !== undefined && !body.thinking) body.temperature = options.temperature;
	return body;
}

function cacheControlFor(retention: SimpleStreamOptions["cacheRetention"]): CacheControl | undefined {
	if (retention === "none") return undefined;
	return retention === "long" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

/**
 * Marks the end of the last user turn, so the next request reads the whole prefix from the cache: that
 * turn is replaced by a marked copy (the elements may be kept ones, frozen). Returns its index.
 */
function markLastUserBlock(messages: AnthropicMessageParam[], cache: CacheControl): number {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as AnthropicMessageParam;
		if (message.role !== "user") continue;
		const last = message.content.at(-1);
		if (last) messages[i] = { role: "user", content: [...message.content.slice(0, -1), { ...last, cache_control: cache }] };
		return i;
	}
	return messages.length;
}

/**
 * How Anthropic turns are made from a transcript. Tool results join the user turn before them when it
 * holds only tool results, so a conversion starts afresh at an assistant message that makes a turn of
 * its own (a tool call or some text always does).
 */
export function anthropicProtocol(model: Model): HistoryProtocol<AnthropicMessageParam> {
	return {
		key: `anthropic:${model.api}`,
		startsSegment: makesAssistantTurn,
		convert: (messages, from, to) => convertMessages(model, messages, from, to),
	};
}

function convertMessages(model: Model, messages: readonly Message[], from: number, to: number): AnthropicMessageParam[] {
	const out: AnthropicMessageParam[] = [];
	for (let i = from; i < to; i++) {
		const message = messages[i] as Message;
		if (message.role === "user") {
			const content = userBlocks(message);
			if (content.length > 0) out.push({ role: "user", content });
		} else if (message.role === "assistant") {
			const content = assistantBlocks(model, message);
			if (content.length > 0) out.push({ role: "assistant", content });
		} else {
			const block = toolResultBlock(message);
			const previous = out[out.length - 1];
			// All results of one assistant turn must answer it in a single user turn.
			if (previous?.role === "user" && previous.content.every((b) => b.type === "tool_result")) {
				previous.content.push(block);
			} else out.push({ role: "user", content: [block] });
		}
	}
	return out;
}

function userBlocks(message: UserMessage): (AnthropicTextBlock | AnthropicImageBlock)[] {
	if (typeof message.content === "string") return message.content ? [{ type: "text", text: message.content }] : [];
	return mediaBlocks(message.content);
}

/** Text and images; empty text blocks are dropped because the API rejects them. */
function mediaBlocks(content: (TextContent | ImageContent)[]): (AnthropicTextBlock | AnthropicImageBlock)[] {
	const out: (AnthropicTextBlock | AnthropicImageBlock)[] = [];
	for (const block of content) {
		if (block.type === "text") {
			if (block.text) out.push({ type: "text", text: block.text });
		} else {
			out.push({ type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } });
		}
	}
	return out;
}

function assistantBlocks(model: Model, message: AssistantMessage): AnthropicAssistantBlock[] {
	// Signatures are only valid for the API that issued them; thinking from elsewhere is replayed as text.
	const ownThinking = message.api === model.api;
	const out: AnthropicAssistantBlock[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text) out.push({ type: "text", text: block.text });
		} else if (block.type === "thinking") {
			if (block.redacted) {
				if (ownThinking && block.thinkingSignature) out.push({ type: "redacted_thinking", data: block.thinkingSignature });
			} else if (ownThinking && block.thinkingSignature) {
				out.push({ type: "thinking", thinking: block.thinking, signature: block.thinkingSignature });
			} else if (block.thinking) out.push({ type: "text", text: block.thinking });
		} else if (block.type === "webSearch") {
			// The search and its results (with their encrypted content) go back as they came; elsewhere as text.
			if (ownThinking && block.replay?.length) out.push(...(block.replay as AnthropicAssistantBlock[]));
			else out.push({ type: "text", text: webSearchText(block) });
		} else {
			out.push({ type: "tool_use", id: toolUseId(block.id), name: block.name, input: block.arguments });
		}
	}
	return out;
}

function toolResultBlock(message: ToolResultMessage): AnthropicToolResultBlock {
	return {
		type: "tool_result",
		tool_use_id: toolUseId(message.toolCallId),
		is_error: message.isError,
		content: mediaBlocks(message.content),
	};
}

/** Anthropic accepts ids matching ^[a-zA-Z0-9_-]{1,64}$; ids from other providers may contain `|` or `.`. */
function toolUseId(id: string): string {
	const clean = id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
	return clean || "tool_call";
}

// Stream events, as far as we read them.
type AnthropicUsage = {
	input_tokens?: number;
	output_tokens?: number;
	cache_read_input_tokens?: number | null;
	cache_creation_input_tokens?: number | null;
};
type AnthropicStreamEvent =
	| { type: "message_start"; message: { id?: string; model?: string; usage?: AnthropicUsage } }
	| {
			type: "content_block_start";
			index: number;
			content_block:
				| { type: "text"; text?: string }
				| { type: "thinking"; thinking?: string; signature?: string }
				| { type: "redacted_thinking"; data: string }
				| { type: "tool_use"; id: string; name: string }
				| { type: string };
	  }
	| {
			type: "content_block_delta";
			index: number;
			delta:
				| { type: "text_delta"; text: string }
				| { type: "thinking_delta"; thinking: string }
				| { type: "signature_delta"; signature: string }
				| { type: "input_json_delta"; partial_json: string }
				| { type: "citations_delta"; citation: { type?: string; url?: string; title?: string } }
				| { type: string };
	  }
	| { type: "content_block_stop"; index: number }
	| { type: "message_delta"; delta: { stop_reason?: string | null; stop_details?: RefusalDetails | null }; usage?: AnthropicUsage }
	| { type: "message_stop" }
	| { type: "ping" }
	| { type: "error"; error?: { type?: string; message?: string } };

/** A web_search_tool_result block: the results, or an error object in their place. */
interface AnthropicSearchResult {
	type: "web_search_tool_result";
	tool_use_id: string;
	content: { type?: string; url?: string; title?: string }[] | { type?: string; error_code?: string };
}

/** Why the classifiers stopped a reply (`stop_details` beside `stop_reason: "refusal"`). */
interface RefusalDetails {
	type?: string;
	category?: string | null;
	explanation?: string | null;
}

/**
 * What a finished stream said about why it stopped; `error` carries the text for the user, `paused` a
 * turn the API wants sent back as it is so the model can go on with it.
 */
type StopOutcome = { reason: Extract<StopReason, "stop" | "length" | "toolUse"> } | { paused: true } | { error: string };

function mapStopReason(reason: string, details: RefusalDetails | null | undefined): StopOutcome {
	switch (reason) {
		case "end_turn":
		case "stop_sequence":
			return { reason: "stop" };
		case "pause_turn":
			return { paused: true };
		case "max_tokens":
		case "model_context_window_exceeded":
			return { reason: "length" };
		case "tool_use":
			return { reason: "toolUse" };
		case "refusal":
			return { error: refusalText(details) };
		default:
			return { error: `${PROVIDER_NAME}: unexpected stop_reason: ${reason}` };
	}
}

/** The API's own explanation when it gives one: the user learns why, not just that. */
function refusalText(details: RefusalDetails | null | undefined): string {
	const category = details?.category ? ` (${details.category})` : "";
	const explanation = details?.explanation ? `: ${oneLine(details.explanation)}` : "";
	return `${PROVIDER_NAME} declined to answer${category}${explanation || " (stop_reason: refusal)"}`;
}

/** A server tool call (a web search) whose input is streaming or complete, waiting for its result. */
type ServerCall = { id: string; name: string; json: string };
type TokenCounts = { input: number; output: number; cacheRead: number; cacheWrite: number };
/** What a paused response hands to the reader of its continuation. */
type PausedState = { calls: ServerCall[]; usage: TokenCounts };

/**
 * Reads one Anthropic stream into `builder`; keeps only per-stream state, no history. A paused turn's
 * continuation is read by a new reader into the same builder: `carried` holds what the paused response
 * left open (searches still waiting for their result, the tokens already counted).
 */
class AnthropicStreamReader {
	private stop: StopOutcome | undefined;
	/** Which of our blocks each Anthropic `index` opened. */
	private readonly kinds = new Map<number, string>();
	/** Server tool calls (web searches) by Anthropic index while their input streams, then by id until their result. */
	private readonly serverCalls = new Map<number | string, ServerCall>();
	/** This response's own token counts; the builder gets them added to the paused responses' counts. */
	private readonly counts: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

	constructor(
		private readonly builder: AssistantBuilder,
		private readonly carried: PausedState = { calls: [], usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
	) {
		for (const call of carried.calls) this.serverCalls.set(call.id, call);
	}

	handle(event: AnthropicStreamEvent): void {
		const b = this.builder;
		switch (event.type) {
			case "message_start": {
				const { id, model, usage } = event.message;
				if (id) b.output.responseId = id;
				if (model && model !== b.model.id) b.output.responseModel = model;
				if (usage) this.usage(usage);
				b.start();
				return;
			}
			case "content_block_start":
				this.blockStart(event.index, event.content_block);
				return;
			case "content_block_delta":
				this.blockDelta(event.index, event.delta);
				return;
			case "content_block_stop": {
				const kind = this.kinds.get(event.index);
				if (kind === "tool_use") b.toolCallEnd(String(event.index));
				else if (kind === "server_tool_use") this.serverCallEnd(event.index);
				// A text block stays open: with citations Anthropic splits one answer into many text blocks
				// (a list item's "- " in one, its cited words in the next), which are one text to us; the
				// next block of another kind, or the end, closes it.
				else if (kind !== "text") b.closeAll();
				return;
			}
			case "message_delta":
				// The content is over: a text block left open for a following one closes here.
				b.closeAll();
				if (event.usage) this.usage(event.usage);
				if (event.delta?.stop_reason) this.stop = mapStopReason(event.delta.stop_reason, event.delta.stop_details);
				return;
			case "error": {
				const kind = event.error?.type ? ` (${event.error.type})` : "";
				throw new ProviderError(`${PROVIDER_NAME} error${kind}: ${oneLine(event.error?.message ?? "unknown error")}`);
			}
			default:
				// message_stop ends the loop by closing the body; ping and future event types carry nothing we use.
				return;
		}
	}

	/**
	 * Ends the message once the body is read, or, when the API paused the turn, returns what the next
	 * reader carries on with; the builder stays open for the continuation.
	 */
	finish(): PausedState | undefined {
		const stop = this.stop;
		if (!stop) throw new ProviderError(`${PROVIDER_NAME}: stream ended before the message was complete`);
		if ("error" in stop) throw new ProviderError(stop.error);
		if ("paused" in stop) {
			const { input, output, cacheRead, cacheWrite } = this.builder.output.usage;
			return { calls: this.waitingCalls(), usage: { input, output, cacheRead, cacheWrite } };
		}
		this.builder.finish(stop.reason);
		return undefined;
	}

	/** Searches whose input is complete but whose result has not come (filed by id, not by index). */
	private waitingCalls(): ServerCall[] {
		return [...this.serverCalls].flatMap(([key, call]) => (typeof key === "string" ? [call] : []));
	}

	private blockStart(index: number, block: Extract<AnthropicStreamEvent, { type: "content_block_start" }>["content_block"]): void {
		const b = this.builder;
		this.kinds.set(index, block.type);
		if (block.type === "text") b.text((block as { text?: string }).text ?? "");
		else if (block.type === "thinking") {
			const { thinking, signature } = block as { thinking?: string; signature?: string };
			b.thinking(thinking ?? "", signature);
		} else if (block.type === "redacted_thinking") b.redactedThinking((block as { data: string }).data);
		else if (block.type === "tool_use") {
			const { id, name } = block as { id: string; name: string };
			b.toolCallStart(String(index), id, name);
		} else if (block.type === "server_tool_use") {
			const { id, name } = block as unknown as { id: string; name: string };
			this.serverCalls.set(index, { id, name, json: "" });
		} else if (block.type === "web_search_tool_result") this.searchResult(block as unknown as AnthropicSearchResult);
		// Other block types are not part of our message model; their deltas are ignored.
	}

	/** The search's input is complete: it waits for its result block, which names it by id. */
	private serverCallEnd(index: number): void {
		const call = this.serverCalls.get(index);
		if (!call) return;
		this.serverCalls.delete(index);
		this.serverCalls.set(call.id, call);
	}

	/** A web_search_tool_result: with the server_tool_use it answers, one search in our message. */
	private searchResult(block: AnthropicSearchResult): void {
		const call = this.serverCalls.get(block.tool_use_id);
		this.serverCalls.delete(block.tool_use_id);
		// A broken input still gets its result replayed; the query is just unknown.
		const input = parseServerInput(call?.json ?? "");
		const search: WebSearchContent = {
			type: "webSearch",
			id: block.tool_use_id,
			query: typeof input.query === "string" ? cleanTitle(input.query) : "",
			sources: [],
			replay: [{ type: "server_tool_use", id: block.tool_use_id, name: call?.name ?? "web_search", input }, block],
		};
		if (Array.isArray(block.content)) {
			for (const result of block.content) addSource(search.sources, cleanSource(result?.title, result?.url));
		} else search.error = cleanTitle(block.content?.error_code ?? "unknown error");
		this.builder.webSearch(search);
	}

	private blockDelta(index: number, delta: Extract<AnthropicStreamEvent, { type: "content_block_delta" }>["delta"]): void {
		const b = this.builder;
		const kind = this.kinds.get(index);
		if (delta.type === "text_delta" && kind === "text") b.text((delta as { text: string }).text);
		else if (delta.type === "thinking_delta" && kind === "thinking") b.thinking((delta as { thinking: string }).thinking);
		else if (delta.type === "signature_delta" && kind === "thinking") {
			b.thinkingSignature((delta as { signature: string }).signature);
		} else if (delta.type === "input_json_delta" && kind === "tool_use") {
			b.toolCallDelta(String(index), (delta as { partial_json: string }).partial_json);
		} else if (delta.type === "input_json_delta" && kind === "server_tool_use") {
			const call = this.serverCalls.get(index);
			if (call) call.json += (delta as { partial_json: string }).partial_json;
		} else if (delta.type === "citations_delta" && kind === "text") {
			const { citation } = delta as { citation: { url?: string; title?: string } };
			const last = b.output.content.at(-1);
			if (last?.type === "text") {
				last.citations ??= [];
				addSource(last.citations, cleanSource(citation?.title, citation?.url));
			}
		}
	}

	private usage(usage: AnthropicUsage): void {
		// input_tokens already excludes cached reads and writes, which are billed at their own prices.
		const counts = this.counts;
		counts.input = usage.input_tokens ?? counts.input;
		counts.output = usage.output_tokens ?? counts.output;
		counts.cacheRead = usage.cache_read_input_tokens ?? counts.cacheRead;
		counts.cacheWrite = usage.cache_creation_input_tokens ?? counts.cacheWrite;
		// Each request of a resumed turn is billed on its own: the reply costs their sum.
		const before = this.carried.usage;
		this.builder.setUsage({
			input: before.input + counts.input,
			output: before.output + counts.output,
			cacheRead: before.cacheRead + counts.cacheRead,
			cacheWrite: before.cacheWrite + counts.cacheWrite,
		});
	}
}

/**
 * The context a paused turn is resumed with: the request as before, then the paused reply as the last
 * (assistant) message, sent back as it came and with no user message after it, so the model goes on
 * with its own turn. A search still waiting for its result goes back as its server_tool_use block.
 */
function pausedContext(context: Context, paused: AssistantMessage, waiting: ServerCall[]): Context {
	const searches: WebSearchContent[] = waiting.map((call) => ({
		type: "webSearch",
		id: call.id,
		query: "",
		sources: [],
		replay: [{ type: "server_tool_use", id: call.id, name: call.name, input: parseServerInput(call.json) }],
	}));
	// A copy: the builder's message goes on growing, and a message in a request is never changed later.
	const message: AssistantMessage = { ...paused, content: [...paused.content, ...searches] };
	return { ...context, messages: [...context.messages, message] };
}

function parseServerInput(json: string): Record<string, unknown> {
	try {
		const parsed = json ? JSON.parse(json) : {};
		return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
	} catch {
		return {};
	}
}

export const streamAnthropic: StreamFunction = (model, context, options) =>
	runProviderStream(model, options, async (builder) => {
		const apiKey = options?.apiKey ?? process.env[API_KEY_ENV];
		const headers = {
			"anthropic-version": API_VERSION,
			...(apiKey && { "x-api-key": apiKey }),
			...(context.tools?.length && { "anthropic-beta": FINE_GRAINED_TOOL_STREAMING }),
			...model.headers,
			...options?.headers,
		};
		let request = context;
		let carried: PausedState | undefined;
		// One reply, over one request and then one more per pause: the continuation's blocks extend it.
		for (let pauses = 0; ; pauses++) {
			const events = await streamProviderRequest(model, options, {
				providerName: PROVIDER_NAME,
				apiKeyEnv: API_KEY_ENV,
				url: joinUrl(model.baseUrl, "v1/messages"),
				headers,
				body: buildAnthropicRequest(model, request, options),
			});
			// `start` goes out before the request, so even an HTTP error arrives as start → error.
			builder.start();
			const reader = new AnthropicStreamReader(builder, carried);
			await readEventBatches(builder, events, (event) => reader.handle(parseSseJson<AnthropicStreamEvent>(PROVIDER_NAME, event.data)));
			carried = reader.finish();
			if (!carried) return;
			if (pauses === MAX_PAUSE_CONTINUATIONS) {
				throw new ProviderError(
					`${PROVIDER_NAME} paused the reply ${pauses + 1} times (stop_reason: pause_turn, server tools running long); stopped resuming it`,
				);
			}
			request = pausedContext(context, builder.output, carried.calls);
		}
	});
