// A fetched body as text the model can read: HTML as Markdown (scripts, styles and navigation
// dropped), text and JSON as they are, binary refused. No state; the HTML libraries (node-html-parser
// and node-html-markdown with their entity tables, ~290 KB of the bundle) are loaded on the first HTML
// page, not at start-up (docs/startup.md).
import type { HTMLElement } from "node-html-parser";

/** The HTML libraries, loaded once, when a page first needs them. */
async function htmlLibraries() {
	const [{ NodeHtmlMarkdown }, { parse }] = await Promise.all([import("node-html-markdown"), import("node-html-parser")]);
	return { NodeHtmlMarkdown, parse };
}

/** Elements that carry no reading text: dropped before conversion. */
const DROPPED = ["script", "style", "noscript", "template", "nav", "svg", "iframe", "object", "embed", "canvas", "link", "meta"];

export type PageText =
	| { kind: "text"; text: string; contentType: string; title?: string; note?: string }
	| { kind: "binary"; contentType: string };

const TEXT_TYPES = /^(?:text\/|application\/(?:json|xml|javascript|x-javascript|ecmascript|x-yaml|yaml|toml|x-sh)\b|[^;]*\+(?:json|xml)\b)/;
const HTML_TYPES = /^(?:text\/html|application\/xhtml\+xml)\b/;

/** The charset a content type names, if TextDecoder knows it; else utf-8. */
function decoderFor(contentType: string): TextDecoder {
	const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
	try {
		return new TextDecoder(charset ?? "utf-8");
	} catch {
		return new TextDecoder("utf-8");
	}
}

/** Whether a body with no (or a generic) content type looks binary: a NUL in its first 8 KB. */
function looksBinary(body: Buffer): boolean {
	return body.subarray(0, 8192).includes(0);
}

async function htmlToMarkdown(html: string, selector: string | undefined): Promise<{ text: string; title?: string; note?: string }> {
	const { NodeHtmlMarkdown, parse } = await htmlLibraries();
	const root = parse(html, { comment: false, blockTextElements: { script: false, style: false, pre: true, noscript: false } });
	for (const element of root.querySelectorAll(DROPPED.join(","))) element.remove();
	const title = root.querySelector("title")?.text.trim() || undefined;
	let parts: HTMLElement[] = [];
	let note: string | undefined;
	if (selector) {
		try {
			parts = root.querySelectorAll(selector);
			if (parts.length === 0) note = `The selector "${selector}" matched nothing: the whole page is shown.`;
		} catch {
			note = `The selector "${selector}" is not a valid CSS selector: the whole page is shown.`;
		}
	}
	if (parts.length === 0) {
		// The page's main content when it marks it; else the body.
		const main = root.querySelector("main") ?? root.querySelector("article") ?? root.querySelector("body") ?? root;
		parts = [main];
	}
	const text = parts.map((p) => NodeHtmlMarkdown.translate(p.outerHTML)).join("\n\n---\n\n");
	return { text: text.trim(), title, note };
}

/** The body as text, by its content type (and a look at its bytes when the type says nothing). */
export async function pageText(body: Buffer, contentTypeHeader: string | undefined, selector?: string): Promise<PageText> {
	const contentType = (contentTypeHeader ?? "").trim();
	const type = contentType.toLowerCase();
	const generic = type === "" || type.startsWith("application/octet-stream");
	if (!TEXT_TYPES.test(type) && !(generic && !looksBinary(body))) return { kind: "binary", contentType: contentType || "unknown" };
	const text = decoderFor(contentType).decode(body);
	if (HTML_TYPES.test(type) || (generic && /^\s*(?:<!doctype html|<html)/i.test(text))) {
		return { kind: "text", contentType: contentType || "text/html", ...(await htmlToMarkdown(text, selector)) };
	}
	const note = selector ? `The selector applies to HTML pages only; this is ${contentType || "text"}.` : undefined;
	return { kind: "text", text, contentType: contentType || "text/plain", note };
}
