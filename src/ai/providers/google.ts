// Google Generative AI (Gemini API, `models/{id}:streamGenerateContent?alt=sse`). Builds `contents`
// from our context (thought signatures replayed so multi-turn thinking and tool use keep working) and
// maps the streamed candidate parts onto the assistant event protocol through `AssistantBuilder`.
import type { StreamFunction } from "../api-registry.js";
import { PROVIDER_KEY_ENV } from "../constants.js";
import type {
	AssistantMessage,
	Context,
	ImageContent,
	Message,
	Model,
	SimpleStreamOptions,
	TextContent,
	ToolResultMessage,
	WebSource,
} from "../types.js";
import { addSource, cleanSource, cleanTitle, hostedWebSearch, webSearchText } from "../web-search.js";
import { type AssistantBuilder, runProviderStream } from "./assistant-builder.js";
import { joinUrl, oneLine, ProviderError, parseSseJson } from "./http.js";
import { withKnownJson } from "./json-body.js";
import { readEventBatches, streamProviderRequest } from "./provider-request.js";
import { thinkingBudgetFor } from "./thinking-budget.js";
import { type HistoryProtocol, makesAssistantTurn, wireHistory } from "./wire-history.js";

const PROVIDER_NAME = "Google";
const API_KEY_ENV = PROVIDER_KEY_ENV.google[0];

export type GooglePart =
	| { text: string; thought?: boolean; thoughtSignature?: string }
	| { inlineData: { mimeType: string; data: string } }
	| { functionCall: { name: string; args: Record<string, unknown>; id?: string }; thoughtSignature?: string }
	| { functionResponse: { name: string; response: { output: string } | { error: string } } };

export interface GoogleContent {
	role: "user" | "model";
	parts: GooglePart[];
}

export interface GoogleRequestBody {
	contents: GoogleContent[];
	systemInstruction?: { parts: { text: string }[] };
	tools?: (
		| { functionDeclarations: { name: string; description: string; parametersJsonSchema: unknown }[] }
		| { googleSearch: Record<string, never> }
	)[];
	generationConfig: {
		maxOutputTokens: number;
		temperature?: number;
		thinkingConfig?: { includeThoughts: true; thinkingBudget: number };
	};
}

/** Builds the request body for `context`; pure, so the wire shape can be tested without a server. */
export function buildGoogleRequest(model: Model, context: Context, options?: SimpleStreamOptions): GoogleRequestBody {
	const body: GoogleRequestBody = {
		contents: googleContents(model, context.messages),
		generationConfig: { maxOutputTokens: options?.maxTokens ?? model.maxTokens },
	};
	if (context.systemPrompt) body.systemInstruction = { parts: [{ text: context.systemPrompt }] };
	if (context.tools?.length) {
		// Grounding with Google Search takes the place of a web_search function where the model has it.
		const grounded = hostedWebSearch(model) && context.tools.some((tool) => tool.hosted === "web_search");
		const functions = grounded ? context.tools.filter((tool) => tool.hosted !== "web_search") : context.tools;
		body.tools = [];
		if (functions.length > 0) {
			body.tools.push({
				functionDeclarations: functions.map((tool) => ({
					name: tool.name,
					description: tool.description,
					parametersJsonSchema: tool.parameters,
				})),
			});
		}
		if (grounded) body.tools.push({ googleSearch: {} });
	}
	if (options?.temperature !== undefined) body.generationConfig.temperature = options.temperature;
	if (options?.reasoning && model.reasoning) {
		body.generationConfig.thinkingConfig = {
			includeThoughts: true,
			thinkingBudget: thinkingBudgetFor(options.reasoning, model, options.thinkingBudgets),
		};
	}
	return body;
}

/**
 * Our transcript as Gemini contents; the earlier messages' are those of the request before
 * (wire-history.ts). Function responses join the user content before them when it holds one, so a
 * conversion starts afresh at an assistant message that makes a model turn of its own.
 */
function googleContents(model: Model, messages: readonly Message[]): GoogleContent[] {
	const history = wireHistory(messages, googleProtocol(model));
	return withKnownJson(history.elements, 0, history.kept, history.bytes(history.kept));
}

/** How Gemini contents are made from a transcript. */
export function googleProtocol(model: Model): HistoryProtocol<GoogleContent> {
	return {
		key: `google:${model.api}`,
		startsSegment: makesAssistantTurn,
		convert: (messages, from, to) => convertMessages(model, messages, from, to),
	};
}

function convertMessages(model: Model, messages: readonly Message[], from: number, to: number): GoogleContent[] {
	const out: GoogleContent[] = [];
	for (let i = from; i < to; i++) {
		const message = messages[i] as Message;
		if (message.role === "user") {
			const parts = typeof message.content === "string" ? textParts(message.content) : mediaParts(message.content);
			if (parts.length > 0) out.push({ role: "user", parts });
		} else if (message.role === "assistant") {
			const parts = modelParts(model, message);
			if (parts.length > 0) out.push({ role: "model", parts });
		} else {
			const parts = toolResultParts(message);
			const previous = out[out.length - 1];
			// Gemini wants every response to one turn's function calls in a single user content.
			if (previous?.role === "user" && previous.parts.some((p) => "functionResponse" in p)) previous.parts.push(...parts);
			else out.push({ role: "user", parts });
		}
	}
	return out;
}

function textParts(text: string): GooglePart[] {
	return text ? [{ text }] : [];
}

function mediaParts(content: (TextContent | ImageContent)[]): GooglePart[] {
	const out: GooglePart[] = [];
	for (const block of content) {
		if (block.type === "text") out.push(...textParts(block.text));
		else out.push({ inlineData: { mimeType: block.mimeType, data: block.data } });
	}
	return out;
}

function modelParts(model: Model, message: AssistantMessage): GooglePart[] {
	// Thought signatures are only valid for the API that issued them; elsewhere they would be rejected.
	const own = message.api === model.api;
	const out: GooglePart[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (!block.text) continue;
			out.push(own && block.textSignature ? { text: block.text, thoughtSignature: block.textSignature } : { text: block.text });
		} else if (block.type === "thinking") {
			if (block.redacted) continue;
			if (own && block.thinking) {
				out.push({ text: block.thinking, thought: true, ...(block.thinkingSignature && { thoughtSignature: block.thinkingSignature }) });
			} else if (block.thinking) out.push({ text: block.thinking });
		} else if (block.type === "webSearch") {
			// Gemini needs nothing of its own grounding back; another API's search is context as text.
			if (!own) out.push({ text: webSearchText(block) });
		} else {
			out.push({
				functionCall: { name: block.name, args: block.arguments },
				...(own && block.thoughtSignature && { thoughtSignature: block.thoughtSignature }),
			});
		}
	}
	return out;
}

function toolResultParts(message: ToolResultMessage): GooglePart[] {
	const text = message.content
		.filter((c): c is TextContent => c.type === "text")
		.map((c) => c.text)
		.join("\n");
	const response = message.isError ? { error: text } : { output: text };
	const parts: GooglePart[] = [{ functionResponse: { name: message.toolName, response } }];
	// functionResponse carries text only; images a tool returned follow as inline data in the same turn.
	for (const block of message.content) {
		if (block.type === "image") parts.push({ inlineData: { mimeType: block.mimeType, data: block.data } });
	}
	return parts;
}

// Stream chunks, as far as we read them.
type GoogleStreamPart = {
	text?: string;
	thought?: boolean;
	thoughtSignature?: string;
	functionCall?: { name: string; args?: Record<string, unknown>; id?: string };
};
/** What Google Search grounding says it searched and used. */
type GroundingMetadata = {
	webSearchQueries?: string[];
	groundingChunks?: { web?: { uri?: string; title?: string } }[];
	groundingSupports?: { groundingChunkIndices?: number[] }[];
};
type GoogleStreamChunk = {
	candidates?: {
		content?: { parts?: GoogleStreamPart[] };
		finishReason?: string;
		finishMessage?: string;
		groundingMetadata?: GroundingMetadata;
	}[];
	usageMetadata?: {
		promptTokenCount?: number;
		candidatesTokenCount?: number;
		thoughtsTokenCount?: number;
		cachedContentTokenCount?: number;
	};
	promptFeedback?: { blockReason?: string };
	modelVersion?: string;
	responseId?: string;
	error?: { code?: number; message?: string; status?: string };
};

let generatedIds = 0;

/** Reads one Gemini stream into `builder`; keeps only per-stream state, no history. */
class GoogleStreamReader {
	private finishReason: string | undefined;
	private finishMessage: string | undefined;
	/** The latest grounding metadata: each chunk that carries it repeats the whole of it so far. */
	private grounding: GroundingMetadata | undefined;

	constructor(private readonly builder: AssistantBuilder) {}

	handle(chunk: GoogleStreamChunk): void {
		const b = this.builder;
		if (chunk.error) {
			const status = chunk.error.status ? ` (${chunk.error.status})` : "";
			throw new ProviderError(`${PROVIDER_NAME} error${status}: ${oneLine(chunk.error.message ?? "unknown error")}`);
		}
		if (chunk.promptFeedback?.blockReason) {
			throw new ProviderError(`${PROVIDER_NAME}: the prompt was blocked (${chunk.promptFeedback.blockReason})`);
		}
		if (chunk.responseId) b.output.responseId = chunk.responseId;
		if (chunk.modelVersion && chunk.modelVersion !== b.model.id) b.output.responseModel = chunk.modelVersion;
		b.start();
		const candidate = chunk.candidates?.[0];
		for (const part of candidate?.content?.parts ?? []) this.part(part);
		if (candidate?.groundingMetadata) this.grounding = candidate.groundingMetadata;
		if (candidate?.finishReason) {
			this.finishReason = candidate.finishReason;
			this.finishMessage = candidate.finishMessage;
		}
		if (chunk.usageMetadata) this.usage(chunk.usageMetadata);
	}

	/** Ends the message once the body is read. */
	finish(): void {
		const reason = this.finishReason;
		if (!reason) throw new ProviderError(`${PROVIDER_NAME}: stream ended before the response was complete`);
		if (this.grounding) this.addGrounding(this.grounding);
		if (reason === "STOP") this.builder.finish("stop");
		else if (reason === "MAX_TOKENS") this.builder.finish("length");
		else {
			const detail = this.finishMessage ? `: ${oneLine(this.finishMessage)}` : "";
			throw new ProviderError(`${PROVIDER_NAME}: generation stopped (${reason})${detail}`);
		}
	}

	/**
	 * The search Gemini ran, as one search block after the text: its queries and every page it used;
	 * the pages the supports point to are the text's citations.
	 */
	private addGrounding(grounding: GroundingMetadata): void {
		const chunks = (grounding.groundingChunks ?? []).map((c) => cleanSource(c.web?.title, c.web?.uri));
		const cited: WebSource[] = [];
		for (const support of grounding.groundingSupports ?? []) {
			for (const i of support.groundingChunkIndices ?? []) addSource(cited, chunks[i]);
		}
		const texts = this.builder.output.content.filter((c) => c.type === "text");
		const last = texts[texts.length - 1];
		if (last && cited.length > 0) last.citations = cited;
		const sources: WebSource[] = [];
		for (const chunk of chunks) addSource(sources, chunk);
		const query = (grounding.webSearchQueries ?? []).map(cleanTitle).join("; ");
		if (query || sources.length > 0) this.builder.webSearch({ type: "webSearch", id: "", query, sources });
	}

	private part(part: GoogleStreamPart): void {
		const b = this.builder;
		if (part.functionCall) {
			const { name, args = {}, id } = part.functionCall;
			// The Gemini API usually omits ids; the agent needs one to pair the call with its result.
			const callId = id || `${name}_${Date.now().toString(36)}_${++generatedIds}`;
			b.toolCallStart(callId, callId, name, part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : undefined);
			b.toolCallDelta(callId, JSON.stringify(args));
			b.toolCallEnd(callId, args);
			return;
		}
		if (part.text === undefined) {
			if (part.thoughtSignature) this.attachSignature(part.thoughtSignature);
			return;
		}
		// An empty part opens nothing: Gemini closes a tool-call turn with `{"text": ""}`, and an empty
		// text block would follow the calls into the transcript and the next request.
		if (part.thought && part.text) b.thinking(part.text);
		else if (part.text) b.text(part.text);
		if (part.thoughtSignature) this.attachSignature(part.thoughtSignature);
	}

	/**
	 * Gemini sends a whole signature for the block it ends (not pieces to concatenate), so it replaces
	 * any earlier one on the current text or thinking block.
	 */
	private attachSignature(signature: string): void {
		const last = this.builder.output.content[this.builder.output.content.length - 1];
		if (last?.type === "thinking") last.thinkingSignature = signature;
		else if (last?.type === "text") last.textSignature = signature;
	}

	private usage(usage: NonNullable<GoogleStreamChunk["usageMetadata"]>): void {
		// promptTokenCount includes the cached tokens, which are billed at the cache-read price instead.
		const cached = usage.cachedContentTokenCount ?? 0;
		this.builder.setUsage({
			input: Math.max(0, (usage.promptTokenCount ?? 0) - cached),
			output: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
			cacheRead: cached,
		});
	}
}

export const streamGoogle: StreamFunction = (model, context, options) =>
	runProviderStream(model, options, async (builder) => {
		const apiKey = options?.apiKey ?? process.env[API_KEY_ENV];
		const events = await streamProviderRequest(model, options, {
			providerName: PROVIDER_NAME,
			apiKeyEnv: API_KEY_ENV,
			url: joinUrl(model.baseUrl, `models/${encodeURIComponent(model.id)}:streamGenerateContent?alt=sse`),
			headers: { ...(apiKey && { "x-goog-api-key": apiKey }), ...model.headers, ...options?.headers },
			body: buildGoogleRequest(model, context, options),
		});
		// `start` goes out before the request, so even an HTTP error arrives as start → error.
		builder.start();
		const reader = new GoogleStreamReader(builder);
		await readEventBatches(builder, events, (event) => reader.handle(parseSseJson<GoogleStreamChunk>(PROVIDER_NAME, event.data)));
		reader.finish();
	});
