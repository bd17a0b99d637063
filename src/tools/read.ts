// The `read` tool: a text file's lines (a window of them for large files), or an image as image content.
import { readFile } from "node:fs/promises";
import { type Static, Type } from "typebox";
import type { AgentTool } from "../agent/types.js";
import type { ImageContent, TextContent } from "../ai/types.js";
import { throwIfAborted } from "./abort.js";
import { detectImageMimeType, looksBinary } from "./file-kind.js";
import { describeFsError } from "./fs-errors.js";
import { resolveToolPath } from "./resolve-path.js";
import { decodeText } from "./text-encoding.js";
import {
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	formatSize,
	MAX_LINE_CHARS,
	type TruncationResult,
	truncateHead,
	truncateLine,
} from "./truncate.js";

const readSchema = Type.Object({
	path: Type.String({ description: "Path to the file to read (relative to the working directory, or absolute)" }),
	offset: Type.Optional(Type.Integer({ minimum: 1, description: "Line number to start reading from (1-indexed)" })),
	limit: Type.Optional(Type.Integer({ minimum: 1, description: "Maximum number of lines to read" })),
});

export type ReadToolInput = Static<typeof readSchema>;

export interface ReadToolDetails {
	/** Set when the window was cut by the line or byte cap. */
	truncation?: TruncationResult;
	/** Set for images. */
	mimeType?: string;
}

export interface ReadToolOptions {
	/** Line cap per call; default 2,000. */
	maxLines?: number;
	/** Byte cap per call; default 50 KB. */
	maxBytes?: number;
}

export function createReadTool(cwd: string, options: ReadToolOptions = {}): AgentTool<typeof readSchema, ReadToolDetails> {
	const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	return {
		name: "read",
		label: "read",
		description: `Read a file. Text files come back as text; images (png, jpg, gif, webp) as images. Output stops after ${maxLines} lines or ${maxBytes / 1024} KB, whichever comes first; use offset/limit to read further.`,
		parameters: readSchema,
		async execute(_toolCallId, params: ReadToolInput, signal) {
			throwIfAborted(signal);
			const absolutePath = resolveToolPath(params.path, cwd);
			let bytes: Buffer;
			try {
				bytes = await readFile(absolutePath);
			} catch (error) {
				throw describeFsError(error, params.path);
			}
			throwIfAborted(signal);

			const mimeType = detectImageMimeType(bytes);
			if (mimeType) {
				const image: ImageContent = { type: "image", data: bytes.toString("base64"), mimeType };
				const note: TextContent = { type: "text", text: `Read image file ${params.path} [${mimeType}, ${formatSize(bytes.length)}]` };
				return { content: [note, image], details: { mimeType } };
			}
			if (looksBinary(bytes)) {
				const text = `Cannot show ${params.path}: it is a binary file (${formatSize(bytes.length)}). Use bash with a suitable tool (xxd, file, strings) to inspect it.`;
				return { content: [{ type: "text", text }], details: {} };
			}
			return readTextWindow(bytes.toString("utf8"), params, maxLines, maxBytes);
		},
	};
}

function readTextWindow(raw: string, params: ReadToolInput, maxLines: number, maxBytes: number) {
	const allLines = decodeText(raw).text.split("\n");
	// A final newline ends the last line; it does not start another.
	if (allLines.length > 1 && allLines[allLines.length - 1] === "") allLines.pop();
	const totalLines = allLines.length;
	const start = (params.offset ?? 1) - 1;
	if (start >= totalLines) {
		throw new Error(`Offset ${params.offset} is past the end of ${params.path} (${totalLines} lines)`);
	}
	const end = params.limit === undefined ? totalLines : Math.min(totalLines, start + params.limit);
	const window = allLines.slice(start, end).map((line) => truncateLine(line, MAX_LINE_CHARS).text);
	const truncation = truncateHead(window.join("\n"), { maxLines, maxBytes });
	const firstShown = start + 1;

	let text: string;
	let details: ReadToolDetails = {};
	if (truncation.firstLineExceedsLimit) {
		text = `[Line ${firstShown} is over the ${formatSize(maxBytes)} limit even after cutting to ${MAX_LINE_CHARS} chars. Use bash: sed -n '${firstShown}p' ${params.path} | head -c ${maxBytes}]`;
		details = { truncation };
	} else if (truncation.truncated) {
		const lastShown = start + truncation.outputLines;
		const cap = truncation.truncatedBy === "bytes" ? ` (${formatSize(maxBytes)} limit)` : "";
		text = `${truncation.content}\n\n[Showing lines ${firstShown}-${lastShown} of ${totalLines}${cap}. Use offset=${lastShown + 1} to continue.]`;
		details = { truncation };
	} else if (end < totalLines) {
		text = `${truncation.content}\n\n[Showing lines ${firstShown}-${end} of ${totalLines}. Use offset=${end + 1} to continue.]`;
	} else {
		text = truncation.content;
	}
	return { content: [{ type: "text" as const, text }], details };
}
