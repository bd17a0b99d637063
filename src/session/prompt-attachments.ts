// `@path` in a prompt attaches that file: text files are appended in a fenced block under their path,
// images go along as image content. A word after `@` that is not a readable file (an e-mail address,
// a handle) is left alone.
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, isAbsolute, resolve } from "node:path";
import type { ImageContent } from "../ai/index.js";

/** Larger files are refused with a notice: they would crowd out the conversation. */
export const maxAttachmentBytes = 256 * 1024;

const imageTypes: Record<string, string> = {
	".png": "image/png",
	".jpg": "image/jpeg",
	".jpeg": "image/jpeg",
	".gif": "image/gif",
	".webp": "image/webp",
};

export interface ExpandedPrompt {
	text: string;
	images: ImageContent[];
	/** Paths attached, as written after `@`. */
	attached: string[];
	/** One line per reference that looked like a file but could not be attached. */
	warnings: string[];
}

// `@` at the start or after whitespace; the path runs to the next whitespace. Trailing punctuation
// ("see @a.ts.") is not part of the path.
const reference = /(?<=^|\s)@([^\s]+?)[.,;:!?)]*(?=\s|$)/g;

function fenceFor(text: string): string {
	const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
	return "`".repeat(longest + 1);
}

/** A text file `expandAttachments` appended: its path as written after `@`, and its line count. */
export interface AttachedFile {
	path: string;
	lines: number;
}

/**
 * The inverse of `expandAttachments` for a user message as sent (live or read back from a session
 * file): the prompt as typed and the files appended to it, so the UI shows `Read big.js (400 lines)`
 * instead of the file. A fence is longer than any backtick run of its content, so the last block's
 * opening fence is the last line holding exactly that fence; a block counts only when the prompt before
 * the blocks references its path as `@path` (a typed fenced block is not taken for an attachment).
 */
export function splitAttachments(text: string): { prompt: string; files: AttachedFile[] } {
	const files: AttachedFile[] = [];
	let rest = text;
	for (;;) {
		const close = /\n(`{3,})$/.exec(rest);
		if (!close) break;
		const fence = close[1];
		const body = rest.slice(0, close.index);
		const open = body.lastIndexOf(`\n${fence}\n`);
		if (open === -1) break;
		const pathStart = body.lastIndexOf("\n\n", open - 1);
		if (pathStart === -1) break;
		const path = body.slice(pathStart + 2, open);
		if (path === "" || path.includes("\n")) break;
		const content = body.slice(open + fence.length + 2);
		files.unshift({ path, lines: content === "" ? 0 : content.split("\n").length });
		rest = body.slice(0, pathStart);
	}
	const referenced = new Set([...rest.matchAll(reference)].map((m) => m[1]));
	if (files.length === 0 || !files.every((f) => referenced.has(f.path))) return { prompt: text, files: [] };
	return { prompt: rest, files };
}

export function expandAttachments(text: string, cwd: string): ExpandedPrompt {
	const blocks: string[] = [];
	const images: ImageContent[] = [];
	const attached: string[] = [];
	const warnings: string[] = [];
	const seen = new Set<string>();
	for (const match of text.matchAll(reference)) {
		const written = match[1];
		const path = isAbsolute(written) ? written : resolve(cwd, written);
		if (seen.has(path) || !existsSync(path)) continue;
		seen.add(path);
		const stat = statSync(path);
		if (!stat.isFile()) continue;
		if (stat.size > maxAttachmentBytes) {
			warnings.push(`@${written} not attached: ${stat.size} bytes is over the ${maxAttachmentBytes}-byte limit`);
			continue;
		}
		const mimeType = imageTypes[extname(path).toLowerCase()];
		const data = readFileSync(path);
		if (mimeType) {
			images.push({ type: "image", data: data.toString("base64"), mimeType });
		} else if (data.includes(0)) {
			warnings.push(`@${written} not attached: it is a binary file`);
			continue;
		} else {
			const content = data.toString("utf8");
			const fence = fenceFor(content);
			blocks.push(`${written}\n${fence}\n${content}${content.endsWith("\n") ? "" : "\n"}${fence}`);
		}
		attached.push(written);
	}
	return { text: blocks.length ? `${text}\n\n${blocks.join("\n\n")}` : text, images, attached, warnings };
}
