// What the two OpenAI wire protocols (chat completions and responses) share: who the provider is, which
// key it needs, the request headers, and how our content parts become OpenAI's.
import { PROVIDER_KEY_ENV } from "../constants.js";
import type { ImageContent, Message, Model, SimpleStreamOptions, TextContent } from "../types.js";
import { joinUrl } from "./http.js";
import type { ProviderRequest } from "./provider-request.js";

/** The display name used in error text, and the env var that holds the key, per provider id. */
const KNOWN_PROVIDERS: Record<string, { name: string; apiKeyEnv: string }> = {
	openai: { name: "OpenAI", apiKeyEnv: PROVIDER_KEY_ENV.openai[0] },
	openrouter: { name: "OpenRouter", apiKeyEnv: PROVIDER_KEY_ENV.openrouter[0] },
	groq: { name: "Groq", apiKeyEnv: PROVIDER_KEY_ENV.groq[0] },
	deepseek: { name: "DeepSeek", apiKeyEnv: PROVIDER_KEY_ENV.deepseek[0] },
};

export function providerDisplayName(provider: string): string {
	return KNOWN_PROVIDERS[provider]?.name ?? provider;
}

/** The env var holding the key, or undefined for servers that need none (Ollama, llama.cpp, vLLM). */
function apiKeyEnvFor(provider: string): string | undefined {
	return KNOWN_PROVIDERS[provider]?.apiKeyEnv;
}

/** An explicit key wins; otherwise the provider's env var; otherwise none (local servers). */
function resolveApiKey(model: Model, options: SimpleStreamOptions | undefined): string | undefined {
	if (options?.apiKey) return options.apiKey;
	const env = apiKeyEnvFor(model.provider);
	const fromEnv = env ? process.env[env] : undefined;
	return fromEnv || undefined;
}

/** Bearer auth (omitted without a key), then the model's headers, then the caller's, later ones winning. */
function buildHeaders(model: Model, options: SimpleStreamOptions | undefined, apiKey: string | undefined): Record<string, string> {
	return {
		...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
		...model.headers,
		...options?.headers,
	};
}

/** The POST to `path` under the model's base URL, with the provider's name and key for error text and auth. */
export function openAIRequest(model: Model, options: SimpleStreamOptions | undefined, path: string, body: unknown): ProviderRequest {
	return {
		providerName: providerDisplayName(model.provider),
		apiKeyEnv: apiKeyEnvFor(model.provider),
		url: joinUrl(model.baseUrl, path),
		headers: buildHeaders(model, options, resolveApiKey(model, options)),
		body,
	};
}

export function imageDataUrl(image: ImageContent): string {
	return `data:${image.mimeType};base64,${image.data}`;
}

/** The text parts of a tool result joined; images are sent separately because tool messages take no images. */
export function toolResultText(content: (TextContent | ImageContent)[]): string {
	const text = content
		.filter((c): c is TextContent => c.type === "text")
		.map((c) => c.text)
		.join("\n");
	if (text) return text;
	return content.some((c) => c.type === "image") ? "(image attached below)" : "";
}

/**
 * Converts `messages[from, to)` for a protocol whose tool messages take no images. Nothing may come
 * between an assistant's tool calls and their results, so the images of a run of tool results wait
 * until the run ends and then go out as one user message, made by `imagesMessage` from an intro line
 * and the images. A run ends at the next message that is not a tool result, so a conversion may start
 * afresh at any such message (`startsOpenAISegment`, wire-history.ts).
 */
export function convertWithToolResultImages<T>(
	messages: readonly Message[],
	from: number,
	to: number,
	convert: (message: Message, index: number) => T[],
	imagesMessage: (intro: string, images: ImageContent[]) => T,
): T[] {
	const out: T[] = [];
	let pendingImages: ImageContent[] = [];
	const flushImages = () => {
		if (pendingImages.length === 0) return;
		out.push(imagesMessage("Images from the tool results above:", pendingImages));
		pendingImages = [];
	};
	for (let i = from; i < to; i++) {
		const message = messages[i] as Message;
		if (message.role !== "toolResult") flushImages();
		out.push(...convert(message, i));
		if (message.role === "toolResult") {
			for (const c of message.content) if (c.type === "image") pendingImages.push(c);
		}
	}
	flushImages();
	return out;
}

/** Where an OpenAI conversion starts afresh: any message but a tool result (convertWithToolResultImages). */
export const startsOpenAISegment = (message: Message): boolean => message.role !== "toolResult";

/**
 * OpenAI Responses tool calls carry two ids, the `call_id` the result must name and the item id
 * (`fc_…`); we keep both in `ToolCall.id` as `call_id|item_id`. Other providers' ids have no `|`.
 */
export function splitToolCallId(id: string): { callId: string; itemId?: string } {
	const bar = id.indexOf("|");
	if (bar < 0) return { callId: id };
	return { callId: id.slice(0, bar), itemId: id.slice(bar + 1) || undefined };
}

/** The effort name for a thinking level: the model's own mapping, else ours (OpenAI has no "xhigh" everywhere). */
export function reasoningEffort(model: Model, level: NonNullable<SimpleStreamOptions["reasoning"]>): string {
	const mapped = model.thinkingLevelMap?.[level];
	if (typeof mapped === "string") return mapped;
	return level === "xhigh" ? "high" : level;
}
