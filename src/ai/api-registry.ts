import type { AssistantMessageEventStream } from "./event-stream.js";
import type { Api, Context, Model, SimpleStreamOptions } from "./types.js";

export type StreamFunction = (model: Model, context: Context, options?: SimpleStreamOptions) => AssistantMessageEventStream;

export interface ApiProvider {
	api: Api;
	streamSimple: StreamFunction;
}

const providers = new Map<Api, ApiProvider>();

/** Registers (or replaces) the provider that speaks `provider.api`. */
export function registerApiProvider(provider: ApiProvider): void {
	providers.set(provider.api, provider);
}

export function unregisterApiProvider(api: Api): void {
	providers.delete(api);
}

export function getApiProvider(api: Api): ApiProvider | undefined {
	return providers.get(api);
}
