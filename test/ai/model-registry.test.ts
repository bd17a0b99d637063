import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ModelRegistry } from "../../src/ai/model-registry.js";
import { BUILTIN_MODELS } from "../../src/ai/models.js";

/** A registry that sees only the given env (no declared providers, no stored keys). */
const registry = (env: Record<string, string> = {}) => new ModelRegistry({ env });

describe("built-in models", () => {
	it("lists every built-in model with its api, limits and prices", () => {
		const all = registry().getAll();
		expect(all.length).toBe(BUILTIN_MODELS.length);
		const sonnet = all.find((m) => m.id === "claude-sonnet-4-5");
		expect(sonnet).toMatchObject({ provider: "anthropic", api: "anthropic-messages", baseUrl: "https://api.anthropic.com" });
		expect(sonnet?.cost.input).toBeGreaterThan(0);
		expect(all.find((m) => m.id === "gpt-5")?.api).toBe("openai-responses");
		expect(all.find((m) => m.id === "o4-mini")?.api).toBe("openai-responses");
		expect(all.find((m) => m.id === "gpt-4.1")?.api).toBe("openai-completions");
		expect(all.find((m) => m.id === "gemini-2.5-pro")?.baseUrl).toBe("https://generativelanguage.googleapis.com/v1beta");
		for (const m of all.filter((m) => m.provider === "groq" || m.provider === "openrouter")) {
			expect(m.compat?.maxTokensField).toBe("max_tokens");
		}
		for (const m of all) {
			expect(m.maxTokens).toBeLessThanOrEqual(m.contextWindow);
			expect(m.input).toContain("text");
		}
	});

	it("has unique provider/id pairs", () => {
		const keys = BUILTIN_MODELS.map((m) => `${m.provider}/${m.id}`);
		expect(new Set(keys).size).toBe(keys.length);
	});

	it("moves providers to the base URLs given in the environment", () => {
		const r = registry({
			OPENAI_BASE_URL: "http://127.0.0.1:9999/v1/",
			ANTHROPIC_BASE_URL: "http://proxy:1",
			GEMINI_BASE_URL: "http://g:2",
		});
		expect(r.find("openai/gpt-5")?.baseUrl).toBe("http://127.0.0.1:9999/v1");
		expect(r.find("anthropic/claude-opus-4-1")?.baseUrl).toBe("http://proxy:1");
		expect(r.find("gemini-2.5-flash")?.baseUrl).toBe("http://g:2");
		// The shared list itself is never changed.
		expect(BUILTIN_MODELS.find((m) => m.id === "gpt-5")?.baseUrl).toBe("https://api.openai.com/v1");
	});
});

describe("API keys", () => {
	it("reads each provider's env var; Gemini also from GOOGLE_API_KEY", () => {
		const r = registry({
			ANTHROPIC_API_KEY: "a-key",
			OPENAI_API_KEY: "o-key",
			GOOGLE_API_KEY: "g-key",
			OPENROUTER_API_KEY: "r-key",
			GROQ_API_KEY: "q-key",
		});
		expect(r.getApiKey("anthropic")).toBe("a-key");
		expect(r.getApiKey("openai")).toBe("o-key");
		expect(r.getApiKey("google")).toBe("g-key");
		expect(r.getApiKey("openrouter")).toBe("r-key");
		expect(r.getApiKey("groq")).toBe("q-key");
		expect(registry({ GEMINI_API_KEY: "first", GOOGLE_API_KEY: "second" }).getApiKey("google")).toBe("first");
	});

	it("has no key and no available remote model with an empty environment", () => {
		const r = registry();
		expect(r.hasKey("anthropic")).toBe(false);
		expect(r.getApiKey("anthropic")).toBeUndefined();
		expect(r.getAvailable()).toEqual([]);
	});

	it("makes only the models of providers with a key available", () => {
		const available = registry({ GROQ_API_KEY: "q" }).getAvailable();
		expect(available.length).toBeGreaterThan(0);
		expect(new Set(available.map((m) => m.provider))).toEqual(new Set(["groq"]));
	});
});

describe("find", () => {
	it("accepts provider/id, an exact id, and case-insensitive patterns", () => {
		const r = registry();
		expect(r.find("openrouter/anthropic/claude-sonnet-4.5")?.provider).toBe("openrouter");
		expect(r.find("GPT-5")?.id).toBe("gpt-5");
		expect(r.find("gpt-5")?.id).toBe("gpt-5");
		expect(r.find("opus")?.id).toBe("claude-opus-4-1");
		expect(r.find("Sonnet")).toMatchObject({ provider: "anthropic", id: "claude-sonnet-4-5" });
		expect(r.find("sonnet 4.5")).toMatchObject({ provider: "anthropic", id: "claude-sonnet-4-5" });
		expect(r.find("gpt 5 mini")?.id).toBe("gpt-5-mini");
		expect(r.find("claude-*-4-5")?.id).toMatch(/^claude-(sonnet|haiku)-4-5$/);
		expect(r.find("gemini*pro")?.id).toBe("gemini-2.5-pro");
		expect(r.find("no-such-model")).toBeUndefined();
		expect(r.find("   ")).toBeUndefined();
	});

	it("prefers a model the user can use", () => {
		expect(registry().find("sonnet")?.provider).toBe("anthropic");
		expect(registry({ OPENROUTER_API_KEY: "r" }).find("sonnet")?.provider).toBe("openrouter");
	});

	it("returns the same objects as getAvailable, so identity checks work", () => {
		const r = registry({ OPENAI_API_KEY: "k" });
		expect(r.getAvailable()).toContain(r.find("gpt-5"));
	});
});

// ---- local servers --------------------------------------------------------------------------------

interface FakeServer {
	port: number;
	baseUrl: string;
	paths: string[];
	close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 answering GET requests from a table of path → JSON body. */
async function startServer(routes: Record<string, unknown>, opts: { stall?: boolean } = {}): Promise<FakeServer> {
	const paths: string[] = [];
	const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
		paths.push(req.url ?? "");
		if (opts.stall) return; // never answers
		const body = routes[req.url ?? ""];
		if (body === undefined) {
			res.writeHead(404).end("not found");
			return;
		}
		res.writeHead(200, { "content-type": "application/json" }).end(typeof body === "string" ? body : JSON.stringify(body));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const port = (server.address() as AddressInfo).port;
	return {
		port,
		baseUrl: `http://127.0.0.1:${port}`,
		paths,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** A port with nothing listening: bind, note the port, close. */
async function freePort(): Promise<number> {
	const s = await startServer({});
	await s.close();
	return s.port;
}

describe("discoverLocal", () => {
	const servers: FakeServer[] = [];
	afterEach(async () => {
		await Promise.all(servers.splice(0).map((s) => s.close()));
	});

	// The default 300 ms probe is for a user's start-up; a server that answers must not lose to a loaded test machine.
	const ANSWERING = 10_000;

	it("finds an OpenAI-compatible server on its port and adds keyless, free models", async () => {
		const llama = await startServer({
			"/v1/models": {
				object: "list",
				data: [
					{ id: "qwen2.5-coder-7b", meta: { n_ctx_train: 32768 } },
					{ id: "tiny", max_model_len: 4096 },
				],
			},
		});
		servers.push(llama);
		const closed = await freePort();
		const r = registry();
		const found = await r.discoverLocal({
			ports: { llamacpp: llama.port, ollama: closed, lmstudio: closed, vllm: closed },
			timeoutMs: ANSWERING,
		});
		expect(found.map((m) => m.id)).toEqual(["qwen2.5-coder-7b", "tiny"]);
		expect(found[0]).toMatchObject({
			provider: "llamacpp",
			api: "openai-completions",
			baseUrl: `${llama.baseUrl}/v1`,
			contextWindow: 32768,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			compat: { maxTokensField: "max_tokens" },
		});
		expect(found[1].contextWindow).toBe(4096);
		expect(found[1].maxTokens).toBeLessThanOrEqual(4096);
		expect(llama.paths).toContain("/v1/models");
		// Now part of the catalogue, available without a key, and findable.
		expect(r.getAvailable().map((m) => m.id)).toEqual(["qwen2.5-coder-7b", "tiny"]);
		expect(r.find("llamacpp/tiny")).toBe(found[1]);
	});

	it("falls back to Ollama's /api/tags", async () => {
		const ollama = await startServer({ "/api/tags": { models: [{ name: "llama3.2:3b", model: "llama3.2:3b" }] } });
		servers.push(ollama);
		const closed = await freePort();
		const found = await registry().discoverLocal({
			ports: { ollama: ollama.port, llamacpp: closed, lmstudio: closed, vllm: closed },
			timeoutMs: ANSWERING,
		});
		expect(found).toHaveLength(1);
		expect(found[0]).toMatchObject({ id: "llama3.2:3b", provider: "ollama", baseUrl: `${ollama.baseUrl}/v1` });
	});

	it("uses OLLAMA_HOST for Ollama", async () => {
		const ollama = await startServer({ "/v1/models": { data: [{ id: "mistral" }] } });
		servers.push(ollama);
		const closed = await freePort();
		const r = registry({ OLLAMA_HOST: `0.0.0.0:${ollama.port}` });
		const found = await r.discoverLocal({ ports: { llamacpp: closed, lmstudio: closed, vllm: closed }, timeoutMs: ANSWERING });
		expect(found.map((m) => `${m.provider}/${m.id}`)).toEqual(["ollama/mistral"]);
		expect(found[0].baseUrl).toBe(`http://127.0.0.1:${ollama.port}/v1`);
	});

	it("gives up on a server that does not answer within the timeout, and ignores junk", async () => {
		const stalled = await startServer({}, { stall: true });
		const junk = await startServer({ "/v1/models": "<html>hello</html>" });
		servers.push(stalled, junk);
		const closed = await freePort();
		const r = registry();
		const found = await r.discoverLocal({
			timeoutMs: 200,
			ports: { vllm: stalled.port, lmstudio: junk.port, ollama: closed, llamacpp: closed },
		});
		expect(found).toEqual([]);
		expect(stalled.paths).toEqual(["/v1/models"]);
		expect(r.getAll().length).toBe(BUILTIN_MODELS.length);
	});

	it("forgets models of a server that went away on the next discovery", async () => {
		const vllm = await startServer({ "/v1/models": { data: [{ id: "m" }] } });
		const closed = await freePort();
		const r = registry();
		const ports = { vllm: vllm.port, ollama: closed, llamacpp: closed, lmstudio: closed };
		expect(await r.discoverLocal({ ports, timeoutMs: ANSWERING })).toHaveLength(1);
		await vllm.close();
		expect(await r.discoverLocal({ ports })).toEqual([]);
		expect(r.find("vllm/m")).toBeUndefined();
	});
});

describe("addLocalServer", () => {
	it("adds a user-given server, with or without /v1", async () => {
		const server = await startServer({ "/v1/models": { data: [{ id: "coder" }] } });
		try {
			const r = registry();
			const models = await r.addLocalServer(server.baseUrl, { provider: "box" });
			expect(models[0]).toMatchObject({ id: "coder", provider: "box", baseUrl: `${server.baseUrl}/v1`, api: "openai-completions" });
			expect(r.getAvailable()).toContain(models[0]);
			const again = await registry().addLocalServer(`${server.baseUrl}/v1/`);
			expect(again[0]).toMatchObject({ provider: "local", baseUrl: `${server.baseUrl}/v1` });
		} finally {
			await server.close();
		}
	});

	it("throws one line for a bad URL or a silent server", async () => {
		const r = registry();
		await expect(r.addLocalServer("not a url")).rejects.toThrow('Not a server URL: "not a url"');
		await expect(r.addLocalServer("ftp://127.0.0.1/")).rejects.toThrow("only http:// and https://");
		const port = await freePort();
		await expect(r.addLocalServer(`http://127.0.0.1:${port}/v1`, { timeoutMs: 500 })).rejects.toThrow(
			`No OpenAI-compatible server answered at http://127.0.0.1:${port}/v1/models`,
		);
	});
});
