// Tool-argument validation (docs/agent-contract.md §3). TypeBox 1.x because it is what pi-ai 0.73.1 uses: its
// `Value.Convert` gives the same coercions, its compiler gives the same error messages, and schemas
// written with `Type.*` for pi port unchanged. Plain JSON-schema objects get our own coercion pass,
// since TypeBox converts only schemas it built itself.
import { Compile } from "typebox/compile";
import { Value } from "typebox/value";
import type { Tool, ToolCall } from "./types.js";

type Validator = ReturnType<typeof Compile>;
const compiled = new WeakMap<object, Validator>();

function validatorFor(schema: object): Validator {
	let v = compiled.get(schema);
	if (!v) {
		v = Compile(schema as never);
		compiled.set(schema, v);
	}
	return v;
}

/** True for schemas built with TypeBox's `Type.*` (they carry a hidden `~kind`). */
function isTypeBoxSchema(schema: object): boolean {
	return Object.hasOwn(schema, "~kind");
}

/**
 * Returns the converted, validated copy of the call's arguments, or throws an Error whose text is
 * what the model reads to retry (exact format: docs/agent-contract.md §3).
 */
export function validateToolArguments(tool: Tool, toolCall: ToolCall): Record<string, any> {
	const schema = tool.parameters as object;
	const original = toolCall.arguments;
	let args: any = structuredClone(original);
	if (isTypeBoxSchema(schema)) args = Value.Convert(schema as never, args);
	else args = coerce(schema as JsonSchema, args);
	const validator = validatorFor(schema);
	if (validator.Check(args)) return args as Record<string, any>;
	const lines: string[] = [];
	for (const error of validator.Errors(args)) {
		let path = (error.instancePath ?? "").replace(/^\//, "").replace(/\//g, ".");
		if (error.keyword === "required") {
			const missing = (error.params as { requiredProperties?: string[] })?.requiredProperties?.[0];
			if (missing) path = path ? `${path}.${missing}` : missing;
		}
		lines.push(`  - ${path || "root"}: ${error.message}`);
	}
	const details = lines.length > 0 ? lines.join("\n") : "Unknown validation error";
	throw new Error(
		`Validation failed for tool "${toolCall.name}":\n${details}\n\nReceived arguments:\n${JSON.stringify(original, null, 2)}`,
	);
}

/** Looks the tool up by name, then validates; pi-ai's `validateToolCall`. */
export function validateToolCall(tools: Tool[], toolCall: ToolCall): Record<string, any> {
	const tool = tools.find((t) => t.name === toolCall.name);
	if (!tool) throw new Error(`Tool "${toolCall.name}" not found`);
	return validateToolArguments(tool, toolCall);
}

interface JsonSchema {
	type?: string | string[];
	properties?: Record<string, JsonSchema>;
	additionalProperties?: boolean | JsonSchema;
	items?: JsonSchema | JsonSchema[];
	prefixItems?: JsonSchema[];
	allOf?: JsonSchema[];
	anyOf?: JsonSchema[];
	oneOf?: JsonSchema[];
}

function typesOf(schema: JsonSchema): string[] {
	return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

/** The coercions of docs/agent-contract.md §3 for plain JSON schemas; mutates and returns `value`. */
function coerce(schema: JsonSchema, value: any): any {
	if (!schema || typeof schema !== "object") return value;
	const types = typesOf(schema);
	if (types.length === 1) value = coerceScalar(types[0], value);
	if (schema.allOf) for (const sub of schema.allOf) value = coerce(sub, value);
	const alternatives = schema.anyOf ?? schema.oneOf;
	if (alternatives) {
		// A value one alternative already accepts stays as it is (TypeBox's Convert does the same): without
		// this, `null` for `anyOf: [string, null]`, as zod's nullable() writes it, would become "".
		if (alternatives.some((sub) => validatorFor(sub).Check(value))) return value;
		for (const sub of alternatives) {
			const candidate = coerce(sub, structuredClone(value));
			if (validatorFor(sub).Check(candidate)) return candidate;
		}
	}
	if (value && typeof value === "object" && !Array.isArray(value)) {
		for (const [key, sub] of Object.entries(schema.properties ?? {})) {
			if (key in value) value[key] = coerce(sub, value[key]);
		}
		if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
			for (const key of Object.keys(value)) {
				if (!schema.properties || !(key in schema.properties)) value[key] = coerce(schema.additionalProperties, value[key]);
			}
		}
	}
	if (Array.isArray(value)) {
		const tuple = Array.isArray(schema.items) ? schema.items : schema.prefixItems;
		if (tuple) for (let i = 0; i < Math.min(tuple.length, value.length); i++) value[i] = coerce(tuple[i], value[i]);
		else if (schema.items && !Array.isArray(schema.items)) {
			for (let i = 0; i < value.length; i++) value[i] = coerce(schema.items, value[i]);
		}
	}
	return value;
}

function coerceScalar(type: string, value: any): any {
	switch (type) {
		case "number":
		case "integer":
			if (value === null) return 0;
			if (typeof value === "boolean") return value ? 1 : 0;
			if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
			return value;
		case "boolean":
			if (value === null) return false;
			if (value === "true" || value === 1) return true;
			if (value === "false" || value === 0) return false;
			return value;
		case "string":
			if (value === null) return "";
			if (typeof value === "number" || typeof value === "boolean") return String(value);
			return value;
		case "null":
			if (value === "" || value === 0 || value === false) return null;
			return value;
		default:
			return value;
	}
}
