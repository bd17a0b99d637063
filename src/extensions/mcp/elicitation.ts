// A server's `elicitation/create` (MCP 2025-06-18 form mode, 2025-11-25 URL mode) as Rudder shows it:
// the request's restricted schema read into a flat list of fields (string, number/integer, boolean,
// single and multiple choice), every text the server chose made visible-safe and capped, and the
// user's answer checked against those fields before it goes back. The server is untrusted: a schema
// this does not understand is declined, never half-shown.
import { sanitizeTerminalText } from "../../safety/sanitize.js";

/** What one field holds while the user edits it (text and numbers as typed). */
export type ElicitValue = string | boolean | string[];

interface FieldBase {
	/** The property name the answer uses. */
	key: string;
	title: string;
	description?: string;
	required: boolean;
}

export type ElicitField =
	| (FieldBase & { kind: "text"; default?: string; minLength?: number; maxLength?: number; format?: string })
	| (FieldBase & { kind: "number"; integer: boolean; default?: number; minimum?: number; maximum?: number })
	| (FieldBase & { kind: "boolean"; default?: boolean })
	| (FieldBase & { kind: "choice"; options: ElicitOption[]; default?: string })
	| (FieldBase & { kind: "multi"; options: ElicitOption[]; default?: string[]; minItems?: number; maxItems?: number });

export interface ElicitOption {
	value: string;
	label: string;
}

export type McpElicitation =
	| { server: string; mode: "form"; message: string; fields: ElicitField[] }
	| { server: string; mode: "url"; message: string; url: string; elicitationId: string };

/** MCP's three answers; `content` only with accept of a form. */
export type ElicitAnswer =
	| { action: "accept"; content?: Record<string, string | number | boolean | string[]> }
	| { action: "decline" }
	| { action: "cancel" };

/** Who answers a server's requests: the session, which asks the user or declines with a notice. */
export interface McpElicitHandler {
	/** Asks the user; resolves with their answer (never rejects). */
	ask(request: McpElicitation, signal: AbortSignal): Promise<ElicitAnswer>;
	/** A request that could not be shown (`reason`) was declined. */
	refused(server: string, reason: string): void;
	/**
	 * The server's `notifications/elicitation/complete`: the page of its URL elicitation `elicitationId`
	 * is done. Unknown or already completed ids are ignored (MCP 2025-11-25).
	 */
	completed(server: string, elicitationId: string): void;
}

/** Caps on what a server may put on the screen. */
export const ELICIT_LIMITS = { message: 2_000, title: 120, description: 300, fields: 20, options: 50, value: 2_000, url: 2_000 };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Text for the screen: every control visible, one line, at most `max` characters. */
export function elicitLine(value: unknown, max: number): string {
	const text = typeof value === "string" ? value : "";
	const line = sanitizeTerminalText(text.replace(/[\r\n]+/g, " ")).trim();
	return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function elicitText(value: unknown, max: number): string {
	const text = sanitizeTerminalText(typeof value === "string" ? value : "").trim();
	return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** Reads a request's params; throws a one-line reason for a request that cannot be shown honestly. */
export function parseElicitation(server: string, params: Record<string, unknown>): McpElicitation {
	const message = elicitText(params.message, ELICIT_LIMITS.message);
	if (params.mode === "url") {
		const url = typeof params.url === "string" ? params.url : "";
		let parsed: URL;
		try {
			parsed = new URL(url);
		} catch {
			throw new Error("the URL is not valid");
		}
		if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error(`a ${parsed.protocol} URL is not opened`);
		if (url.length > ELICIT_LIMITS.url) throw new Error("the URL is too long");
		return { server, mode: "url", message, url: parsed.href, elicitationId: elicitLine(params.elicitationId, 200) };
	}
	const schema = params.requestedSchema;
	if (!isObject(schema) || !isObject(schema.properties)) throw new Error("the form has no fields");
	const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : []);
	const entries = Object.entries(schema.properties);
	if (entries.length > ELICIT_LIMITS.fields) throw new Error(`the form has more than ${ELICIT_LIMITS.fields} fields`);
	const fields = entries.map(([key, property]) => parseField(key, property, required.has(key)));
	return { server, mode: "form", message, fields };
}

/** Keys that would reach an object's prototype, not its own properties. */
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

function parseField(key: string, property: unknown, required: boolean): ElicitField {
	if (UNSAFE_KEYS.has(key) || key.length > 64) throw new Error(`field "${elicitLine(key, 40)}" has a name a form cannot use`);
	if (!isObject(property)) throw new Error(`field "${elicitLine(key, 40)}" is not a schema`);
	const base: FieldBase = {
		key,
		title: elicitLine(property.title, ELICIT_LIMITS.title) || elicitLine(key, ELICIT_LIMITS.title),
		required,
		...(typeof property.description === "string" ? { description: elicitLine(property.description, ELICIT_LIMITS.description) } : {}),
	};
	const type = property.type;
	if (type === "boolean")
		return { ...base, kind: "boolean", ...(typeof property.default === "boolean" ? { default: property.default } : {}) };
	if (type === "number" || type === "integer") {
		const d = num(property.default);
		const minimum = num(property.minimum);
		const maximum = num(property.maximum);
		return {
			...base,
			kind: "number",
			integer: type === "integer",
			...(d !== undefined ? { default: d } : {}),
			...(minimum !== undefined ? { minimum } : {}),
			...(maximum !== undefined ? { maximum } : {}),
		};
	}
	if (type === "string") {
		const options = choiceOptions(property);
		const d = typeof property.default === "string" ? property.default.slice(0, ELICIT_LIMITS.value) : undefined;
		if (options)
			return { ...base, kind: "choice", options, ...(d !== undefined && options.some((o) => o.value === d) ? { default: d } : {}) };
		const minLength = num(property.minLength);
		const maxLength = num(property.maxLength);
		return {
			...base,
			kind: "text",
			...(d !== undefined ? { default: d } : {}),
			...(minLength !== undefined ? { minLength } : {}),
			...(maxLength !== undefined ? { maxLength } : {}),
			...(typeof property.format === "string" ? { format: elicitLine(property.format, 20) } : {}),
		};
	}
	if (type === "array" && isObject(property.items)) {
		const options = choiceOptions(property.items);
		if (!options) throw new Error(`field "${base.title}" is a list without choices`);
		const d = Array.isArray(property.default) ? property.default.filter((v): v is string => options.some((o) => o.value === v)) : undefined;
		const minItems = num(property.minItems);
		const maxItems = num(property.maxItems);
		return {
			...base,
			kind: "multi",
			options,
			...(d ? { default: d } : {}),
			...(minItems !== undefined ? { minItems } : {}),
			...(maxItems !== undefined ? { maxItems } : {}),
		};
	}
	throw new Error(`field "${base.title}" has a type MCP forms do not allow`);
}

/** `enum` (with `enumNames`), `oneOf`/`anyOf` of `{const, title}`; undefined when neither is there. */
function choiceOptions(schema: Record<string, unknown>): ElicitOption[] | undefined {
	let options: ElicitOption[] | undefined;
	if (Array.isArray(schema.enum)) {
		const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
		options = schema.enum
			.map((value, i) => ({ value, name: names[i] }))
			.filter((o): o is { value: string; name: unknown } => typeof o.value === "string")
			.map((o) => ({ value: o.value, label: elicitLine(typeof o.name === "string" ? o.name : o.value, ELICIT_LIMITS.title) }));
	}
	const list = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
	if (!options && list) {
		options = list
			.filter((o): o is Record<string, unknown> => isObject(o) && typeof o.const === "string")
			.map((o) => ({ value: o.const as string, label: elicitLine(typeof o.title === "string" ? o.title : o.const, ELICIT_LIMITS.title) }));
	}
	if (!options) return undefined;
	if (options.length === 0 || options.length > ELICIT_LIMITS.options)
		throw new Error(`a choice has 0 or more than ${ELICIT_LIMITS.options} options`);
	return options;
}

/** The values a form starts with: the schema's defaults, else empty (a choice: its first option when required). */
export function initialValues(fields: readonly ElicitField[]): Record<string, ElicitValue> {
	const values: Record<string, ElicitValue> = {};
	for (const f of fields) {
		if (f.kind === "boolean") values[f.key] = f.default ?? false;
		else if (f.kind === "number") values[f.key] = f.default === undefined ? "" : String(f.default);
		else if (f.kind === "choice") values[f.key] = f.default ?? (f.required ? (f.options[0]?.value ?? "") : "");
		else if (f.kind === "multi") values[f.key] = f.default ?? [];
		else values[f.key] = f.default ?? "";
	}
	return values;
}

/**
 * The answer's content for the edited values, or the first problem ("Port: must be a whole number").
 * Empty optional fields are left out; booleans are always sent (a toggle has no empty state).
 */
export function formContent(
	fields: readonly ElicitField[],
	values: Readonly<Record<string, ElicitValue>>,
): { content: Record<string, string | number | boolean | string[]> } | { error: string } {
	const content: Record<string, string | number | boolean | string[]> = {};
	for (const f of fields) {
		const value = values[f.key];
		const problem = (text: string) => ({ error: `${f.title}: ${text}` });
		if (f.kind === "boolean") {
			if (typeof value !== "boolean") return problem("must be true or false");
			content[f.key] = value;
			continue;
		}
		if (f.kind === "multi") {
			const list = Array.isArray(value) ? value : [];
			if (list.some((v) => !f.options.some((o) => o.value === v))) return problem("has an unknown choice");
			if (list.length === 0 && !f.required) continue;
			if (f.minItems !== undefined && list.length < f.minItems) return problem(`choose at least ${f.minItems}`);
			if (f.maxItems !== undefined && list.length > f.maxItems) return problem(`choose at most ${f.maxItems}`);
			content[f.key] = list;
			continue;
		}
		const text = typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
		if (text === "") {
			if (f.required) return problem("is required");
			continue;
		}
		if (text.length > ELICIT_LIMITS.value) return problem(`is longer than ${ELICIT_LIMITS.value} characters`);
		if (f.kind === "choice") {
			if (!f.options.some((o) => o.value === text)) return problem("is not one of the choices");
			content[f.key] = text;
		} else if (f.kind === "number") {
			const n = Number(text.trim());
			if (text.trim() === "" || !Number.isFinite(n)) return problem("must be a number");
			if (f.integer && !Number.isInteger(n)) return problem("must be a whole number");
			if (f.minimum !== undefined && n < f.minimum) return problem(`must be at least ${f.minimum}`);
			if (f.maximum !== undefined && n > f.maximum) return problem(`must be at most ${f.maximum}`);
			content[f.key] = n;
		} else {
			if (f.minLength !== undefined && text.length < f.minLength) return problem(`needs at least ${f.minLength} characters`);
			if (f.maxLength !== undefined && text.length > f.maxLength) return problem(`takes at most ${f.maxLength} characters`);
			content[f.key] = text;
		}
	}
	return { content };
}

/** An answer from outside (rpc): checked like the form's own, so a client cannot send what the schema forbids. */
export function checkedAnswer(request: McpElicitation, answer: unknown): ElicitAnswer {
	if (!isObject(answer)) throw new Error("the answer must be an object");
	const action = answer.action;
	if (action === "decline" || action === "cancel") return { action };
	if (action !== "accept") throw new Error('"action" must be "accept", "decline" or "cancel"');
	if (request.mode === "url") return { action };
	const given = isObject(answer.content) ? answer.content : {};
	const values: Record<string, ElicitValue> = {};
	for (const f of request.fields) {
		const v = given[f.key];
		values[f.key] =
			typeof v === "number"
				? String(v)
				: typeof v === "string" || typeof v === "boolean" || Array.isArray(v)
					? (v as ElicitValue)
					: initialValues([f])[f.key];
	}
	const checked = formContent(request.fields, values);
	if ("error" in checked) throw new Error(checked.error);
	return { action, content: checked.content };
}
