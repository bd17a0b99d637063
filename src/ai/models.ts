// The built-in model list: the one source of truth for ids, wire APIs, limits and prices. Prices are
// dollars per million tokens as published by each vendor (list prices, the lowest context tier).
import type { Model, ModelCost, OpenAICompletionsCompat } from "./types.js";

/** Where each built-in provider is served, before env overrides (see `ModelRegistry`). */
export const PROVIDER_BASE_URLS = {
	anthropic: "https://api.anthropic.com",
	openai: "https://api.openai.com/v1",
	google: "https://generativelanguage.googleapis.com/v1beta",
	openrouter: "https://openrouter.ai/api/v1",
	groq: "https://api.groq.com/openai/v1",
	deepseek: "https://api.deepseek.com",
} as const;

/** OpenAI-compatible servers other than OpenAI want `max_tokens`. */
const maxTokensCompat: OpenAICompletionsCompat = { maxTokensField: "max_tokens" };

const cost = (input: number, output: number, cacheRead = 0, cacheWrite = 0): ModelCost => ({
	input,
	output,
	cacheRead,
	cacheWrite,
});

const TEXT_IMAGE: Model["input"] = ["text", "image"];
const TEXT: Model["input"] = ["text"];

type Entry = Omit<Model, "baseUrl" | "provider" | "api"> & Partial<Pick<Model, "api">>;

/** A built-in model typed with its provider and id, so `getModel` can check ids at compile time. */
type BuiltinModelOf<P extends string, Id extends string> = Model & { provider: P; id: Id };

function provider<const P extends keyof typeof PROVIDER_BASE_URLS, const E extends readonly Entry[]>(
	name: P,
	api: Model["api"],
	entries: E,
	compat?: OpenAICompletionsCompat,
): BuiltinModelOf<P, E[number]["id"]>[] {
	return entries.map((e) => ({
		...e,
		api: e.api ?? api,
		provider: name,
		baseUrl: PROVIDER_BASE_URLS[name],
		...(compat ? { compat: { ...compat } } : {}),
	}));
}

/** Every model Rudder knows without configuration, in the order pickers show them. */
export const BUILTIN_MODELS = Object.freeze([
	...provider("anthropic", "anthropic-messages", [
		{
			id: "claude-sonnet-4-5",
			name: "Claude Sonnet 4.5",
			reasoning: true,
			input: TEXT_IMAGE,
			cost: cost(3, 15, 0.3, 3.75),
			contextWindow: 200_000,
			maxTokens: 64_000,
		},
		{
			id: "claude-opus-4-1",
			name: "Claude Opus 4.1",
			reasoning: true,
			input: TEXT_IMAGE,
			cost: cost(15, 75, 1.5, 18.75),
			contextWindow: 200_000,
			maxTokens: 32_000,
		},
		{
			id: "claude-haiku-4-5",
			name: "Claude Haiku 4.5",
			reasoning: true,
			input: TEXT_IMAGE,
			cost: cost(1, 5, 0.1, 1.25),
			contextWindow: 200_000,
			maxTokens: 64_000,
		},
	]),
	// Reasoning models (gpt-5*, o*) speak the Responses API, which keeps reasoning items between turns.
	...provider("openai", "openai-responses", [
		{
			id: "gpt-5",
			name: "GPT-5",
			reasoning: true,
			input: TEXT_IMAGE,
			cost: cost(1.25, 10, 0.125),
			contextWindow: 400_000,
			maxTokens: 128_000,
		},
		{
			id: "gpt-5-mini",
			name: "GPT-5 mini",
			reasoning: true,
			input: TEXT_IMAGE,
			cost: cost(0.25, 2, 0.025),
			contextWindow: 400_000,
			maxTokens: 128_000,
		},
		{
			id: "gpt-4.1",
			name: "GPT-4.1",
			api: "openai-completions",
			reasoning: false,
			input: TEXT_IMAGE,
			cost: cost(2, 8, 0.5),
			contextWindow: 1_047_576,
			maxTokens: 32_768,
		},
		{
			id: "gpt-4o-mini",
			name: "GPT-4o mini",
			api: "openai-completions",
			reasoning: false,
			input: TEXT_IMAGE,
			cost: cost(0.15, 0.6, 0.075),
			contextWindow: 128_000,
			maxTokens: 16_384,
		},
		{
			id: "o4-mini",
			name: "o4-mini",
			reasoning: true,
			input: TEXT_IMAGE,
			cost: cost(1.1, 4.4, 0.275),
			contextWindow: 200_000,
			maxTokens: 100_000,
		},
	]),
	...provider("google", "google-generative-ai", [
		{
			id: "gemini-2.5-pro",
			name: "Gemini 2.5 Pro",
			reasoning: true,
			input: TEXT_IMAGE,
			cost: cost(1.25, 10, 0.125),
			contextWindow: 1_048_576,
			maxTokens: 65_536,
		},
		{
			id: "gemini-2.5-flash",
			name: "Gemini 2.5 Flash",
			reasoning: true,
			input: TEXT_IMAGE,
			cost: cost(0.3, 2.5, 0.03),
			contextWindow: 1_048_576,
			maxTokens: 65_536,
		},
	]),
	...provider(
		"openrouter",
		"openai-completions",
		[
			{
				id: "anthropic/claude-sonnet-4.5",
				name: "Claude Sonnet 4.5 (OpenRouter)",
				reasoning: true,
				input: TEXT_IMAGE,
				cost: cost(3, 15, 0.3, 3.75),
				contextWindow: 200_000,
				maxTokens: 64_000,
			},
			{
				id: "openai/gpt-5",
				name: "GPT-5 (OpenRouter)",
				reasoning: true,
				input: TEXT_IMAGE,
				cost: cost(1.25, 10, 0.125),
				contextWindow: 400_000,
				maxTokens: 128_000,
			},
			{
				id: "google/gemini-2.5-flash",
				name: "Gemini 2.5 Flash (OpenRouter)",
				reasoning: true,
				input: TEXT_IMAGE,
				cost: cost(0.3, 2.5, 0.03),
				contextWindow: 1_048_576,
				maxTokens: 65_536,
			},
			{
				id: "qwen/qwen3-coder",
				name: "Qwen3 Coder (OpenRouter)",
				reasoning: false,
				input: TEXT,
				cost: cost(0.22, 0.95),
				contextWindow: 262_144,
				maxTokens: 65_536,
			},
		],
		maxTokensCompat,
	),
	...provider(
		"groq",
		"openai-completions",
		[
			{
				id: "llama-3.3-70b-versatile",
				name: "Llama 3.3 70B (Groq)",
				reasoning: false,
				input: TEXT,
				cost: cost(0.59, 0.79),
				contextWindow: 131_072,
				maxTokens: 32_768,
			},
			{
				id: "openai/gpt-oss-120b",
				name: "gpt-oss-120b (Groq)",
				reasoning: true,
				input: TEXT,
				cost: cost(0.15, 0.75),
				contextWindow: 131_072,
				maxTokens: 65_536,
			},
			{
				id: "moonshotai/kimi-k2-instruct-0905",
				name: "Kimi K2 (Groq)",
				reasoning: false,
				input: TEXT,
				cost: cost(1, 3),
				contextWindow: 262_144,
				maxTokens: 16_384,
			},
		],
		maxTokensCompat,
	),
	// DeepSeek's OpenAI-compatible chat completions. Its thinking mode streams `reasoning_content` and
	// needs it back on the assistant messages of a tool loop; it takes no reasoning_effort.
	...provider(
		"deepseek",
		"openai-completions",
		[
			{
				id: "deepseek-chat",
				name: "DeepSeek Chat",
				reasoning: false,
				input: TEXT,
				cost: cost(0.28, 0.42, 0.028),
				contextWindow: 128_000,
				maxTokens: 8_192,
			},
			{
				id: "deepseek-reasoner",
				name: "DeepSeek Reasoner",
				reasoning: true,
				input: TEXT,
				cost: cost(0.28, 0.42, 0.028),
				contextWindow: 128_000,
				maxTokens: 65_536,
			},
		],
		{
			maxTokensField: "max_tokens",
			supportsReasoningEffort: false,
			reasoningField: "reasoning_content",
			replayReasoning: "tool-loop",
		},
	),
]);

/** Providers whose built-in models exist here (local servers and custom providers come from the registry). */
export type BuiltinProvider = keyof typeof PROVIDER_BASE_URLS;
/** pi-ai's name for the providers `getModel` knows. */
export type KnownProvider = BuiltinProvider;
/** The ids of one provider's built-in models. */
export type BuiltinModelId<P extends KnownProvider> = Extract<(typeof BUILTIN_MODELS)[number], { provider: P }>["id"];

// pi-ai's lookups over the built-in list (the same objects every call, as in pi-ai). Custom and local
// models are not here: they live in `ModelRegistry`, which src/settings fills from the user's configuration.

/** The built-in providers, in list order. */
export function getProviders(): KnownProvider[] {
	return [...new Set(BUILTIN_MODELS.map((m) => m.provider))];
}

/** One provider's built-in models (empty for an unknown provider); without a provider, all of them. */
export function getModels(provider?: KnownProvider): Model[] {
	return provider === undefined ? [...BUILTIN_MODELS] : BUILTIN_MODELS.filter((m) => m.provider === provider);
}

/** The built-in model with this provider and id. Ids are checked at compile time; at run time an unknown pair gives undefined. */
export function getModel<P extends KnownProvider>(provider: P, modelId: BuiltinModelId<P>): Model {
	return BUILTIN_MODELS.find((m) => m.provider === provider && m.id === modelId) as Model;
}
