// Which models exist and which can be used: the built-in list (models.ts), the providers the user
// declared (given, already validated: src/settings reads models.json), local OpenAI-compatible servers
// found on 127.0.0.1, and API keys from the environment or a stored-key lookup (src/settings reads
// auth.json). This file reads no file of the user's configuration.
// Every key and secret header value it is given is handed to the process's redactor (src/safety/secrets.ts).
import { isCredentialName } from "../safety/child-env.js";
import { processSecrets } from "../safety/secrets.js";
import { withBaseUrlEnv } from "./base-url-env.js";
import { KEY_ENV_VARS, PROVIDER_KEY_ENV } from "./constants.js";
import { BUILTIN_MODELS } from "./models.js";
import type { Api, Model, ModelCost, OpenAICompletionsCompat, Provider } from "./types.js";

type Env = Record<string, string | undefined>;

/** What the user configured: the registry's data input, resolved by the config layer. */
export interface ModelSources {
	/** Providers declared by the user (models.json), validated. */
	providers: readonly CustomProviderConfig[];
	/** A stored key of a provider (auth.json), asked after its env var and its own `apiKey`. */
	keyFor: (provider: Provider) => string | undefined;
}

export interface ModelRegistryOptions extends Partial<ModelSources> {
	/** Where keys, base-URL overrides and `apiKey` env names are read. Default: `process.env`. */
	env?: Env;
}

/** Local servers probed by `discoverLocal`, by the provider name their models get. */
export type LocalProvider = "ollama" | "llamacpp" | "lmstudio" | "vllm";

export interface DiscoverLocalOptions {
	/** Timeout of each probe, ms; probes run in parallel. Default 300. */
	timeoutMs?: number;
	/** Port per server kind, replacing the well-known one (tests point these at their own server). */
	ports?: Partial<Record<LocalProvider, number>>;
}

export interface AddLocalServerOptions {
	/** Provider name for the server's models. Default "local". */
	provider?: string;
	/** Probe timeout, ms. Default 2000 (a user-given server may be on the LAN). */
	timeoutMs?: number;
}

/** A provider the user declared (models.json), after validation. */
export interface CustomProviderConfig {
	name: string;
	baseUrl: string;
	api: Api;
	/** An env var name (`MY_KEY`, `$MY_KEY`) or a literal key. Absent: the server needs no key. */
	apiKey?: string;
	headers?: Record<string, string>;
	compat?: OpenAICompletionsCompat;
	models: Model[];
}

const LOCAL_SERVERS: Record<LocalProvider, { port: number; label: string }> = {
	ollama: { port: 11434, label: "Ollama" },
	llamacpp: { port: 8080, label: "llama.cpp" },
	lmstudio: { port: 1234, label: "LM Studio" },
	vllm: { port: 8000, label: "vLLM" },
};

/** Header names whose values are not secrets (everything else of a provider's `headers` is redacted). */
const PLAIN_HEADERS: ReadonlySet<string> = new Set([
	"accept",
	"content-type",
	"user-agent",
	"referer",
	"http-referer",
	"x-title",
	"anthropic-version",
	"anthropic-beta",
]);

export const ZERO_COST: ModelCost = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
/** Used when a local server or models.json does not say; small enough for most local models. */
export const DEFAULT_CONTEXT_WINDOW = 32_768;
export const DEFAULT_MAX_TOKENS = 8_192;

/** The env vars of a built-in provider's key; own entries only, so a provider named "constructor" has none. */
const keyEnvOf = (provider: Provider): readonly string[] => (Object.hasOwn(PROVIDER_KEY_ENV, provider) ? PROVIDER_KEY_ENV[provider] : []);

/** Without a key store: only env vars and declared `apiKey`s give keys. */
const noStoredKeys: ModelSources["keyFor"] = () => undefined;

const byName = (providers: readonly CustomProviderConfig[]) => new Map(providers.map((p) => [p.name, p]));

/** The model catalogue over the built-ins, the user's declared providers and keys, and local servers. */
export class ModelRegistry {
	private readonly env: Env;
	private customProviders: Map<string, CustomProviderConfig>;
	private keyFor: ModelSources["keyFor"];
	/** Models found by `discoverLocal` / `addLocalServer`. */
	private discovered: Model[] = [];
	/** Providers that need no key: local servers found or added at runtime. */
	private readonly keylessLocal = new Set<string>(Object.keys(LOCAL_SERVERS));
	private all: Model[] = [];

	constructor(options: ModelRegistryOptions = {}) {
		this.env = options.env ?? process.env;
		this.customProviders = byName(options.providers ?? []);
		this.keyFor = options.keyFor ?? noStoredKeys;
		this.registerSecrets();
		this.rebuild();
	}

	/** Takes the user's configuration again (after a re-read); models found on local servers stay. */
	configure(sources: ModelSources): void {
		this.customProviders = byName(sources.providers);
		this.keyFor = sources.keyFor;
		this.registerSecrets();
		this.rebuild();
	}

	/** Every env key this registry can hand out, and declared keys and secret header values, go to the redactor. */
	private registerSecrets(): void {
		for (const [name, value] of Object.entries(this.env)) {
			// Paths (`SSH_KEY_PATH=/home/…`) are not secrets; masking them would garble output.
			if (value && (KEY_ENV_VARS.includes(name) || (isCredentialName(name) && !value.startsWith("/")))) processSecrets.add(value);
		}
		for (const provider of this.customProviders.values()) {
			if (provider.apiKey) processSecrets.add(resolveKeyValue(provider.apiKey, this.env));
			for (const [header, value] of Object.entries(provider.headers ?? {})) {
				if (PLAIN_HEADERS.has(header.toLowerCase())) continue;
				processSecrets.add(value);
				// "Bearer <token>": the token alone is a secret too.
				for (const part of value.split(/\s+/)) processSecrets.add(part);
			}
		}
	}

	/** Built-in, discovered and custom models; a custom model replaces a built-in with the same provider/id. */
	getAll(): Model[] {
		return [...this.all];
	}

	/** Models that can be used now: their provider has a key, or needs none (local servers). */
	getAvailable(): Model[] {
		return this.all.filter((m) => this.isAvailable(m));
	}

	isAvailable(model: Pick<Model, "provider">): boolean {
		return this.isKeyless(model.provider) || this.hasKey(model.provider);
	}

	/** The provider's key: its env var first, then a custom provider's `apiKey`, then the stored key. */
	getApiKey(provider: Provider): string | undefined {
		for (const name of keyEnvOf(provider)) {
			const value = this.env[name]?.trim();
			if (value) return value;
		}
		const configured = this.customProviders.get(provider)?.apiKey;
		if (configured) {
			const value = resolveKeyValue(configured, this.env);
			if (value) return value;
		}
		return this.keyFor(provider) || undefined;
	}

	hasKey(provider: Provider): boolean {
		return this.getApiKey(provider) !== undefined;
	}

	/**
	 * The best model for what a user typed: "provider/id", an exact id, or a case-insensitive pattern
	 * ("sonnet", "gpt 5 mini", "claude-*-4-5"). Among matches: usable first, then the shortest id.
	 */
	find(spec: string): Model | undefined {
		const query = spec.trim().toLowerCase();
		if (!query) return undefined;
		const all = this.all;
		const full = all.filter((m) => `${m.provider}/${m.id}`.toLowerCase() === query);
		if (full.length > 0) return this.best(full);
		const exact = all.filter((m) => m.id.toLowerCase() === query);
		if (exact.length > 0) return this.best(exact);
		const matches = query.includes("*") ? all.filter(globMatcher(query)) : all.filter(tokenMatcher(query));
		return this.best(matches);
	}

	/**
	 * Probes 127.0.0.1 for Ollama, llama.cpp, LM Studio and vLLM (`GET /v1/models`, Ollama also
	 * `/api/tags`), in parallel, and adds what answers. Never throws: a silent port means no server.
	 */
	async discoverLocal(options: DiscoverLocalOptions = {}): Promise<Model[]> {
		const timeoutMs = options.timeoutMs ?? 300;
		const kinds = Object.keys(LOCAL_SERVERS) as LocalProvider[];
		const found = await Promise.all(
			kinds.map(async (provider) => {
				const root = this.localRoot(provider, options.ports?.[provider]);
				const baseUrl = `${root}/v1`;
				const [openai, tags] = await Promise.all([
					fetchJson(`${baseUrl}/models`, timeoutMs),
					provider === "ollama" ? fetchJson(`${root}/api/tags`, timeoutMs) : undefined,
				]);
				const listed = parseOpenAIModelList(openai) ?? parseOllamaTags(tags) ?? [];
				return listed.map((info) => localModel(provider, LOCAL_SERVERS[provider].label, baseUrl, info));
			}),
		);
		const models = found.flat();
		this.discovered = this.discovered.filter((m) => !(m.provider in LOCAL_SERVERS)).concat(models);
		this.rebuild();
		return models;
	}

	/**
	 * Adds the models of an OpenAI-compatible server at `baseUrl` (with or without the `/v1`). Throws
	 * one line when the URL is bad or nothing there lists models.
	 */
	async addLocalServer(baseUrl: string, options: AddLocalServerOptions = {}): Promise<Model[]> {
		const provider = options.provider ?? "local";
		const timeoutMs = options.timeoutMs ?? 2000;
		let url: URL;
		try {
			url = new URL(baseUrl.trim());
		} catch {
			throw new Error(`Not a server URL: ${JSON.stringify(baseUrl)} (expected e.g. http://127.0.0.1:8080/v1)`);
		}
		if (url.protocol !== "http:" && url.protocol !== "https:") {
			throw new Error(`Not a server URL: ${baseUrl} (only http:// and https:// are supported)`);
		}
		const base = url.href.replace(/\/+$/, "");
		const candidates = /\/v1$/.test(base) ? [base] : [base, `${base}/v1`];
		for (const candidate of candidates) {
			const listed = parseOpenAIModelList(await fetchJson(`${candidate}/models`, timeoutMs));
			if (!listed) continue;
			if (listed.length === 0) throw new Error(`The server at ${candidate} answered but lists no models`);
			const models = listed.map((info) => localModel(provider, provider, candidate, info));
			this.keylessLocal.add(provider);
			this.discovered = this.discovered.filter((m) => m.provider !== provider).concat(models);
			this.rebuild();
			return models;
		}
		throw new Error(`No OpenAI-compatible server answered at ${candidates.map((c) => `${c}/models`).join(" or ")}`);
	}

	private isKeyless(provider: Provider): boolean {
		if (this.keylessLocal.has(provider)) return true;
		const custom = this.customProviders.get(provider);
		return custom !== undefined && custom.apiKey === undefined && keyEnvOf(provider).length === 0;
	}

	private best(models: Model[]): Model | undefined {
		let best: Model | undefined;
		let bestScore = Number.POSITIVE_INFINITY;
		for (const model of models) {
			// Usable models win by a margin longer than any id; then shorter ids (closer matches).
			const score = (this.isAvailable(model) ? 0 : 10_000) + model.id.length;
			if (score < bestScore) {
				best = model;
				bestScore = score;
			}
		}
		return best;
	}

	/** Scheme, host and port of a local server; `OLLAMA_HOST` moves Ollama, an injected port wins. */
	private localRoot(provider: LocalProvider, port: number | undefined): string {
		if (port !== undefined) return `http://127.0.0.1:${port}`;
		const host = provider === "ollama" ? this.env.OLLAMA_HOST?.trim() : undefined;
		if (host) return ollamaRoot(host);
		return `http://127.0.0.1:${LOCAL_SERVERS[provider].port}`;
	}

	private rebuild(): void {
		const byKey = new Map<string, Model>();
		const add = (m: Model) => byKey.set(`${m.provider}/${m.id}`, m);
		for (const builtin of BUILTIN_MODELS) add(withBaseUrlEnv(builtin, this.env));
		for (const model of this.discovered) add(model);
		for (const provider of this.customProviders.values()) for (const model of provider.models) add(model);
		this.all = [...byKey.values()];
	}
}

// ---- key values ------------------------------------------------------------------------------------

/** `MY_KEY` or `$MY_KEY` / `${MY_KEY}` names an env var (unset: no key); anything else is the key itself. */
function resolveKeyValue(value: string, env: Env): string | undefined {
	const named = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(value) ?? /^([A-Z_][A-Z0-9_]*)$/.exec(value);
	if (named) return env[named[1]]?.trim() || undefined;
	return value;
}

function isObject(value: unknown): value is Record<string, any> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---- local servers -------------------------------------------------------------------------------------

interface ListedModel {
	id: string;
	contextWindow?: number;
}

/** GET `url` as JSON; undefined on any failure (refused, timeout, non-2xx, not JSON). */
async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
	try {
		const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: "application/json" } });
		if (!response.ok) {
			await response.body?.cancel();
			return undefined;
		}
		return await response.json();
	} catch {
		return undefined;
	}
}

/** `{data: [{id, ...}]}` of `/v1/models`; servers add their context size under different names. */
function parseOpenAIModelList(body: unknown): ListedModel[] | undefined {
	if (!isObject(body) || !Array.isArray(body.data)) return undefined;
	const out: ListedModel[] = [];
	for (const entry of body.data) {
		if (!isObject(entry) || typeof entry.id !== "string" || !entry.id) continue;
		const context = [entry.max_model_len, entry.context_length, entry.max_context_length, entry.meta?.n_ctx_train].find(
			(n) => typeof n === "number" && Number.isInteger(n) && n > 0,
		);
		out.push({ id: entry.id, contextWindow: context });
	}
	return out;
}

/** Ollama's native `{models: [{name}]}` of `/api/tags`. */
function parseOllamaTags(body: unknown): ListedModel[] | undefined {
	if (!isObject(body) || !Array.isArray(body.models)) return undefined;
	const out: ListedModel[] = [];
	for (const entry of body.models) {
		const id = isObject(entry) ? (entry.name ?? entry.model) : undefined;
		if (typeof id === "string" && id) out.push({ id });
	}
	return out;
}

function localModel(provider: string, label: string, baseUrl: string, info: ListedModel): Model {
	const contextWindow = info.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
	return {
		id: info.id,
		name: `${info.id} (${label})`,
		api: "openai-completions",
		provider,
		baseUrl,
		reasoning: false,
		input: ["text"],
		cost: { ...ZERO_COST },
		contextWindow,
		maxTokens: Math.min(DEFAULT_MAX_TOKENS, contextWindow),
		compat: { maxTokensField: "max_tokens" },
	};
}

/** OLLAMA_HOST is "host", "host:port" or a URL; 0.0.0.0 (listen everywhere) is reached on 127.0.0.1. */
function ollamaRoot(host: string): string {
	const withScheme = /^[a-z]+:\/\//i.test(host) ? host : `http://${host}`;
	try {
		const url = new URL(withScheme);
		if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
		if (!url.port && !/:\d+$/.test(host) && url.protocol === "http:") url.port = String(LOCAL_SERVERS.ollama.port);
		return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
	} catch {
		return `http://127.0.0.1:${LOCAL_SERVERS.ollama.port}`;
	}
}

// ---- matching ------------------------------------------------------------------------------------------

const normalize = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Every word of the query, ignoring punctuation, appears in "provider/id name". */
function tokenMatcher(query: string): (m: Model) => boolean {
	const tokens = query.split(/\s+/).map(normalize).filter(Boolean);
	if (tokens.length === 0) return () => false;
	return (m) => {
		const haystack = normalize(`${m.provider}/${m.id} ${m.name}`);
		return tokens.every((t) => haystack.includes(t));
	};
}

/** `*` matches anything, against the id or "provider/id". */
function globMatcher(query: string): (m: Model) => boolean {
	const source = query
		.split("*")
		.map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
		.join(".*");
	const pattern = new RegExp(`^${source}$`, "i");
	return (m) => pattern.test(m.id) || pattern.test(`${m.provider}/${m.id}`);
}
