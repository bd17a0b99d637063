// The step every provider takes between building its request body and reading the reply: the caller
// may see or replace the body (`onPayload`), then it is POSTed with the caller's transport options.
import type { Model, SimpleStreamOptions } from "../types.js";
import type { AssistantBuilder } from "./assistant-builder.js";
import { type SseEvent, type SseRequest, streamSse } from "./http.js";

/** What differs per provider; everything else comes from the stream options. */
export type ProviderRequest = Pick<SseRequest, "providerName" | "apiKeyEnv" | "url" | "headers" | "body">;

/**
 * Passes `request.body` through `options.onPayload`, then returns the server-sent events of the POST,
 * in batches (one per read, `streamSse`), with the caller's abort signal, idle timeout, retry limits
 * and response hook. Nothing is sent until the events are read.
 */
export async function streamProviderRequest(
	model: Model,
	options: SimpleStreamOptions | undefined,
	request: ProviderRequest,
): Promise<AsyncGenerator<SseEvent[]>> {
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

/**
 * Hands each event of `batches` to `handle` until it returns true (the reply is over) or the events
 * end; returns whether `handle` stopped it. The deltas of one batch (one socket read) reach the
 * builder's listeners merged, as one event per block (AssistantBuilder.hold). After an event that
 * pushed something (a block's end or start, with the delta held before it), the rest of the batch
 * waits until the listeners have run: the partial message every event carries is the builder's live
 * object, and a listener must find it as it was at its event, not with the blocks that come later.
 */
export async function readEventBatches(
	builder: Pick<AssistantBuilder, "hold" | "release" | "pushed">,
	batches: AsyncIterable<SseEvent[]>,
	handle: (event: SseEvent) => boolean | undefined | void,
): Promise<boolean> {
	for await (const batch of batches) {
		builder.hold();
		const last = batch.length - 1;
		for (let i = 0; i <= last; i++) {
			const pushed = builder.pushed;
			if (handle(batch[i] as SseEvent) === true) {
				builder.release();
				return true;
			}
			if (i < last && builder.pushed !== pushed) await listenersRan();
		}
		builder.release();
	}
	return false;
}

/** Resolves after the promise jobs queued so far, and those they queue, have run (the listeners' hops). */
const listenersRan = () => new Promise<void>((resolve) => setImmediate(resolve));
