// Config files are untrusted JSON (a cloned repo ships its own .rudder/settings.json and .mcp.json), so
// every key is looked up as an own property of the table that allows it: `{"valueOf": 1}` or
// `{"__proto__": {...}}` must be "not a known field", never a function of Object.prototype called as a
// check or a prototype swapped under the loader. Each field has a TypeBox schema and the one line said
// when a value fails it; a bad field is dropped alone and the rest of the file still loads.
import { type TSchema, Type } from "typebox";
import { Value } from "typebox/value";
import type { ConfigProblem } from "../problems.js";

/** A leaf: its schema, the problem said when a value fails it, and an optional finer check. */
export interface FieldRule {
	readonly schema: TSchema;
	readonly problem: string;
	/** What a schema cannot say (a rule's syntax): the problem, or undefined when the value is good. */
	readonly check?: (value: unknown) => string | undefined;
}

/** A nested object checked field by field (`compaction.reserveTokens`). */
export interface Section {
	readonly section: Fields;
}

/** An object of any own keys (provider names, server names), each value checked by `entry`. */
export interface MapOf {
	readonly entries: FieldRule | Section;
	/** What a key must look like, and the problem said when it does not. */
	readonly key?: { readonly pattern: RegExp; readonly problem: string };
}

/** An array, each item checked by `items`; one bad item is a problem at `field[i]`. */
export interface ListOf {
	readonly items: FieldRule | Section;
	/** The problem said when the value is not an array (or is empty and `nonEmpty`). */
	readonly problem: string;
	readonly nonEmpty?: boolean;
}

export type Rule = FieldRule | Section | MapOf | ListOf;
export type Fields = Readonly<Record<string, Rule>>;

export const field = (schema: TSchema, problem: string, check?: FieldRule["check"]): FieldRule => ({ schema, problem, check });

/** A value `schema` cannot describe: `check` alone decides. */
export const checked = (check: NonNullable<FieldRule["check"]>): FieldRule => ({ schema: Type.Unknown(), problem: "", check });

/** `table[key]` when `key` is the table's own property: never an inherited `constructor` or `toString`. */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
	return Object.hasOwn(table, key) ? table[key] : undefined;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A null-prototype object: any key, `__proto__` included, is plain data in it. */
export function dataObject<T = unknown>(): Record<string, T> {
	return Object.create(null) as Record<string, T>;
}

export interface Checked {
	/** The fields that passed (null-prototype objects all the way down). */
	value: Record<string, unknown>;
	problems: ConfigProblem[];
}

/** What is said of a key the table does not have: fixed, or built from the names it does have. */
export type Unknown = string | ((allowed: string[]) => string);

const join = (at: string, key: string): string => (at ? `${at}.${key}` : key);

function checkLeaf(rule: FieldRule, raw: unknown): string | undefined {
	if (!Value.Check(rule.schema, raw)) return rule.problem;
	return rule.check?.(raw);
}

function checkRule(
	rule: Rule,
	raw: unknown,
	file: string,
	at: string,
	problems: ConfigProblem[],
	unknown: Unknown,
): { ok: boolean; value?: unknown } {
	if ("section" in rule) {
		if (!isJsonObject(raw)) {
			problems.push({ file, field: at, problem: "must be an object" });
			return { ok: false };
		}
		const inner = checkFields(raw, rule.section, file, at, unknown);
		problems.push(...inner.problems);
		return { ok: true, value: inner.value };
	}
	if ("items" in rule) {
		if (!Array.isArray(raw) || (rule.nonEmpty && raw.length === 0)) {
			problems.push({ file, field: at, problem: rule.problem });
			return { ok: false };
		}
		const value: unknown[] = [];
		let ok = true;
		raw.forEach((item, i) => {
			const checkedItem = checkRule(rule.items, item, file, `${at}[${i}]`, problems, unknown);
			ok &&= checkedItem.ok;
			value.push(checkedItem.value);
		});
		return { ok, value };
	}
	if ("entries" in rule) {
		if (!isJsonObject(raw)) {
			problems.push({ file, field: at, problem: "must be an object" });
			return { ok: false };
		}
		const value = dataObject();
		for (const key of Object.keys(raw)) {
			const where = join(at, key);
			if (rule.key && !rule.key.pattern.test(key)) {
				problems.push({ file, field: where, problem: rule.key.problem });
				continue;
			}
			const entry = checkRule(rule.entries, raw[key], file, where, problems, unknown);
			if (entry.ok) value[key] = entry.value;
		}
		return { ok: true, value };
	}
	const problem = checkLeaf(rule, raw);
	if (problem) {
		problems.push({ file, field: at, problem });
		return { ok: false };
	}
	return { ok: true, value: raw };
}

/**
 * Checks a parsed JSON object against `fields`: every unknown key and every bad value is one problem
 * naming `file` and the field path (`unknown` is said of a key `fields` does not have); `value` keeps
 * the rest. Only own keys of `data` and of `fields` are read.
 */
export function checkFields(data: unknown, fields: Fields, file: string, at = "", unknown: Unknown = "is not a known setting"): Checked {
	const problems: ConfigProblem[] = [];
	const value = dataObject();
	if (!isJsonObject(data)) {
		problems.push({ file, field: at || "(root)", problem: "must be a JSON object" });
		return { value, problems };
	}
	for (const key of Object.keys(data)) {
		const rule = own(fields, key);
		const where = join(at, key);
		if (!rule) {
			problems.push({ file, field: where, problem: typeof unknown === "string" ? unknown : unknown(Object.keys(fields)) });
			continue;
		}
		const result = checkRule(rule, data[key], file, where, problems, unknown);
		if (result.ok) value[key] = result.value;
	}
	return { value, problems };
}
