// `@<server>:<uri>` in a prompt attaches that resource of a running MCP server, the way `@path` attaches
// a file: its text appended in a fenced block under the reference, marked as the server's, with every
// control and invisible character made visible (the model reads what the user would see) and capped.
// Binary contents are named, not inlined.
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { sanitizeDocumentText } from "../../safety/sanitize.js";

export const MAX_RESOURCE_CHARS = 256 * 1024;

/** `@server:uri` words of a prompt whose server is one of `servers`, in order, each once. */
export function resourceReferences(text: string, servers: ReadonlySet<string>): { server: string; uri: string; written: string }[] {
	const found = new Map<string, { server: string; uri: string; written: string }>();
	for (const match of text.matchAll(/(?<=^|\s)@([A-Za-z0-9_-]{1,40}):(\S+?)[.,;!?)]*(?=\s|$)/g)) {
		const [, server, uri] = match;
		if (servers.has(server)) found.set(`${server}:${uri}`, { server, uri, written: `${server}:${uri}` });
	}
	return [...found.values()];
}

function fenceFor(text: string): string {
	const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
	return "`".repeat(longest + 1);
}

/** The block a resource adds to the prompt, or why it was not attached. */
export function resourceBlock(server: string, written: string, result: ReadResourceResult): { block: string } | { warning: string } {
	const texts = result.contents.flatMap((c) => ("text" in c && typeof c.text === "string" ? [c.text] : []));
	if (texts.length === 0) return { warning: `@${written} not attached: the server sent no text (binary content)` };
	let text = sanitizeDocumentText(texts.join("\n"));
	if (text.length > MAX_RESOURCE_CHARS) text = `${text.slice(0, MAX_RESOURCE_CHARS)}\n[cut at ${MAX_RESOURCE_CHARS} characters]`;
	const body = `[MCP resource from the server "${server}": the server's text, not the user's]\n${text}`;
	const fence = fenceFor(body);
	return { block: `${written}\n${fence}\n${body}${body.endsWith("\n") ? "" : "\n"}${fence}` };
}
