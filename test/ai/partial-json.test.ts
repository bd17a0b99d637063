import { describe, expect, it } from "vitest";
import { parseStreamingJson, parseToolArguments, StreamingJson } from "../../src/ai/partial-json.js";

const inputs: Record<string, unknown>[] = [
	{ path: "src/index.ts", content: 'line 1\nsays "hi"\t\\ and \u00e9 \u2603 done' },
	{ command: "ls -la", timeout: 30, flags: [true, false, null], nested: { a: [1, { b: "c" }], empty: {} } },
	{
		edits: [
			{ oldText: "a,b", newText: "{x}" },
			{ oldText: "[", newText: "]" },
		],
		n: -12.5e3,
	},
	{ emoji: "😀 café", escaped: "\\u1234 is not a char here", unicode: "\u0001" },
];

describe("parseStreamingJson", () => {
	for (const [i, value] of inputs.entries()) {
		const text = JSON.stringify(value, null, i % 2 === 0 ? undefined : 2);
		it(`returns an object at every prefix of input ${i}, ending with the whole value`, () => {
			for (let cut = 0; cut <= text.length; cut++) {
				const parsed = parseStreamingJson(text.slice(0, cut));
				expect(typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)).toBe(true);
			}
			expect(parseStreamingJson(text)).toEqual(value);
		});

		it(`keeps only keys of the input, and string prefixes, at every prefix of input ${i}`, () => {
			for (let cut = 0; cut <= text.length; cut++) {
				const parsed = parseStreamingJson(text.slice(0, cut));
				for (const [key, got] of Object.entries(parsed)) {
					expect(Object.keys(value)).toContain(key);
					const full = value[key];
					// A streaming string value is always a prefix of the final one.
					if (typeof full === "string") expect(full.startsWith(got as string)).toBe(true);
				}
			}
		});
	}

	it("keeps a partial string value while it streams", () => {
		expect(parseStreamingJson('{"path": "a.ts", "content": "hello wor')).toEqual({ path: "a.ts", content: "hello wor" });
	});

	it("drops a dangling key, colon or partial literal", () => {
		expect(parseStreamingJson('{"a": 1, "b')).toEqual({ a: 1 });
		expect(parseStreamingJson('{"a": 1, "b":')).toEqual({ a: 1 });
		expect(parseStreamingJson('{"a": 1, "b": tr')).toEqual({ a: 1 });
		expect(parseStreamingJson('{"a": [1, 2')).toEqual({ a: [1, 2] });
	});

	it("never keeps half an escape", () => {
		expect(parseStreamingJson('{"a": "x\\')).toEqual({ a: "x" });
		expect(parseStreamingJson('{"a": "x\\u00')).toEqual({ a: "x" });
	});

	it("returns {} for empty, non-object and hopeless input", () => {
		expect(parseStreamingJson(undefined)).toEqual({});
		expect(parseStreamingJson("")).toEqual({});
		expect(parseStreamingJson("   ")).toEqual({});
		expect(parseStreamingJson("[1, 2]")).toEqual({});
		expect(parseStreamingJson('"text"')).toEqual({});
		expect(parseStreamingJson("not json")).toEqual({});
	});
});

describe("StreamingJson", () => {
	it("ends with the full value whatever the delta sizes", () => {
		const value = { path: "big.txt", content: "x".repeat(5000) };
		const text = JSON.stringify(value);
		const acc = new StreamingJson();
		for (let i = 0; i < text.length; i += 7) acc.append(text.slice(i, i + 7));
		expect(acc.raw).toBe(text);
		expect(acc.finish()).toEqual(value);
	});

	it("re-parses a large buffer only after it grew by a quarter", () => {
		const acc = new StreamingJson();
		acc.append(`{"content": "${"a".repeat(1000)}`);
		const first = acc.append("b");
		// The one-character growth did not trigger a re-parse: the same object comes back.
		expect(acc.append("c")).toBe(first);
		expect((first.content as string).endsWith("a")).toBe(true);
		const grown = acc.append("d".repeat(400));
		expect(grown).not.toBe(first);
		expect((grown.content as string).endsWith("d")).toBe(true);
	});
});

describe("parseToolArguments", () => {
	it("accepts complete objects and treats empty text as no arguments", () => {
		expect(parseToolArguments('{"path":"a.ts","limit":3}')).toEqual({ arguments: { path: "a.ts", limit: 3 } });
		expect(parseToolArguments("  ")).toEqual({ arguments: {} });
	});

	it("marks cut-off text with the parser's message and keeps the repair for display only", () => {
		const parsed = parseToolArguments('{"command": "rm -rf build/cache');
		expect(parsed.error).toMatch(/^Unterminated string in JSON at position 31/);
		expect(parsed.arguments).toEqual({ command: "rm -rf build/cache" });
		expect(parseToolArguments('{"a": 1,').error).toBeDefined();
		expect(parseToolArguments('{"a": tru').error).toBeDefined();
	});

	it("refuses JSON that is not an object", () => {
		expect(parseToolArguments("[1]")).toEqual({ arguments: {}, error: "the arguments must be a JSON object, not an array" });
		expect(parseToolArguments("null").error).toBe("the arguments must be a JSON object, not null");
		expect(parseToolArguments('"x"').error).toBe("the arguments must be a JSON object, not a string");
	});
});
