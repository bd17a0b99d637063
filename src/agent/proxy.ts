// `streamProxy`, as pi-agent-core 0.73.1 exports it: a stream function for apps whose server holds the
// provider keys. It POSTs `{model, context, options}` to `<proxyUrl>/api/stream` with a bearer token;
// the server answers with server-sent events whose data are the assistant events without `partial`
// (to save bandwidth), and the partial message is rebuilt here.
import type { AssistantMessageEventStream } from "../ai/event-stream.js";
import { createAssistantMessageEventStream } from "../ai/event-stream.js";
import { StreamingJson } from "../ai/partial-json.js";
import { joinUrl, ProviderError, parseSseJson, streamSse } from "../ai/providers/http.js";
import type { AssistantMessage, AssistantMessageEvent, Context, Model, SimpleStreamOptions, StopReason } from "../ai/types.js";
import { createOutputMessage } from "../ai/usage.js";

/** What the proxy server sends: the assistant events of pi-ai with `partial` left out. */
export type ProxyAssistantMessageEvent =
	| { type: "start" }
	| { type: "text_start"; contentIndex: number }
	| { type: "text_delta"; contentIndex: number; delta: string }
	| { type: "text_end"; contentIndex: number; contentSignature?: string }
	| { type: "thinking_start"; contentIndex: number }
	| { type: "thinking_delta"; contentIndex: number; delta: string }
	| { type: "thinking_end"; contentIndex: number; contentSignature?: string }
	| { type: "toolcall_start"; contentIndex: number; id: string; toolName: string }
	| { type: "toolcall_delta"; contentIndex: number; delta: string }
	| { type: "toolcall_end"; contentIndex: number }
	| { type: "done"; reason: Extract<StopReason, "stop" | "length" | "toolUse">; usage: AssistantMessage["usage"] }
	| { type: "error"; reason: Extract<StopReason, "aborted" | "error">; errorMessage?: string; usage: AssistantMessage["usage"] };

/** The stream options that travel to the server (functions and the signal stay here). */
type ProxySerializableStreamOptions = Pick<
	SimpleStreamOptions,
	| "temperature"
	| "maxTokens"
	| "reasoning"
	| "cacheRetention"
	| "sessionId"
	| "headers"
	| "metadata"
	| "transport"
	| "thinkingBudgets"
	| "maxRetryDelayMs"
>;

export interface ProxyStreamOptions extends ProxySerializableStreamOptions {
	/** Aborts the proxy request. */
	signal?: AbortSignal;
	/** Sent as `Authorization: Bearer <authToken>`. */
	authToken: string;
	/** The server's base URL, e.g. "https://genai.example.com". */
	proxyUrl: string;
}

const SERIALIZED_OPTIONS: (keyof ProxySerializableStreamOptions)[] = [
	"temperature",
	"maxTokens",
	"reasoning",
	"cacheRetention",
	"sessionId",
	"headers",
	"metadata",
	"transport",
	"thinkingBudgets",
	"maxRetryDelayMs",
];

/** Streams one reply through the proxy. Never throws: failures end the stream with an `error` event. */
export function streamProxy(model: Model, context: Context, options: ProxyStreamOptions): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const partial = createOutputMessage(model);
	void (async () => {
		try {
			const body = { model, context, options: pickOptions(options) };
			const rebuild = createProxyEventReducer(partial);
			const batches = streamSse({
				providerName: "Proxy",
				url: joinUrl(options.proxyUrl, "api/stream"),
				headers: { authorization: `Bearer ${options.authToken}` },
				body,
				signal: options.signal,
				// The server owns retries against the provider; a second POST would start a second reply.
				maxRetries: 0,
			});
			for await (const batch of batches) {
				for (const sse of batch) {
					if (!sse.data.trim()) continue;
					const event = rebuild(parseSseJson<ProxyAssistantMessageEvent>("Proxy", sse.data));
					if (event) stream.push(event);
					if (event?.type === "done" || event?.type === "error") return;
				}
			}
			throw new ProviderError("Proxy: stream ended without done or error");
		} catch (error) {
			const aborted = options.signal?.aborted === true;
			partial.stopReason = aborted ? "aborted" : "error";
			partial.errorMessage = aborted ? "Request was aborted" : error instanceof Error ? error.message : String(error);
			stream.push({ type: "error", reason: partial.stopReason, error: partial });
		}
	})();
	return stream;
}

function pickOptions(options: ProxyStreamOptions): ProxySerializableStreamOptions {
	const out: Record<string, unknown> = {};
	for (const key of SERIALIZED_OPTIONS) if (options[key] !== undefined) out[key] = options[key];
	return out as ProxySerializableStreamOptions;
}

/**
 * Returns a function that applies one proxy event to `partial` and gives the full assistant event.
 * The server is not trusted: an index out of place or a delta for a block of another kind throws.
 */
export function createProxyEventReducer(partial: AssistantMessage): (event: ProxyAssistantMessageEvent) => AssistantMessageEvent {
	const toolJson = new Map<number, StreamingJson>();
	const at = <K extends "text" | "thinking" | "toolCall">(index: unknown, kind: K) => {
		const block = typeof index === "number" ? partial.content[index] : undefined;
		if (block?.type !== kind) throw new ProviderError(`Proxy: ${kind} event for content index ${String(index)} that is not ${kind}`);
		return block as Extract<AssistantMessage["content"][number], { type: K }>;
	};
	const open = (index: unknown, block: AssistantMessage["content"][number]) => {
		if (index !== partial.content.length)
			throw new ProviderError(`Proxy: block started at index ${String(index)}, expected ${partial.content.length}`);
		partial.content.push(block);
		return index as number;
	};
	type TextualEvent = Extract<ProxyAssistantMessageEvent, { type: `${"text" | "thinking"}_${string}` }>;
	// Text and thinking blocks differ only in the names of their fields.
	const textual = (e: TextualEvent): AssistantMessageEvent => {
		const kind = e.type.startsWith("text") ? "text" : "thinking";
		const field = kind === "text" ? "text" : "thinking";
		const index = e.contentIndex;
		if (e.type === "text_start" || e.type === "thinking_start") {
			open(index, kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" });
			return { type: e.type, contentIndex: index, partial };
		}
		const block = at(index, kind) as unknown as Record<string, unknown>;
		if (e.type === "text_delta" || e.type === "thinking_delta") {
			block[field] += String(e.delta);
			return { type: e.type, contentIndex: index, delta: String(e.delta), partial };
		}
		if (e.contentSignature) block[`${field}Signature`] = e.contentSignature;
		return { type: e.type, contentIndex: index, content: block[field] as string, partial };
	};
	return (e) => {
		switch (e.type) {
			case "start":
				return { type: "start", partial };
			case "text_start":
			case "text_delta":
			case "text_end":
			case "thinking_start":
			case "thinking_delta":
			case "thinking_end":
				return textual(e);
			case "toolcall_start": {
				const index = open(e.contentIndex, { type: "toolCall", id: String(e.id), name: String(e.toolName), arguments: {} });
				toolJson.set(index, new StreamingJson());
				return { type: "toolcall_start", contentIndex: index, partial };
			}
			case "toolcall_delta": {
				const block = at(e.contentIndex, "toolCall");
				block.arguments = (toolJson.get(e.contentIndex) as StreamingJson).append(String(e.delta));
				return { type: "toolcall_delta", contentIndex: e.contentIndex, delta: String(e.delta), partial };
			}
			case "toolcall_end": {
				const block = at(e.contentIndex, "toolCall");
				block.arguments = (toolJson.get(e.contentIndex) as StreamingJson).finish();
				return { type: "toolcall_end", contentIndex: e.contentIndex, toolCall: block, partial };
			}
			case "done":
				partial.stopReason = e.reason;
				if (e.usage) partial.usage = e.usage;
				return { type: "done", reason: e.reason, message: partial };
			case "error":
				partial.stopReason = e.reason === "aborted" ? "aborted" : "error";
				partial.errorMessage = e.errorMessage ?? "Proxy: the server reported an error";
				if (e.usage) partial.usage = e.usage;
				return { type: "error", reason: partial.stopReason, error: partial };
			default:
				throw new ProviderError(`Proxy: unknown event type ${JSON.stringify(String((e as { type?: unknown }).type)).slice(0, 60)}`);
		}
	};
}
