// Values more than one layer needs, kept once in the lowest layer that uses them: the settings, the
// command line, the rpc mode, the slash commands and the first-start panel all read these.
import type { ThinkingLevel } from "./types.js";

/** Every thinking level, from none to the most. */
export const THINKING_LEVELS: readonly ThinkingLevel[] = Object.freeze(["off", "minimal", "low", "medium", "high", "xhigh"]);

export function isThinkingLevel(value: unknown): value is ThinkingLevel {
	return typeof value === "string" && (THINKING_LEVELS as readonly string[]).includes(value);
}

/** The provider id of the offline demo model (registered by providers/demo.ts). */
export const DEMO_PROVIDER = "demo";

export function isDemoModel(model: { provider: string }): boolean {
	return model.provider === DEMO_PROVIDER;
}

/** Env vars holding each built-in provider's key, first set wins. */
export const PROVIDER_KEY_ENV: Readonly<Record<string, readonly string[]>> = Object.freeze({
	anthropic: ["ANTHROPIC_API_KEY"],
	openai: ["OPENAI_API_KEY"],
	google: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
	openrouter: ["OPENROUTER_API_KEY"],
	groq: ["GROQ_API_KEY"],
	deepseek: ["DEEPSEEK_API_KEY"],
});

/** Every env var a key is read from, in the table's order. */
export const KEY_ENV_VARS: readonly string[] = Object.freeze(Object.values(PROVIDER_KEY_ENV).flat());

/** The list for a sentence: "A, B or C". */
export function keyEnvVarsText(): string {
	return `${KEY_ENV_VARS.slice(0, -1).join(", ")} or ${KEY_ENV_VARS.at(-1)}`;
}
