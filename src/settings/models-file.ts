// `<configDir>/models.json`: the providers the user declares, validated field by field into the data
// src/ai's registry takes. A provider with a problem is left out and named (file, field path, problem);
// the others are kept.

import { type CustomProviderConfig, DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_TOKENS, ZERO_COST } from "../ai/model-registry.js";
import type { Api, Model, ModelCost, OpenAICompletionsCompat } from "../ai/types.js";
import { type ConfigProblem, formatConfigProblem } from "../config/problems.js";
import { modelsProviderProblem } from "../config/schema/models.js";
import { isObject, parseJsonObject, readIfExists } from "./json-object.js";

const WIRE_APIS: readonly Api[] = ["openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai"];

/** The providers of models.json (none when the file is absent), and what is wrong with it. */
export function readModelsFile(file: string): { providers: CustomProviderConfig[]; problems: ConfigProblem[] } {
	const text = readIfExists(file);
	return text === undefined ? { providers: [], problems: [] } : checkModelsConfig(text, file);
}

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
		const shape = modelsProviderProblem(name, raw, file);
		if (shape) {
			problems.push(shape);
			continue;
		}
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
