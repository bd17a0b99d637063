// Types of the model layer. Names and shapes follow pi-ai 0.73.1 so that code written for it ports by
// changing an import (see docs/agent-contract.md).

/** Wire protocols we speak. Open union: a custom provider may register another. */
export type KnownApi = "openai-completions" | "openai-responses" | "anthropic-messages" | "google-generative-ai" | "faux";
export type Api = KnownApi | (string & {});

/** Who serves the model (anthropic, openai, ollama, openrouter, ...). Open union. */
export type Provider = string;

export interface TextContent {
	type: "text";
	text: string;
	/** Opaque provider signature of the text block (OpenAI Responses message id). */
	textSignature?: string;
	/** OpenAI Responses: whether the message item was commentary or the final answer; sent back as it came. */
	phase?: "commentary" | "final_answer";
	/** The web pages the provider says this text cites (Anthropic citations, OpenAI url_citation, Gemini grounding), cleaned. */
	citations?: WebSource[];
}

/** A web page a search found or a text cites; title and URL are untrusted and cleaned (src/ai/web-search.ts). */
export interface WebSource {
	title: string;
	url: string;
}

/**
 * A web search the provider ran on its own servers (Anthropic's web_search tool, OpenAI Responses'
 * web_search, Gemini's Google Search grounding) during this reply.
 */
export interface WebSearchContent {
	type: "webSearch";
	/** The provider's id of the search (server_tool_use id, web_search_call id); Gemini has none. */
	id: string;
	/** What was searched for ("" when the provider does not say); several queries joined by "; ". */
	query: string;
	/** The results (Anthropic) or the pages read (OpenAI, Gemini), cleaned. */
	sources: WebSource[];
	/** The provider's error code when the search failed. */
	error?: string;
	/**
	 * What the API that ran the search needs back in the next request, exactly as it came: Anthropic's
	 * server_tool_use and web_search_tool_result blocks (with their encrypted content), OpenAI's
	 * web_search_call item. Sent back only to that API; nothing for Gemini.
	 */
	replay?: unknown[];
}

export interface ThinkingContent {
	type: "thinking";
	thinking: string;
	/** Opaque signature the provider needs to accept the block back (Anthropic, OpenAI Responses). */
	thinkingSignature?: string;
	/** When true the payload is opaque and lives in `thinkingSignature`. */
	redacted?: boolean;
}

export interface ImageContent {
	type: "image";
	/** Base64 data, no data: prefix. */
	data: string;
	mimeType: string;
}

export interface ToolCall {
	type: "toolCall";
	id: string;
	name: string;
	arguments: Record<string, any>;
	/**
	 * Set when the arguments were not complete, valid JSON when the call ended (the parser's message).
	 * `arguments` is then only the repaired partial value for display; the call is never executed.
	 */
	argumentsError?: string;
	/** Google's thought signature attached to a function call. */
	thoughtSignature?: string;
}

export interface UsageCost {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	total: number;
}

export interface Usage {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	totalTokens: number;
	cost: UsageCost;
}

export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

export interface UserMessage {
	role: "user";
	content: string | (TextContent | ImageContent)[];
	/** Unix time in milliseconds. */
	timestamp: number;
}

export interface AssistantMessageDiagnostic {
	kind: string;
	message: string;
}

export interface AssistantMessage {
	role: "assistant";
	content: (TextContent | ThinkingContent | ToolCall | WebSearchContent)[];
	api: Api;
	provider: Provider;
	/** The model id that was asked for. */
	model: string;
	/** The model id the server says answered, when it differs. */
	responseModel?: string;
	responseId?: string;
	diagnostics?: AssistantMessageDiagnostic[];
	usage: Usage;
	stopReason: StopReason;
	errorMessage?: string;
	timestamp: number;
}

export interface ToolResultMessage<TDetails = any> {
	role: "toolResult";
	toolCallId: string;
	toolName: string;
	content: (TextContent | ImageContent)[];
	details?: TDetails;
	isError: boolean;
	timestamp: number;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export interface ModelCost {
	/** Dollars per million input tokens. */
	input: number;
	/** Dollars per million output tokens. */
	output: number;
	cacheRead: number;
	cacheWrite: number;
}

/** Switches for OpenAI-compatible servers that differ from OpenAI itself. */
export interface OpenAICompletionsCompat {
	/** Send `max_tokens` instead of `max_completion_tokens` (most local servers). */
	maxTokensField?: "max_tokens" | "max_completion_tokens";
	/** The server accepts the `developer` role (OpenAI reasoning models); otherwise `system` is used. */
	supportsDeveloperRole?: boolean;
	/** The server accepts `reasoning_effort`. */
	supportsReasoningEffort?: boolean;
	/** The server accepts `stream_options: {include_usage: true}`. */
	supportsUsageInStreaming?: boolean;
	/** The server accepts `store: false`. */
	supportsStore?: boolean;
	/** Which delta field carries reasoning text; both are read when unset. */
	reasoningField?: "reasoning_content" | "reasoning";
	/**
	 * Send thinking from history back on assistant messages (in `reasoningField`, default `reasoning_content`);
	 * dropped otherwise. `"tool-loop"`: only on the assistant messages since the last user message, as
	 * DeepSeek asks (its tool loops need the reasoning back; earlier turns' reasoning is left out).
	 */
	replayReasoning?: boolean | "tool-loop";
}

export interface Model<TApi extends Api = Api> {
	id: string;
	name: string;
	api: TApi;
	provider: Provider;
	baseUrl: string;
	/** The model can think (reasoning / extended thinking). */
	reasoning: boolean;
	/** Maps our thinking levels to the provider's effort names or token budgets. */
	thinkingLevelMap?: Partial<Record<ThinkingLevel, string | number>>;
	input: ("text" | "image")[];
	cost: ModelCost;
	contextWindow: number;
	maxTokens: number;
	headers?: Record<string, string>;
	compat?: OpenAICompletionsCompat;
}

export interface Tool<TParameters = any> {
	name: string;
	description: string;
	/** A TypeBox schema or a plain JSON-schema object. */
	parameters: TParameters;
	/**
	 * `web_search`: a provider whose API runs web searches on its own servers (src/ai/web-search.ts,
	 * `hostedWebSearch`) declares its own search tool in place of this function.
	 */
	hosted?: "web_search";
}

export interface Context {
	systemPrompt?: string;
	messages: Message[];
	tools?: Tool[];
}

export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh";
export type ReasoningLevel = Exclude<ThinkingLevel, "off">;

export interface ResponseInfo {
	status: number;
	headers: Record<string, string>;
}

export interface StreamOptions {
	temperature?: number;
	maxTokens?: number;
	signal?: AbortSignal;
	apiKey?: string;
	transport?: "sse" | "websocket" | "websocket-cached" | "auto";
	cacheRetention?: "none" | "short" | "long";
	sessionId?: string;
	/**
	 * Sees the request body before it is sent; may return a replacement. Its message list is frozen, and so
	 * are the earlier messages in it (their bytes are kept from request to request): change a copy.
	 */
	onPayload?: (payload: unknown, model: Model) => unknown | Promise<unknown>;
	onResponse?: (response: ResponseInfo, model: Model) => void;
	headers?: Record<string, string>;
	/** Idle timeout on the response body, in ms: no byte for this long ends the stream ("stream stalled"). */
	timeoutMs?: number;
	/** Retries on 429/5xx/connection failure before the first byte. Default 3. */
	maxRetries?: number;
	/** Cap on one retry wait, honouring retry-after. Default 60000. */
	maxRetryDelayMs?: number;
	/** Ours: told before each wait for a retry, so a UI can say "retrying in 3 s (429 rate limited)". */
	onRetry?: (retry: RetryInfo, model: Model) => void;
	metadata?: Record<string, unknown>;
}

/** A failed attempt that will be retried after `delayMs`. */
export interface RetryInfo {
	/** The attempt that will be made next, from 2 (the first retry). */
	attempt: number;
	/** How many attempts there are at most (1 + the retries allowed). */
	maxAttempts: number;
	delayMs: number;
	/** The HTTP status that failed, when there was a response. */
	status?: number;
	/** One line: "429 rate limited", "503 server error", "connection failed: ECONNREFUSED". */
	reason: string;
}

export interface ThinkingBudgets {
	minimal?: number;
	low?: number;
	medium?: number;
	high?: number;
}

export interface SimpleStreamOptions extends StreamOptions {
	reasoning?: ReasoningLevel;
	thinkingBudgets?: ThinkingBudgets;
}

/** The assistant event protocol (docs/agent-contract.md §1). Every non-terminal event carries the partial message. */
export type AssistantMessageEvent =
	| { type: "start"; partial: AssistantMessage }
	| { type: "text_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
	/** A search the provider ran on its own servers, whole (results included), at `contentIndex`. */
	| { type: "websearch"; contentIndex: number; search: WebSearchContent; partial: AssistantMessage }
	| { type: "done"; reason: Extract<StopReason, "stop" | "length" | "toolUse">; message: AssistantMessage }
	| { type: "error"; reason: Extract<StopReason, "aborted" | "error">; error: AssistantMessage };
