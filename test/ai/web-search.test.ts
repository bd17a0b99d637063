import { describe, expect, it } from "vitest";
import { cleanSource, cleanTitle, cleanUrl, hostedWebSearch, webSearchText } from "../../src/ai/web-search.js";

describe("hostedWebSearch", () => {
	it("is the vendors' own APIs only, and Gemini from 3 on", () => {
		expect(hostedWebSearch({ api: "anthropic-messages", provider: "anthropic", id: "claude-sonnet-4-5" })).toBe(true);
		expect(hostedWebSearch({ api: "anthropic-messages", provider: "bedrock-proxy", id: "claude-sonnet-4-5" })).toBe(false);
		expect(hostedWebSearch({ api: "openai-responses", provider: "openai", id: "gpt-5" })).toBe(true);
		expect(hostedWebSearch({ api: "openai-completions", provider: "openai", id: "gpt-4o" })).toBe(false);
		expect(hostedWebSearch({ api: "google-generative-ai", provider: "google", id: "gemini-3-flash" })).toBe(true);
		expect(hostedWebSearch({ api: "google-generative-ai", provider: "google", id: "gemini-2.5-pro" })).toBe(false);
		expect(hostedWebSearch({ api: "openai-completions", provider: "ollama", id: "qwen3" })).toBe(false);
	});
});

describe("cleaning what a search brings back", () => {
	it("keeps a title on one visible line, clipped", () => {
		expect(cleanTitle("a\x1b]8;;http://x\x07b\u2066c\nd")).toBe("a^[]8;;http://x^Gb⟪U+2066⟫c d");
		expect(cleanTitle("x".repeat(500))).toHaveLength(200);
		expect(cleanTitle(undefined)).toBe("");
	});

	it("accepts http(s) URLs only, with invisible characters percent-encoded and look-alike hosts in punycode", () => {
		expect(cleanUrl("file:///etc/passwd")).toBeUndefined();
		expect(cleanUrl("javascript:alert(1)")).toBeUndefined();
		expect(cleanUrl("data:text/html,hi")).toBeUndefined();
		expect(cleanUrl("not a url")).toBeUndefined();
		expect(cleanUrl(42)).toBeUndefined();
		expect(cleanUrl("https://example.com/p#\u200bfrag\u202e")).toBe("https://example.com/p#%E2%80%8Bfrag%E2%80%AE");
		expect(cleanUrl("https://аpple.com/")).toBe("https://xn--pple-43d.com/");
		expect(cleanUrl("https://e.com/\x1b[2J")).toBe("https://e.com/%1B[2J");
	});

	it("names a source by its host when it has no title", () => {
		expect(cleanSource("", "https://docs.python.org/3/")).toEqual({ title: "docs.python.org", url: "https://docs.python.org/3/" });
		expect(cleanSource("t", "ftp://x")).toBeUndefined();
	});

	it("writes a search as text for another API", () => {
		const search = { type: "webSearch" as const, id: "s", query: "q", sources: [{ title: "T", url: "https://t.io/" }] };
		expect(webSearchText(search)).toBe('Searched the web for "q"; results:\n- T <https://t.io/>');
		expect(webSearchText({ ...search, error: "max_uses_exceeded" })).toBe(
			'Searched the web for "q": the search failed (max_uses_exceeded).',
		);
	});
});
