import type { AssistantMessage, Model, Usage } from "./types.js";

export function emptyUsage(): Usage {
	return {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

/** Fills `usage.cost` from the model's per-million prices; returns the same object. */
export function calculateCost(model: Pick<Model, "cost">, usage: Usage): Usage {
	const perToken = (price: number, tokens: number) => (price * tokens) / 1_000_000;
	usage.cost.input = perToken(model.cost.input, usage.input);
	usage.cost.output = perToken(model.cost.output, usage.output);
	usage.cost.cacheRead = perToken(model.cost.cacheRead, usage.cacheRead);
	usage.cost.cacheWrite = perToken(model.cost.cacheWrite, usage.cacheWrite);
	usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
	return usage;
}

/** A fresh, empty assistant message for a provider to fill while streaming. */
export function createOutputMessage(model: Pick<Model, "api" | "provider" | "id">): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason: "stop",
		timestamp: Date.now(),
	};
}
