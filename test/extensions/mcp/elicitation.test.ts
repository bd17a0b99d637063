// Reading a server's elicitation request: hostile text made visible and capped, schemas outside MCP's
// restricted set refused, only http(s) URLs, and answers checked against the fields.
import { describe, expect, it } from "vitest";
import { checkedAnswer, ELICIT_LIMITS, formContent, initialValues, parseElicitation } from "../../../src/extensions/mcp/elicitation.js";

const form = (properties: Record<string, unknown>, required: string[] = []) => ({
	message: "m",
	requestedSchema: { type: "object", properties, required },
});

describe("parseElicitation", () => {
	it("makes the server's text visible, one line for titles, and caps it", () => {
		const request = parseElicitation(
			"s",
			form({ a: { type: "string", title: `bad\x1b[2J\u202Etitle\nnext${"x".repeat(500)}`, description: "d\x07" } }),
		);
		if (request.mode !== "form") throw new Error("form expected");
		const [field] = request.fields;
		expect(field.title).toContain("bad^[[2J⟪U+202E⟫title next");
		expect(field.title.length).toBeLessThanOrEqual(ELICIT_LIMITS.title);
		expect(field.description).toBe("d^G");
	});

	it("refuses what a form may not hold, and URLs that are not http(s)", () => {
		expect(() => parseElicitation("s", form({ a: { type: "object" } }))).toThrow('field "a" has a type MCP forms do not allow');
		// JSON.parse makes "__proto__" an own key; as a field it would set the answer's prototype.
		const hostile = JSON.parse('{"__proto__": {"type": "array", "items": {"enum": ["x"]}, "default": ["x"]}}');
		expect(() => parseElicitation("s", form(hostile))).toThrow('field "__proto__" has a name a form cannot use');
		const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}`, { type: "string" }]));
		expect(() => parseElicitation("s", form(many))).toThrow("more than 20 fields");
		expect(() => parseElicitation("s", form({ c: { type: "string", enum: [] } }))).toThrow("0 or more than 50 options");
		expect(() => parseElicitation("s", { mode: "url", url: "file:///etc/passwd", message: "" })).toThrow("a file: URL is not opened");
		expect(() => parseElicitation("s", { mode: "url", url: "javascript:alert(1)", message: "" })).toThrow(
			"a javascript: URL is not opened",
		);
	});

	it("reads oneOf choices and multiple choice, and checks answers against them", () => {
		const request = parseElicitation(
			"s",
			form(
				{
					size: {
						type: "string",
						oneOf: [
							{ const: "s", title: "Small" },
							{ const: "l", title: "Large" },
						],
					},
					tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, minItems: 1, default: ["b", "zz"] },
					n: { type: "number", minimum: 0 },
				},
				["size", "tags"],
			),
		);
		if (request.mode !== "form") throw new Error("form expected");
		const values = initialValues(request.fields);
		expect(values).toEqual({ size: "s", tags: ["b"], n: "" });
		expect(formContent(request.fields, values)).toEqual({ content: { size: "s", tags: ["b"] } });
		expect(formContent(request.fields, { ...values, tags: [] })).toEqual({ error: "tags: choose at least 1" });
		expect(() => checkedAnswer(request, { action: "accept", content: { size: "xl", tags: ["a"] } })).toThrow(
			"size: is not one of the choices",
		);
		expect(() => checkedAnswer(request, { action: "maybe" })).toThrow('"action" must be');
		expect(checkedAnswer(request, { action: "accept", content: { size: "l", tags: ["a"], n: 1.5, extra: "dropped" } })).toEqual({
			action: "accept",
			content: { size: "l", tags: ["a"], n: 1.5 },
		});
	});
});
