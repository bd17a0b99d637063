import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILTIN_MODELS } from "../../src/ai/models.js";
import { UserModels } from "../../src/settings/user-models.js";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rudder-registry-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

function writeModelsJson(value: unknown): void {
	writeFileSync(join(dir, "models.json"), typeof value === "string" ? value : JSON.stringify(value));
}

/** A registry that sees only the given env and the temp config folder. */
const registry = (env: Record<string, string> = {}) => new UserModels({ configDir: dir, env });

describe("API keys in auth.json", () => {
	it("stores a key in auth.json with mode 0600, creating the folder, and prefers the env var", () => {
		const nested = join(dir, "deep", "config");
		const r = new UserModels({ configDir: nested, env: {} });
		r.setApiKey("anthropic", "  stored-key\n");
		const file = join(nested, "auth.json");
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ anthropic: { type: "api_key", key: "stored-key" } });
		expect(r.getApiKey("anthropic")).toBe("stored-key");
		// A fresh registry reads it back; the env var still wins.
		expect(new UserModels({ configDir: nested, env: {} }).getApiKey("anthropic")).toBe("stored-key");
		expect(new UserModels({ configDir: nested, env: { ANTHROPIC_API_KEY: "env-key" } }).getApiKey("anthropic")).toBe("env-key");
	});

	it("keeps other stored keys when adding one", () => {
		const r = registry();
		r.setApiKey("openai", "o");
		r.setApiKey("groq", "q");
		expect(JSON.parse(readFileSync(join(dir, "auth.json"), "utf8"))).toEqual({
			openai: { type: "api_key", key: "o" },
			groq: { type: "api_key", key: "q" },
		});
		expect(statSync(join(dir, "auth.json")).mode & 0o777).toBe(0o600);
	});

	it("refuses to overwrite an auth.json that does not parse, and reports it on load", () => {
		writeFileSync(join(dir, "auth.json"), "{ broken", { mode: 0o600 });
		const r = registry();
		expect(r.loadError?.message).toMatch(/auth\.json: invalid JSON/);
		expect(() => r.setApiKey("openai", "o")).toThrow(/auth\.json: invalid JSON/);
		expect(readFileSync(join(dir, "auth.json"), "utf8")).toBe("{ broken");
	});

	it("rejects an empty key with one line", () => {
		expect(() => registry().setApiKey("openai", "   ")).toThrow("Cannot store an API key for openai: the key is empty");
	});
});

describe("models.json", () => {
	const local = {
		providers: {
			myserver: {
				baseUrl: "http://10.0.0.5:8000/v1/",
				api: "openai-completions",
				headers: { "x-team": "a" },
				compat: { maxTokensField: "max_tokens" },
				models: [
					{ id: "qwen-coder", contextWindow: 65536, cost: { input: 0.5 } },
					{ id: "big", name: "Big one", maxTokens: 4096, reasoning: true, input: ["text", "image"] },
				],
			},
		},
	};

	it("adds custom providers' models with defaults filled in", () => {
		writeModelsJson(local);
		const r = registry();
		expect(r.loadError).toBeUndefined();
		const qwen = r.find("myserver/qwen-coder");
		expect(qwen).toMatchObject({
			id: "qwen-coder",
			name: "qwen-coder",
			provider: "myserver",
			api: "openai-completions",
			baseUrl: "http://10.0.0.5:8000/v1",
			contextWindow: 65536,
			reasoning: false,
			input: ["text"],
			cost: { input: 0.5, output: 0, cacheRead: 0, cacheWrite: 0 },
			headers: { "x-team": "a" },
			compat: { maxTokensField: "max_tokens" },
		});
		expect(r.find("big")).toMatchObject({ name: "Big one", maxTokens: 4096, reasoning: true, input: ["text", "image"] });
		expect(r.getAll().length).toBe(BUILTIN_MODELS.length + 2);
	});

	it("treats a custom provider without apiKey as keyless (available)", () => {
		writeModelsJson(local);
		expect(
			registry()
				.getAvailable()
				.map((m) => m.id),
		).toEqual(["qwen-coder", "big"]);
	});

	it("resolves apiKey as an env var name, or takes it literally", () => {
		const withKey = (apiKey: string) => ({
			providers: { corp: { baseUrl: "https://llm.corp/v1", api: "openai-completions", apiKey, models: [{ id: "m" }] } },
		});
		writeModelsJson(withKey("CORP_KEY"));
		expect(registry({ CORP_KEY: "from-env" }).getApiKey("corp")).toBe("from-env");
		expect(
			registry({ CORP_KEY: "from-env" })
				.getAvailable()
				.map((m) => m.id),
		).toEqual(["m"]);
		// Named but unset: no key, and the provider is not available.
		expect(registry().getApiKey("corp")).toBeUndefined();
		expect(registry().getAvailable()).toEqual([]);
		writeModelsJson(withKey("$CORP_KEY"));
		expect(registry({ CORP_KEY: "dollar" }).getApiKey("corp")).toBe("dollar");
		writeModelsJson(withKey("sk-literal-123"));
		expect(registry().getApiKey("corp")).toBe("sk-literal-123");
	});

	it("replaces a built-in model with the same provider/id", () => {
		writeModelsJson({
			providers: {
				openai: {
					baseUrl: "http://127.0.0.1:1/v1",
					api: "openai-completions",
					models: [{ id: "gpt-5", contextWindow: 1000, maxTokens: 100 }],
				},
			},
		});
		const r = registry();
		expect(r.getAll().filter((m) => m.provider === "openai" && m.id === "gpt-5")).toHaveLength(1);
		expect(r.find("openai/gpt-5")).toMatchObject({ api: "openai-completions", contextWindow: 1000 });
		// Reusing a built-in provider name does not make it keyless.
		expect(r.isAvailable({ provider: "openai" })).toBe(false);
	});

	const cases: [string, unknown, string][] = [
		["invalid JSON", '{"providers": {', "models.json: invalid JSON"],
		["a missing providers object", { models: [] }, "models.json: providers: missing"],
		[
			"a missing baseUrl",
			{ providers: { x: { api: "openai-completions", models: [] } } },
			"models.json: providers.x.baseUrl: must be a non-empty string",
		],
		["a bad api", { providers: { x: { baseUrl: "http://h", api: "openai", models: [] } } }, "models.json: providers.x.api: must be one of"],
		[
			"a typo in a field name",
			{ providers: { x: { baseURL: "http://h", api: "openai-completions", models: [] } } },
			"models.json: providers.x.baseURL: unknown field",
		],
		[
			"a non-integer context window",
			{ providers: { x: { baseUrl: "http://h", api: "openai-completions", models: [{ id: "a" }, { id: "b", contextWindow: "big" }] } } },
			"models.json: providers.x.models[1].contextWindow: must be a positive integer",
		],
		[
			"a model without id",
			{ providers: { x: { baseUrl: "http://h", api: "openai-completions", models: [{ name: "n" }] } } },
			"models.json: providers.x.models[0].id: must be a non-empty string",
		],
		[
			"a negative price",
			{ providers: { x: { baseUrl: "http://h", api: "openai-completions", models: [{ id: "a", cost: { output: -1 } }] } } },
			"models.json: providers.x.models[0].cost.output: must be a number ≥ 0",
		],
		[
			"a bad input kind",
			{ providers: { x: { baseUrl: "http://h", api: "openai-completions", models: [{ id: "a", input: ["audio"] }] } } },
			"models.json: providers.x.models[0].input: must be a non-empty array",
		],
		[
			"a bad compat value",
			{ providers: { x: { baseUrl: "http://h", api: "openai-completions", compat: { maxTokensField: "tokens" }, models: [] } } },
			"models.json: providers.x.compat.maxTokensField: must be",
		],
	];
	for (const [what, content, expected] of cases) {
		it(`reports ${what} in one line naming the file and field, keeping the built-ins`, () => {
			writeModelsJson(content);
			const r = registry({ OPENAI_API_KEY: "k" });
			expect(r.loadError).toBeInstanceOf(Error);
			const message = r.loadError?.message ?? "";
			expect(message).toContain(join(dir, expected));
			expect(message).not.toContain("\n");
			expect(r.getAll().length).toBe(BUILTIN_MODELS.length);
			expect(r.find("gpt-5")?.provider).toBe("openai");
			expect(() => r.load()).toThrow(expected);
		});
	}

	it("clears the error once the file is fixed and load() runs again", () => {
		writeModelsJson("nope");
		const r = registry();
		expect(r.loadError).toBeDefined();
		writeModelsJson(local);
		r.load();
		expect(r.loadError).toBeUndefined();
		expect(r.find("qwen-coder")?.provider).toBe("myserver");
	});
});
describe("config folder", () => {
	it("works when the folder does not exist yet", () => {
		const r = new UserModels({ configDir: join(dir, "missing"), env: {} });
		expect(r.loadError).toBeUndefined();
		expect(r.getAll().length).toBe(BUILTIN_MODELS.length);
	});

	it("finds no key for a provider named like an Object property", () => {
		writeFileSync(join(dir, "auth.json"), JSON.stringify({ groq: "plain" }), { mode: 0o600 });
		const r = registry();
		for (const name of ["constructor", "toString", "__proto__"]) {
			expect(r.getApiKey(name)).toBeUndefined();
			expect(r.isAvailable({ provider: name })).toBe(false);
		}
	});

	it("reads keys written by hand as plain strings too", () => {
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, "auth.json"), JSON.stringify({ groq: "plain" }), { mode: 0o600 });
		expect(registry().getApiKey("groq")).toBe("plain");
	});
});
