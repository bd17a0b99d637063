// Web search run by the provider on its own servers: which models have it, and the cleaning of what a
// search or a citation brings back. Titles and URLs come from arbitrary web pages through the vendor:
// they are untrusted text, cleaned here once so that every consumer (screen, transcript, export, the
// next request's text form) gets the same safe form.
import { sanitizeTerminalText } from "../safety/sanitize.js";
import type { Model, WebSearchContent, WebSource } from "./types.js";

const MAX_TITLE = 200;
const MAX_URL = 500;
/** More sources than this in one search or one text block add nothing on screen or for the model. */
const MAX_SOURCES = 20;

/**
 * Whether the model's API runs web searches itself: Anthropic's messages API (`web_search_20250305`),
 * OpenAI's Responses API (`web_search`), Gemini 3 (`googleSearch`; earlier Gemini models refuse it
 * beside function declarations). Only the vendor's own provider: a compatible server elsewhere (a
 * proxy, a local gateway) may not know the tool.
 */
export function hostedWebSearch(model: Pick<Model, "api" | "provider" | "id">): boolean {
	if (model.api === "anthropic-messages") return model.provider === "anthropic";
	if (model.api === "openai-responses") return model.provider === "openai";
	if (model.api === "google-generative-ai") return model.provider === "google" && /^gemini-(?:[3-9]|\d\d)/.test(model.id);
	return false;
}

/** A title on one line, controls and invisible characters made visible, clipped. */
export function cleanTitle(title: unknown): string {
	const line = sanitizeTerminalText(String(title ?? "").replace(/[\r\n\t\f\v\u2028\u2029]+/g, " ")).trim();
	return line.length > MAX_TITLE ? `${line.slice(0, MAX_TITLE - 1)}…` : line;
}

/**
 * An http(s) URL in the WHATWG parser's serialisation (controls and spaces percent-encoded, a
 * non-ASCII host as punycode, so a look-alike host shows as what it is); undefined for anything else.
 */
export function cleanUrl(url: unknown): string | undefined {
	if (typeof url !== "string") return undefined;
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return undefined;
	}
	if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
	// The serialisation percent-encodes controls but leaves some invisible characters (bidi marks) in
	// the query or fragment; those are encoded too.
	const href = parsed.href.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
	return href.length > MAX_URL ? `${href.slice(0, MAX_URL - 1)}…` : href;
}

/** A source from raw vendor fields; undefined when the URL is not http(s). */
export function cleanSource(title: unknown, url: unknown): WebSource | undefined {
	const clean = cleanUrl(url);
	if (!clean) return undefined;
	return { title: cleanTitle(title) || new URL(clean).hostname, url: clean };
}

/** Adds `source` unless its URL is there already or the list is full. */
export function addSource(list: WebSource[], source: WebSource | undefined): void {
	if (!source || list.length >= MAX_SOURCES || list.some((s) => s.url === source.url)) return;
	list.push(source);
}

/**
 * A search as plain text, for an API other than the one that ran it (the model changed): the replay
 * blocks mean nothing there, but what was searched and found is still context.
 */
export function webSearchText(search: WebSearchContent): string {
	const found = search.sources.map((s) => `- ${s.title} <${s.url}>`).join("\n");
	const what = search.query ? `Searched the web for "${search.query}"` : "Searched the web";
	if (search.error) return `${what}: the search failed (${search.error}).`;
	return found ? `${what}; results:\n${found}` : `${what}; no results.`;
}
