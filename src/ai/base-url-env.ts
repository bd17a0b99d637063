// The env vars that move a built-in provider to another endpoint (a proxy, a gateway, a compatible
// server), and which wire API the OpenAI models speak there. OpenAI's own host serves the Responses
// API the built-in openai models use; nearly every other server that takes OPENAI_BASE_URL (vLLM,
// llama.cpp, LiteLLM, LM Studio, Ollama) serves only chat completions, so another host gets chat
// completions unless OPENAI_API=responses says otherwise.
import type { Model } from "./types.js";

type Env = Record<string, string | undefined>;

const BASE_URL_ENV: Readonly<Record<string, string>> = {
	openai: "OPENAI_BASE_URL",
	anthropic: "ANTHROPIC_BASE_URL",
	google: "GEMINI_BASE_URL",
};

const OPENAI_HOST = "api.openai.com";
/** `OPENAI_API`: which OpenAI wire API the built-in openai models speak. */
export const OPENAI_API_VALUES: Readonly<Record<string, Model["api"]>> = { chat: "openai-completions", responses: "openai-responses" };

/** A built-in model as the environment moves it: its base URL, and for openai the wire API. */
export function withBaseUrlEnv(builtin: Model, env: Env): Model {
	const model = structuredClone(builtin);
	const name = BASE_URL_ENV[model.provider];
	const override = name ? env[name]?.trim().replace(/\/+$/, "") : undefined;
	if (override) model.baseUrl = override;
	if (model.provider === "openai") {
		const api = openAIApi(env, override);
		if (api === "openai-completions" && model.api !== api) {
			model.api = api;
			// A compatible server: the portable field names, and no `store` (OpenAI's own).
			model.compat = { ...model.compat, maxTokensField: "max_tokens", supportsStore: false };
		}
	}
	return model;
}

function openAIApi(env: Env, baseUrl: string | undefined): Model["api"] | undefined {
	const chosen = OPENAI_API_VALUES[env.OPENAI_API?.trim().toLowerCase() ?? ""];
	if (chosen) return chosen;
	if (!baseUrl) return undefined;
	return hostOf(baseUrl) === OPENAI_HOST ? undefined : "openai-completions";
}

function hostOf(url: string): string | undefined {
	try {
		return new URL(url).hostname;
	} catch {
		return undefined;
	}
}
