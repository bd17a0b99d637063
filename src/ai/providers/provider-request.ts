// The step every provider takes between building its request body and reading the reply: the caller
// may see or replace the body (`onPayload`), then it is POSTed with the caller's transport options.
import type { Model, SimpleStreamOptions } from "../types.js";
import { type SseEvent, type SseRequest, streamSse } from "./http.js";

/** What differs per provider; everything else comes from the stream options. */
export type ProviderRequest = Pick<SseRequest, "providerName" | "apiKeyEnv" | "url" | "headers" | "body">;

/**
 * Passes `request.body` through `options.onPayload`, then returns the server-sent events of the POST,
 * with the caller's abort signal, idle timeout, retry limits and response hook. Nothing is sent until
 * the events are read.
 */
export async function streamProviderRequest(
	model: Model,
	options: SimpleStreamOptions | undefined,
	request: ProviderRequest,
): Promise<AsyncGenerator<SseEvent>> {
	const body = (await options?.onPayload?.(request.body, model)) ?? request.body;
	return streamSse({
		...request,
		body,
		signal: options?.signal,
		idleTimeoutMs: options?.timeoutMs,
		maxRetries: options?.maxRetries,
		maxRetryDelayMs: options?.maxRetryDelayMs,
		model,
		onResponse: options?.onResponse,
		onRetry: options?.onRetry ? (retry) => options.onRetry?.(retry, model) : undefined,
	});
}
