// What a server lists besides tools: its prompts (slash commands, prompts.ts) and resources (`@server:uri`
// attachments, resources.ts), read page by page and made safe to keep: names and URIs are the server's
// choice, so they are capped in number and length, and a prompt name must fit a command name.
import type { Prompt, Resource } from "@modelcontextprotocol/sdk/types.js";
import { elicitLine } from "./elicitation.js";

export interface McpPromptArgument {
	name: string;
	description?: string;
	required: boolean;
}

export interface McpPromptDefinition {
	name: string;
	description: string;
	arguments: McpPromptArgument[];
}

export interface McpResourceDefinition {
	uri: string;
	name: string;
	description?: string;
	mimeType?: string;
}

/** At most this many of each per server; a server listing more is cut (the list is for a human to pick from). */
export const MAX_LISTED = 500;
const PROMPT_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const ARGUMENT_NAME = /^[A-Za-z0-9_-]{1,40}$/;
const MAX_URI = 1_000;

/** Every page of a list, bounded: a server that pages forever must not hold the start open. */
export async function listAll<K extends string, R extends { nextCursor?: string } & Record<K, unknown[]>>(
	page: (cursor: { cursor: string } | Record<string, never>) => Promise<R>,
	key: K,
): Promise<R[K]> {
	const items = [] as unknown[] as R[K];
	let cursor: string | undefined;
	for (let n = 0; n < 50; n++) {
		const result = await page(cursor ? { cursor } : {});
		items.push(...result[key]);
		cursor = result.nextCursor;
		if (!cursor) break;
	}
	return items;
}

/** A server's prompts: those offered as commands, and the names of those left out. */
export interface McpPromptLists {
	prompts: McpPromptDefinition[];
	/** Names that cannot be typed as a command, visible-safe and on one line: `/mcp` says why they are missing. */
	unusablePrompts: string[];
}

/** Why a prompt in `unusable` is not a command; `/mcp` says it next to them. */
export const UNUSABLE_PROMPT_REASON = "name not allowed: a command name takes letters, digits, _ and - only, up to 64";

/** The prompts whose names can be typed as a command, their text made visible-safe; the other names kept to be shown. */
export function listedPrompts(prompts: readonly Prompt[]): McpPromptLists {
	const unusable = prompts.filter((p) => !PROMPT_NAME.test(p.name)).slice(0, MAX_UNUSABLE_SHOWN);
	return { prompts: offeredPrompts(prompts), unusablePrompts: unusable.map((p) => elicitLine(p.name, 80) || '""') };
}

/** How many left-out prompt names a server gets shown (its own choice of names must not flood `/mcp`). */
const MAX_UNUSABLE_SHOWN = 20;

function offeredPrompts(prompts: readonly Prompt[]): McpPromptDefinition[] {
	return prompts
		.filter((p) => PROMPT_NAME.test(p.name))
		.slice(0, MAX_LISTED)
		.map((p) => ({
			name: p.name,
			description: elicitLine(p.description ?? p.title ?? "", 200),
			arguments: (p.arguments ?? [])
				.filter((a) => ARGUMENT_NAME.test(a.name))
				.slice(0, 20)
				.map((a) => ({
					name: a.name,
					required: a.required === true,
					...(a.description ? { description: elicitLine(a.description, 200) } : {}),
				})),
		}));
}

/** Resources with a URI that can be typed after `@server:` (no spaces or controls). */
export function offeredResources(resources: readonly Resource[]): McpResourceDefinition[] {
	return resources
		.filter((r) => r.uri.length <= MAX_URI && /^[^\s\x00-\x1f\x7f-\x9f]+$/.test(r.uri))
		.slice(0, MAX_LISTED)
		.map((r) => ({
			uri: r.uri,
			name: elicitLine(r.name, 120),
			...(r.description ? { description: elicitLine(r.description, 200) } : {}),
			...(r.mimeType ? { mimeType: elicitLine(r.mimeType, 80) } : {}),
		}));
}
