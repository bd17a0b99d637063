import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import type { Tool, ToolCall } from "../../src/ai/types.js";
import { validateToolArguments, validateToolCall } from "../../src/ai/validation.js";

const call = (args: Record<string, any>, name = "t"): ToolCall => ({ type: "toolCall", id: "c1", name, arguments: args });
const tool = (parameters: unknown, name = "t"): Tool => ({ name, description: "", parameters });

/** The error text, or a failure if validation passed. */
function errorOf(t: Tool, args: Record<string, any>): string {
	try {
		validateToolArguments(t, call(args, t.name));
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error("expected validation to fail");
}

describe("validateToolArguments with TypeBox schemas", () => {
	const schema = Type.Object({
		n: Type.Number(),
		i: Type.Integer(),
		flag: Type.Boolean(),
		label: Type.String(),
	});

	it("converts numeric strings, boolean strings and numbers for string fields", () => {
		const args = validateToolArguments(tool(schema), call({ n: "5", i: "7", flag: "true", label: 7 }));
		expect(args).toEqual({ n: 5, i: 7, flag: true, label: "7" });
	});

	it("never mutates the original arguments", () => {
		const original = { n: "5", i: "7", flag: "false", label: 1 };
		validateToolArguments(tool(schema), call(original));
		expect(original).toEqual({ n: "5", i: "7", flag: "false", label: 1 });
	});

	it("reports a missing property at its own path", () => {
		const t = tool(Type.Object({ value: Type.String() }));
		expect(errorOf(t, {})).toContain("\n  - value: must have required properties value\n");
	});

	it("reports a nested missing property as parent.child", () => {
		const t = tool(Type.Object({ o: Type.Object({ k: Type.String() }) }));
		expect(errorOf(t, { o: {} })).toContain("  - o.k: must have required properties k");
	});

	it("reports a value that cannot be converted", () => {
		const t = tool(Type.Object({ n: Type.Integer() }));
		// TypeBox's Convert truncates 1.5 to 1, so only a non-numeric value fails.
		expect(validateToolArguments(t, call({ n: 1.5 }))).toEqual({ n: 1 });
		expect(errorOf(t, { n: "abc" })).toContain("  - n: must be integer");
	});

	it("formats the whole message: header, error lines, received arguments", () => {
		const t = tool(Type.Object({ n: Type.Integer() }), "count");
		const message = errorOf(t, { n: "abc" });
		expect(message).toBe(`Validation failed for tool "count":\n  - n: must be integer\n\nReceived arguments:\n{\n  "n": "abc"\n}`);
	});
});

describe("validateToolArguments with plain JSON schemas", () => {
	const schema = {
		type: "object",
		properties: {
			n: { type: "number" },
			i: { type: "integer" },
			b: { type: "boolean" },
			s: { type: "string" },
			z: { type: "null" },
			list: { type: "array", items: { type: "integer" } },
			pair: { type: "array", prefixItems: [{ type: "string" }, { type: "boolean" }] },
			extra: { type: "object", additionalProperties: { type: "number" } },
			either: { anyOf: [{ type: "integer" }, { type: "boolean" }] },
			both: { allOf: [{ type: "number" }] },
			obj: { type: "object", properties: { count: { type: "integer" } } },
		},
	};

	it("applies the coercions of docs/agent-contract.md §3 recursively", () => {
		const args = validateToolArguments(
			tool(schema),
			call({
				n: "2.5",
				i: true,
				b: "false",
				s: 12,
				z: "",
				list: ["1", null, false],
				pair: [3, 1],
				extra: { a: "4", b: null },
				either: "6",
				both: "8",
				obj: { count: "9" },
			}),
		);
		expect(args).toEqual({
			n: 2.5,
			i: 1,
			b: false,
			s: "12",
			z: null,
			list: [1, 0, 0],
			pair: ["3", true],
			extra: { a: 4, b: 0 },
			either: 6,
			both: 8,
			obj: { count: 9 },
		});
	});

	it("turns null into the type's empty value", () => {
		const args = validateToolArguments(tool(schema), call({ n: null, b: null, s: null }));
		expect(args).toEqual({ n: 0, b: false, s: "" });
	});

	it("does not parse arrays or objects given as JSON text", () => {
		const message = errorOf(tool(schema), { list: "[1,2]" });
		expect(message).toContain("  - list: must be array");
		expect(message).toContain('"list": "[1,2]"');
	});

	it("reports required properties and wrong types with the same texts as TypeBox schemas", () => {
		const plain = tool({
			type: "object",
			required: ["value", "o"],
			properties: { value: { type: "string" }, o: { type: "object", required: ["k"], properties: { k: { type: "string" } } } },
		});
		expect(errorOf(plain, { o: { k: "x" } })).toContain("  - value: must have required properties value");
		expect(errorOf(plain, { value: "v", o: {} })).toContain("  - o.k: must have required properties k");
		const integer = tool({ type: "object", properties: { n: { type: "integer" } } });
		expect(errorOf(integer, { n: "1.5" })).toContain("  - n: must be integer");
	});

	it("keeps a value an anyOf alternative accepts as it is, and coerces only when none does", () => {
		const nullable = tool({ type: "object", properties: { o: { anyOf: [{ type: "string" }, { type: "null" }] } } });
		expect(validateToolArguments(nullable, call({ o: null }))).toEqual({ o: null });
		expect(validateToolArguments(nullable, call({ o: 5 }))).toEqual({ o: "5" });
	});

	it("accepts the schemas MCP servers send: $schema, $ref into $defs, enums, additionalProperties false", () => {
		const mcp = tool({
			$schema: "http://json-schema.org/draft-07/schema#",
			type: "object",
			properties: { mode: { type: "string", enum: ["fast", "slow"] }, item: { $ref: "#/$defs/item" } },
			required: ["mode"],
			additionalProperties: false,
			$defs: { item: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } },
		});
		expect(validateToolArguments(mcp, call({ mode: "fast", item: { id: 3 } }))).toEqual({ mode: "fast", item: { id: 3 } });
		expect(errorOf(mcp, { mode: "medium" })).toContain("  - mode: ");
		expect(errorOf(mcp, { mode: "fast", item: {} })).toContain("  - item.id: must have required properties id");
		expect(errorOf(mcp, { mode: "fast", other: 1 })).toContain("  - root: must not have additional properties");
	});

	it("uses root for an error at the top level", () => {
		expect(errorOf(tool({ type: "object", maxProperties: 0 }), { a: 1 })).toMatch(/\n {2}- root: /);
	});
});

describe("validateToolCall", () => {
	it("looks the tool up by name", () => {
		const tools = [tool(Type.Object({ n: Type.Number() }), "add")];
		expect(validateToolCall(tools, call({ n: "3" }, "add"))).toEqual({ n: 3 });
		expect(() => validateToolCall(tools, call({}, "missing"))).toThrow('Tool "missing" not found');
	});
});
