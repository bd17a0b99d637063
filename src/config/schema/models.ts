// The shape of models.json, checked before src/settings/models-file.ts reads meaning into it (URL
// schemes, wire APIs, defaults). Own keys only: a provider's `cost: {"valueOf": 1}` or a model's
// `"constructor"` is an unknown field, never a property of Object.prototype taken for a known one.
import { Type } from "typebox";
import type { ConfigProblem } from "../problems.js";
import { checkFields, type Fields, field, isJsonObject, type Unknown } from "./fields.js";

const nonEmpty = field(Type.String({ pattern: "\\S" }), "must be a non-empty string");
const positiveInt = field(Type.Integer({ minimum: 1 }), "must be a positive integer");
const bool = field(Type.Boolean(), "must be true or false");
const price = field(Type.Number({ minimum: 0 }), "must be a number ≥ 0 ($ per million tokens)");

const COMPAT: Fields = {
	maxTokensField: field(
		Type.Union([Type.Literal("max_tokens"), Type.Literal("max_completion_tokens")]),
		'must be "max_tokens" or "max_completion_tokens"',
	),
	reasoningField: field(
		Type.Union([Type.Literal("reasoning_content"), Type.Literal("reasoning")]),
		'must be "reasoning_content" or "reasoning"',
	),
	supportsDeveloperRole: bool,
	supportsReasoningEffort: bool,
	supportsUsageInStreaming: bool,
	supportsStore: bool,
};

const MODEL: Fields = {
	id: nonEmpty,
	name: nonEmpty,
	contextWindow: positiveInt,
	maxTokens: positiveInt,
	reasoning: bool,
	input: field(
		Type.Array(Type.Union([Type.Literal("text"), Type.Literal("image")]), { minItems: 1 }),
		'must be a non-empty array of "text" and "image"',
	),
	cost: { section: { input: price, output: price, cacheRead: price, cacheWrite: price } },
};

const PROVIDER: Fields = {
	baseUrl: nonEmpty,
	api: nonEmpty,
	apiKey: nonEmpty,
	headers: { entries: field(Type.String(), "must be a string") },
	compat: { section: COMPAT },
	models: { items: { section: MODEL }, problem: "must be an array of models" },
};

const unknownField: Unknown = (allowed) => `unknown field (expected one of ${allowed.join(", ")})`;

/**
 * The first shape problem of one provider entry of models.json (`providers.<name>…`), or undefined.
 * Required fields are left to the reader, which says what each one must be.
 */
export function modelsProviderProblem(name: string, raw: unknown, file: string): ConfigProblem | undefined {
	const at = `providers.${name}`;
	if (!isJsonObject(raw)) return { file, field: at, problem: "must be an object", provider: name };
	const first = checkFields(raw, PROVIDER, file, at, unknownField).problems[0];
	return first && { ...first, provider: name };
}
