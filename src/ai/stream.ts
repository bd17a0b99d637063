import { getApiProvider, type StreamFunction } from "./api-registry.js";
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "./event-stream.js";
import type { Api, Context, Model, SimpleStreamOptions } from "./types.js";
import { createOutputMessage } from "./usage.js";

// Built-in providers load on first use, so start-up pays only for the one the user talks to.
const builtinLoaders: Record<string, () => Promise<StreamFunction>> = {
	"openai-completions": () => import("./providers/openai-completions.js").then((m) => m.streamOpenAICompletions),
	"openai-responses": () => import("./providers/openai-responses.js").then((m) => m.streamOpenAIResponses),
	"anthropic-messages": () => import("./providers/anthropic.js").then((m) => m.streamAnthropic),
	"google-generative-ai": () => import("./providers/google.js").then((m) => m.streamGoogle),
};
const loaded = new Map<Api, StreamFunction>();

/** True when `api` has a registered or built-in provider. */
export function isApiSupported(api: Api): boolean {
	return getApiProvider(api) !== undefined || api in builtinLoaders;
}

/**
 * Streams one assistant reply for `context` from `model`. Dispatches on `model.api`; throws
 * synchronously only when no provider speaks that api (docs/agent-contract.md §2). Every other failure arrives as an
 * `error` event.
 */
export function streamSimple(model: Model, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream {
	const registered = getApiProvider(model.api);
	if (registered) return registered.streamSimple(model, context, options);
	const ready = loaded.get(model.api);
	if (ready) return ready(model, context, options);
	const load = builtinLoaders[model.api];
	if (!load) throw new Error(`No API provider registered for api: ${model.api}`);
	const out = createAssistantMessageEventStream();
	load()
		.then(async (fn) => {
			loaded.set(model.api, fn);
			for await (const event of fn(model, context, options)) out.push(event);
		})
		.catch((error) => {
			const message = createOutputMessage(model);
			message.stopReason = "error";
			message.errorMessage = error instanceof Error ? error.message : String(error);
			out.push({ type: "error", reason: "error", error: message });
		});
	return out;
}

/**
 * Loads the built-in provider for `api` ahead of the first request, so the first reply does not pay
 * for it. A no-op for registered or already loaded providers.
 */
export async function preloadApi(api: Api): Promise<void> {
	const load = builtinLoaders[api];
	if (!load || loaded.has(api) || getApiProvider(api)) return;
	loaded.set(api, await load());
}

/** Alias kept for code written against pi-ai's `stream`. */
export const stream = streamSimple;

/** Streams and returns the final message. */
export async function completeSimple(model: Model, context: Context, options?: SimpleStreamOptions) {
	return streamSimple(model, context, options).result();
}
