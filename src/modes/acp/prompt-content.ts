// A `session/prompt`'s content blocks as Rudder input: text as typed, images as image content, an
// embedded resource (a file the editor attached, unsaved changes included) as its text inside a
// <context> block naming it, a resource link as an @path mention Rudder expands itself.

import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { ImageContent } from "../../ai/types.js";

export interface PromptInput {
	text: string;
	images: ImageContent[];
}

export function promptInput(blocks: readonly ContentBlock[]): PromptInput {
	const parts: string[] = [];
	const images: ImageContent[] = [];
	for (const block of blocks) {
		switch (block.type) {
			case "text":
				parts.push(block.text);
				break;
			case "image":
				images.push({ type: "image", data: block.data, mimeType: block.mimeType });
				break;
			case "resource_link":
				parts.push(mention(block.uri));
				break;
			case "resource": {
				const resource = block.resource;
				// Binary resources (blob) are not advertised; a client that sends one gets its name only.
				const body = "text" in resource ? resource.text : "(binary content not included)";
				parts.push(`<context ref="${resource.uri.replace(/"/g, "%22")}">\n${body}\n</context>`);
				break;
			}
			default:
				// Audio is not advertised; a client that sends it anyway gets it left out, not an error.
				break;
		}
	}
	return { text: parts.join("\n"), images };
}

/** A file URI as Rudder's `@path` mention (expanded from the session's cwd); other URIs as they are. */
function mention(uri: string): string {
	if (!uri.startsWith("file://")) return uri;
	try {
		return `@${fileURLToPath(uri)}`;
	} catch {
		return uri;
	}
}
