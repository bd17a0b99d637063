// A server's prompts as slash commands: `/mcp__<server>__<prompt> args`. The arguments are given in
// the prompt's order, separated by spaces, the last taking the rest of the line, or as `name=value`
// words; the prompt's messages become the user's message. Names are the server's: they were filtered to
// command characters when listed (server-lists.ts), and every command starts with `mcp__`, so none can
// stand for a built-in one.
import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import type { ImageContent } from "../../ai/types.js";
import type { McpPromptDefinition } from "./server-lists.js";

/** A prompt's text may not crowd out the conversation. */
export const MAX_PROMPT_CHARS = 100_000;

export function promptCommandName(server: string, prompt: string): string {
	return `mcp__${server}__${prompt}`.toLowerCase();
}

/** `<file> [focus]`: required arguments in angle brackets, optional ones in square brackets. */
export function promptArgsHint(prompt: McpPromptDefinition): string | undefined {
	if (prompt.arguments.length === 0) return undefined;
	return prompt.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(" ");
}

/** The arguments of a command line, or the usage line when a required one is missing. */
export function promptArguments(prompt: McpPromptDefinition, line: string): { args: Record<string, string> } | { error: string } {
	const args: Record<string, string> = {};
	const names = new Set(prompt.arguments.map((a) => a.name));
	const words = line.trim() === "" ? [] : line.trim().split(/\s+/);
	const named = words.length > 0 && words.every((w) => names.has(w.split("=")[0]) && w.includes("="));
	if (named) for (const w of words) args[w.slice(0, w.indexOf("="))] = w.slice(w.indexOf("=") + 1);
	else {
		const rest = [...words];
		prompt.arguments.forEach((a, i) => {
			const value = i === prompt.arguments.length - 1 ? rest.join(" ") : rest.shift();
			if (i === prompt.arguments.length - 1) rest.length = 0;
			if (value) args[a.name] = value;
		});
	}
	const missing = prompt.arguments.filter((a) => a.required && !args[a.name]);
	if (missing.length > 0) return { error: `needs ${missing.map((a) => a.name).join(", ")}` };
	return { args };
}

/** The prompt's messages as one user message: text joined, images along, embedded text resources inlined. */
export function promptMessage(result: GetPromptResult): { text: string; images: ImageContent[] } {
	const parts: string[] = [];
	const images: ImageContent[] = [];
	for (const message of result.messages) {
		const c = message.content;
		if (c.type === "text") parts.push(c.text);
		else if (c.type === "image") images.push({ type: "image", data: c.data, mimeType: c.mimeType });
		else if (c.type === "resource" && "text" in c.resource) parts.push(c.resource.text);
	}
	const text = parts.join("\n\n");
	return {
		text: text.length > MAX_PROMPT_CHARS ? `${text.slice(0, MAX_PROMPT_CHARS)}\n[cut at ${MAX_PROMPT_CHARS} characters]` : text,
		images,
	};
}
