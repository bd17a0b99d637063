// Which web_search the model is offered, decided per request (the model and the permission can change
// mid-run): the provider's own search where it has one and the user allowed web search; the same tool
// as a plain function where a search endpoint is configured, or where the provider's search waits for
// that first allow (the gate asks when the model calls it); nothing otherwise.
import type { StreamFn } from "../agent/types.js";
import { type Context, hostedWebSearch, type Model } from "../ai/index.js";

export interface WebSearchOffer {
	/** Whether web search runs without asking now (a session rule, the mode). */
	allowed: () => boolean;
	/** A search endpoint (SearXNG) is configured. */
	endpoint: boolean;
}

/** `context` with its hosted web_search tool as `model` may have it (the same object when unchanged). */
export function offerWebSearch(context: Context, model: Model, offer: WebSearchOffer): Context {
	const tools = context.tools;
	const index = tools?.findIndex((tool) => tool.hosted === "web_search") ?? -1;
	if (!tools || index < 0) return context;
	const hosted = hostedWebSearch(model);
	if (hosted && offer.allowed()) return context;
	const rest = tools.filter((_, i) => i !== index);
	if (!hosted && !offer.endpoint) return { ...context, tools: rest };
	const { hosted: _hosted, ...plain } = tools[index];
	return { ...context, tools: [...rest.slice(0, index), plain, ...rest.slice(index)] };
}

export function withWebSearchOffer(base: StreamFn, offer: WebSearchOffer): StreamFn {
	return (model, context, options) => base(model, offerWebSearch(context, model, offer), options);
}
