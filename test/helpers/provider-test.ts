// What every provider test starts from: a recorded vendor stream, a model pointed at the local test
// server (only what the test is about spelled out), and the one-line conversation most tests send.
import { readFileSync } from "node:fs";
import type { AssistantMessage, Context, Model } from "../../src/ai/types.js";
import { emptyUsage } from "../../src/ai/usage.js";

/** A recorded vendor stream: `test/fixtures/<folder>/<name>.sse`. */
export function sseFixture(folder: string, name: string): string {
	return readFileSync(new URL(`../fixtures/${folder}/${name}.sse`, import.meta.url), "utf8");
}

/** "hi" from the user, optionally under a system prompt. */
export function hello(systemPrompt?: string): Context {
	const messages: Context["messages"] = [{ role: "user", content: "hi", timestamp: 1 }];
	return systemPrompt === undefined ? { messages } : { systemPrompt, messages };
}

/** Prices per million tokens, in the order vendors list them. */
export function price(input: number, output: number, cacheRead = 0, cacheWrite = 0): Model["cost"] {
	return { input, output, cacheRead, cacheWrite };
}

type ModelFields = Pick<Model, "id" | "api" | "provider" | "baseUrl"> & Partial<Model>;

/** A model for a provider test; unnamed fields get neutral values (no reasoning, free, 128k window). */
export function providerModel(fields: ModelFields): Model {
	return {
		name: fields.id,
		reasoning: false,
		input: ["text", "image"],
		cost: price(0, 0),
		contextWindow: 128_000,
		maxTokens: 16_384,
		...fields,
	};
}

/** A finished assistant message of an OpenAI Responses model that stopped for tool calls (`model` is its id). */
export function responsesReply(model: string, content: AssistantMessage["content"]): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: "openai-responses",
		provider: "openai",
		model,
		usage: emptyUsage(),
		stopReason: "toolUse",
		timestamp: 2,
	};
}

/** Claude Sonnet 4.5 on Anthropic's API (its prices and limits) at `baseUrl`. */
export function sonnetModel(baseUrl: string, overrides: Partial<Model> = {}): Model {
	const sonnet = { id: "claude-sonnet-4-5", api: "anthropic-messages", provider: "anthropic", reasoning: false } as const;
	return providerModel({ ...sonnet, baseUrl, cost: price(3, 15), contextWindow: 200_000, maxTokens: 8_000, ...overrides });
}
