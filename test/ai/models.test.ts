// pi-ai's model lookups (README "Querying Providers and Models") over Rudder's built-in list.
import { describe, expect, it } from "vitest";
import { BUILTIN_MODELS, getModel, getModels, getProviders } from "../../src/ai/models.js";

describe("getProviders / getModels / getModel", () => {
	it("lists every built-in provider once, in list order", () => {
		expect(getProviders()).toEqual(["anthropic", "openai", "google", "openrouter", "groq", "deepseek"]);
	});

	it("gives one provider's models, all models without a provider, and [] for an unknown one", () => {
		const anthropic = getModels("anthropic");
		expect(anthropic.length).toBeGreaterThan(0);
		expect(anthropic.every((m) => m.provider === "anthropic" && m.api === "anthropic-messages")).toBe(true);
		expect(getModels()).toHaveLength(BUILTIN_MODELS.length);
		expect(getModels("nobody" as "openai")).toEqual([]);
	});

	it("finds a model by provider and id with its wire api, limits and prices", () => {
		const model = getModel("openai", "gpt-4o-mini");
		expect(model).toMatchObject({ id: "gpt-4o-mini", provider: "openai", api: "openai-completions", contextWindow: 128_000 });
		expect(model.cost.input).toBeGreaterThan(0);
		expect(getModel("openai", "gpt-4o-mini")).toBe(model);
		// The id belongs to another provider: at run time, as in pi-ai, undefined.
		expect(getModel("anthropic", "gpt-4o-mini" as "claude-sonnet-4-5")).toBeUndefined();
	});

	it("checks ids at compile time", () => {
		// @ts-expect-error: not a built-in OpenAI model id
		expect(getModel("openai", "gpt-unknown")).toBeUndefined();
	});
});
