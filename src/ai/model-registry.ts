// Which models exist and which can be used: the built-in list (models.ts), custom providers from
// `<configDir>/models.json`, local OpenAI-compatible servers found on 127.0.0.1, and API keys from the
// environment or `<configDir>/auth.json`.
// Every key and secret header value it reads is given to the process's redactor (src/safety/secrets.ts).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_FILES, configDir as defaultConfigDir } from "../config/paths.js";
import { type ConfigProblem, formatConfigProblem } from "../config/problems.js";
import { isCredentialName } from "../safety/child-env.js";
import { processSecrets } from "../safety/secrets.js";
import { baseUrlEnvProblems, withBaseUrlEnv } from "./base-url-env.js";
import { KEY_ENV_VARS, PROVIDER_KEY_ENV } from "./constants.js";
import { BUILTIN_MODELS } from "./models.js";
import type { Api, Model, ModelCost, OpenAICompletionsCompat, Provider } from "./types.js";

type Env = Record<string, string | undefined>;

export interface ModelRegistryOptions {
	/** Folder holding `models.json` and `auth.json`. Default: `configDir()` of src/config/paths.ts. */
	configDir?: string;
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

/** A provider declared in models.json, after validation. */
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

/** Providers of the built-in list: a broken models.json does not explain their missing models. */
const BUILTIN_PROVIDERS: ReadonlySet<string> = new Set(BUILTIN_MODELS.map((m) => m.provider));

/** Header names whose values are not secrets (everything else of models.json `headers` is redacted). */
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

const WIRE_APIS: readonly Api[] = ["openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai"];

const ZERO_COST: ModelCost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
/** Used when a local server or models.json does not say; small enough for most local models. */
const DEFAULT_CONTEXT_WINDOW = 32_768;
const DEFAULT_MAX_TOKENS = 8_192;

/**
 * The model catalogue and key store. The constructor never throws: a broken models.json or auth.json
 * leaves the built-in models (and every provider that checked out) usable; each problem is listed in
 * `problems` (file, field, what is wrong) for the modes to show at start, the first also as
 * `loadError`. Call `load()` to re-read the files; it throws the first problem.
 */
export class ModelRegistry {
	readonly configDir: string;
	/** The first of `problems`, as an Error. */
	loadError: Error | undefined;
	/** What is wrong with models.json and auth.json, as of the last `load()`. */
	problems: ConfigProblem[] = [];
	private readonly env: Env;
	private customProviders = new Map<string, CustomProviderConfig>();
	private credentials: Record<string, string> = {};
	/** Models found by `discoverLocal` / `addLocalServer`. */
	private discovered: Model[] = [];
	/** Providers that need no key: local servers found or added at runtime. */
	private readonly keylessLocal = new Set<string>(Object.keys(LOCAL_SERVERS));
	private all: Model[] = [];

	constructor(options: ModelRegistryOptions = {}) {
		this.env = options.env ?? process.env;
		this.configDir = options.configDir ?? defaultConfigDir(this.env);
		try {
			this.load();
		} catch {
			// Kept in loadError; built-ins stay usable.
		}
	}

	get modelsFile(): string {
		return join(this.configDir, CONFIG_FILES.models);
	}

	get authFile(): string {
		return join(this.configDir, CONFIG_FILES.auth);
	}

	/**
	 * Re-reads models.json and auth.json. Every provider and key that checks out is applied; the rest
	 * are listed in `problems`, and the first is thrown.
	 */
	load(): void {
		const auth = readCredentials(this.authFile);
		this.credentials = auth.keys;
		const text = readIfExists(this.modelsFile);
		const models = text === undefined ? { providers: [], problems: [] } : checkModelsConfig(text, this.modelsFile);
		this.customProviders = new Map(models.providers.map((p) => [p.name, p]));
		this.problems = [...models.problems, ...auth.problems, ...baseUrlEnvProblems(this.env)];
		this.loadError = this.problems[0] ? new Error(formatConfigProblem(this.problems[0])) : undefined;
		this.registerSecrets();
		this.rebuild();
		if (this.loadError) throw this.loadError;
	}

	/** Why a provider's models are missing: its own models.json problem, else one of models.json as a whole. */
	problemFor(provider: string): ConfigProblem | undefined {
		const own = this.problems.find((p) => p.provider === provider);
		if (own) return own;
		const wholeModels = this.problems.find((p) => p.file === this.modelsFile && p.provider === undefined);
		return wholeModels && !BUILTIN_PROVIDERS.has(provider) ? wholeModels : undefined;
	}

	/** A provider that needs a key and has none while auth.json could not be read: requests would go out unauthorised. */
	keyProblem(provider: string): ConfigProblem | undefined {
		if (this.isKeyless(provider) || this.hasKey(provider)) return undefined;
		return this.problems.find((p) => p.file === this.authFile && (p.provider === undefined || p.provider === provider));
	}

	/** Every key this registry can hand out, and secret header values, go to the redactor. */
	private registerSecrets(): void {
		for (const [name, value] of Object.entries(this.env)) {
			// Paths (`SSH_KEY_PATH=/home/…`) are not secrets; masking them would garble output.
			if (value && (KEY_ENV_VARS.includes(name) || (isCredentialName(name) && !value.startsWith("/")))) processSecrets.add(value);
		}
		for (const key of Object.values(this.credentials)) processSecrets.add(key);
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

	/** The provider's key: its env var first, then a custom provider's `apiKey`, then auth.json. */
	getApiKey(provider: Provider): string | undefined {
		for (const name of PROVIDER_KEY_ENV[provider] ?? []) {
			const value = this.env[name]?.trim();
			if (value) return value;
		}
		const configured = this.customProviders.get(provider)?.apiKey;
		if (configured) {
			const value = resolveKeyValue(configured, this.env);
			if (value) return value;
		}
		return this.credentials[provider] || undefined;
	}

	hasKey(provider: Provider): boolean {
		return this.getApiKey(provider) !== undefined;
	}

	/**
	 * Stores a key in auth.json (mode 0600, folder created). Refuses to overwrite an auth.json that does
	 * not parse, so a hand-edited file is never lost.
	 */
	setApiKey(provider: Provider, key: string): void {
		const name = provider.trim();
		const value = key.trim();
		if (!name) throw new Error("Cannot store an API key: the provider name is empty");
		if (!value) throw new Error(`Cannot store an API key for ${name}: the key is empty`);
		mkdirSync(this.configDir, { recursive: true, mode: 0o700 });
		const file = this.authFile;
		const existing = readIfExists(file);
		let stored: Record<string, unknown> = {};
		if (existing?.trim()) {
			const parsed = parseJsonObject(existing, file);
			stored = parsed;
		}
		stored[name] = { type: "api_key", key: value };
		// Write beside and rename, so a crash never leaves half a file; the mode is set before any key lands.
		const temp = `${file}.${process.pid}.tmp`;
		writeFileSync(temp, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
		chmodSync(temp, 0o600);
		renameSync(temp, file);
		this.credentials[name] = value;
		processSecrets.add(value);
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
		return custom !== undefined && custom.apiKey === undefined && !(provider in PROVIDER_KEY_ENV);
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

/**
 * auth.json: `{"<provider>": {"type": "api_key", "key": "..."}}` (or a bare string). A file readable by
 * group or others is refused whole, since its keys may already be read by someone else; a bad entry
 * is skipped alone.
 */
function readCredentials(file: string): { keys: Record<string, string>; problems: ConfigProblem[] } {
	const keys: Record<string, string> = {};
	const text = readIfExists(file);
	if (text === undefined || !text.trim()) return { keys, problems: [] };
	if (process.platform !== "win32" && (statSync(file).mode & 0o077) !== 0) {
		return {
			keys,
			problems: [{ file, problem: `is readable by group or others; its keys are not used until you run: chmod 600 ${file}` }],
		};
	}
	let parsed: Record<string, unknown>;
	try {
		parsed = parseJsonObject(text, file);
	} catch (error) {
		return { keys, problems: [{ file, problem: `${(error as Error).message.slice(file.length + 2)}; no key of it is used` }] };
	}
	const problems: ConfigProblem[] = [];
	for (const [provider, entry] of Object.entries(parsed)) {
		if (typeof entry === "string") keys[provider] = entry;
		else if (isObject(entry) && typeof entry.key === "string") keys[provider] = entry.key;
		else problems.push({ file, field: provider, provider, problem: 'expected {"type": "api_key", "key": "..."}' });
	}
	return { keys, problems };
}

function readIfExists(file: string): string | undefined {
	if (!existsSync(file)) return undefined;
	return readFileSync(file, "utf8");
}

function parseJsonObject(text: string, file: string): Record<string, unknown> {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new Error(`${file}: invalid JSON: ${(error as Error).message.split("\n")[0]}`);
	}
	if (!isObject(value)) throw new Error(`${file}: expected a JSON object at the top level`);
	return value;
}

function isObject(value: unknown): value is Record<string, any> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---- models.json -------------------------------------------------------------------------------------

const PROVIDER_FIELDS = ["baseUrl", "api", "apiKey", "headers", "compat", "models"];
const MODEL_FIELDS = ["id", "name", "contextWindow", "maxTokens", "reasoning", "input", "cost"];
const COMPAT_BOOLEANS = ["supportsDeveloperRole", "supportsReasoningEffort", "supportsUsageInStreaming", "supportsStore"];

/** A problem at one field path of models.json, thrown inside the checks below. */
class FieldError extends Error {
	constructor(
		readonly field: string,
		readonly problem: string,
	) {
		super(`${field}: ${problem}`);
	}
}

/**
 * Validates models.json text into custom providers. Throws `<file>: <field path>: <problem>`, one line,
 * for the first problem found.
 */
export function parseModelsConfig(text: string, file: string): CustomProviderConfig[] {
	const { providers, problems } = checkModelsConfig(text, file);
	if (problems[0]) throw new Error(formatConfigProblem(problems[0]));
	return providers;
}

/**
 * Validates models.json text provider by provider: a provider with a problem is left out (its problem
 * names it), the others are kept. A file that is not JSON, or has no `providers` object, is one problem.
 */
export function checkModelsConfig(text: string, file: string): { providers: CustomProviderConfig[]; problems: ConfigProblem[] } {
	let root: Record<string, unknown>;
	try {
		root = parseJsonObject(text, file);
	} catch (error) {
		return { providers: [], problems: [{ file, problem: (error as Error).message.slice(file.length + 2) }] };
	}
	const providers = root.providers;
	if (providers === undefined) {
		return { providers: [], problems: [{ file, field: "providers", problem: 'missing (expected {"providers": {"<name>": {...}}})' }] };
	}
	if (!isObject(providers)) {
		return { providers: [], problems: [{ file, field: "providers", problem: "must be an object of provider name to provider" }] };
	}
	const out: CustomProviderConfig[] = [];
	const problems: ConfigProblem[] = [];
	for (const [name, raw] of Object.entries(providers as Record<string, unknown>)) {
		try {
			out.push(parseProvider(name, raw));
		} catch (error) {
			if (!(error instanceof FieldError)) throw error;
			problems.push({ file, field: error.field, problem: error.problem, provider: name });
		}
	}
	return { providers: out, problems };
}

// Readers of one models.json field each: the value, or a FieldError naming the field's path.
const fail = (path: string, problem: string): never => {
	throw new FieldError(path, problem);
};

function unknownFields(value: Record<string, unknown>, allowed: string[], path: string): void {
	for (const key of Object.keys(value)) {
		if (!allowed.includes(key)) fail(`${path}.${key}`, `unknown field (expected one of ${allowed.join(", ")})`);
	}
}

function nonEmptyString(value: unknown, path: string): string {
	if (typeof value !== "string" || !value.trim()) fail(path, "must be a non-empty string");
	return (value as string).trim();
}

function positiveInt(value: unknown, path: string): number {
	if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) fail(path, "must be a positive integer");
	return value as number;
}

function parseProvider(name: string, raw: unknown): CustomProviderConfig {
	const at = `providers.${name}`;
	if (!isObject(raw)) fail(at, "must be an object");
	const p = raw as Record<string, unknown>;
	unknownFields(p, PROVIDER_FIELDS, at);
	const baseUrl = nonEmptyString(p.baseUrl, `${at}.baseUrl`).replace(/\/+$/, "");
	if (!/^https?:\/\/./.test(baseUrl)) fail(`${at}.baseUrl`, "must start with http:// or https://");
	const api = nonEmptyString(p.api, `${at}.api`);
	if (!WIRE_APIS.includes(api)) fail(`${at}.api`, `must be one of ${WIRE_APIS.join(", ")}`);
	const apiKey = p.apiKey === undefined ? undefined : nonEmptyString(p.apiKey, `${at}.apiKey`);
	const headers = p.headers === undefined ? undefined : parseHeaders(p.headers, `${at}.headers`);
	const compat = p.compat === undefined ? undefined : parseCompat(p.compat, `${at}.compat`, fail);
	if (!Array.isArray(p.models)) fail(`${at}.models`, "must be an array of models");
	const provider = { name, baseUrl, api, headers, compat };
	const models = (p.models as unknown[]).map((rawModel, i) => parseModel(rawModel, `${at}.models[${i}]`, provider));
	return { name, baseUrl, api, apiKey, headers, compat, models };
}

function parseHeaders(value: unknown, at: string): Record<string, string> {
	if (!isObject(value)) fail(at, "must be an object of header name to string");
	for (const [header, v] of Object.entries(value as object)) {
		if (typeof v !== "string") fail(`${at}.${header}`, "must be a string");
	}
	return { ...(value as Record<string, string>) };
}

/** What a model takes from its provider's entry. */
type ProviderPart = Pick<CustomProviderConfig, "name" | "baseUrl" | "api" | "headers" | "compat">;

function parseModel(raw: unknown, at: string, provider: ProviderPart): Model {
	if (!isObject(raw)) fail(at, "must be an object");
	const m = raw as Record<string, unknown>;
	unknownFields(m, MODEL_FIELDS, at);
	const id = nonEmptyString(m.id, `${at}.id`);
	const contextWindow = m.contextWindow === undefined ? DEFAULT_CONTEXT_WINDOW : positiveInt(m.contextWindow, `${at}.contextWindow`);
	const maxTokens = m.maxTokens === undefined ? Math.min(DEFAULT_MAX_TOKENS, contextWindow) : positiveInt(m.maxTokens, `${at}.maxTokens`);
	if (m.reasoning !== undefined && typeof m.reasoning !== "boolean") fail(`${at}.reasoning`, "must be true or false");
	const input: Model["input"] = m.input === undefined ? ["text"] : parseInput(m.input, `${at}.input`);
	const cost = m.cost === undefined ? { ...ZERO_COST } : parseCost(m.cost, `${at}.cost`);
	const { headers, compat } = provider;
	return {
		id,
		name: m.name === undefined ? id : nonEmptyString(m.name, `${at}.name`),
		api: provider.api,
		provider: provider.name,
		baseUrl: provider.baseUrl,
		reasoning: m.reasoning === true,
		input,
		cost,
		contextWindow,
		maxTokens,
		...(headers ? { headers: { ...headers } } : {}),
		...(compat ? { compat: { ...compat } } : {}),
	};
}

function parseInput(value: unknown, at: string): Model["input"] {
	const ok = Array.isArray(value) && value.length > 0 && value.every((x) => x === "text" || x === "image");
	if (!ok) fail(at, 'must be a non-empty array of "text" and "image"');
	return [...new Set(value as Model["input"])];
}

function parseCost(value: unknown, at: string): ModelCost {
	if (!isObject(value)) fail(at, "must be an object with input, output, cacheRead, cacheWrite ($ per million tokens)");
	const cost = { ...ZERO_COST };
	for (const [key, v] of Object.entries(value as object)) {
		if (!(key in ZERO_COST)) fail(`${at}.${key}`, "unknown field (expected one of input, output, cacheRead, cacheWrite)");
		if (typeof v !== "number" || !Number.isFinite(v) || v < 0) fail(`${at}.${key}`, "must be a number ≥ 0 ($ per million tokens)");
		cost[key as keyof ModelCost] = v as number;
	}
	return cost;
}

function parseCompat(value: unknown, at: string, fail: (path: string, problem: string) => never): OpenAICompletionsCompat {
	if (!isObject(value)) fail(at, "must be an object");
	const compat = value as Record<string, unknown>;
	const allowed = ["maxTokensField", "reasoningField", ...COMPAT_BOOLEANS];
	for (const [key, v] of Object.entries(compat)) {
		if (!allowed.includes(key)) fail(`${at}.${key}`, `unknown field (expected one of ${allowed.join(", ")})`);
		if (key === "maxTokensField" && v !== "max_tokens" && v !== "max_completion_tokens") {
			fail(`${at}.${key}`, 'must be "max_tokens" or "max_completion_tokens"');
		}
		if (key === "reasoningField" && v !== "reasoning_content" && v !== "reasoning") {
			fail(`${at}.${key}`, 'must be "reasoning_content" or "reasoning"');
		}
		if (COMPAT_BOOLEANS.includes(key) && typeof v !== "boolean") fail(`${at}.${key}`, "must be true or false");
	}
	return { ...compat } as OpenAICompletionsCompat;
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
