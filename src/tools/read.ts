// The `read` tool: a text file's lines (a window of them for large files), or an image as image content.
import type { FileHandle } from "node:fs/promises";
import { type Static, Type } from "typebox";
import type { AgentTool } from "../agent/types.js";
import type { ImageContent, TextContent } from "../ai/types.js";
import { throwIfAborted } from "./abort.js";
import { BINARY_SNIFF_BYTES, detectImageMimeType, looksBinary } from "./file-kind.js";
import type { FileReadState } from "./file-read-state.js";
import { describeFsError } from "./fs-errors.js";
import { type LineWindow, readLineWindow } from "./line-window.js";
import { openPinned } from "./pinned-open.js";
import { openRegularFile, readHead } from "./regular-file.js";
import { resolveToolPath } from "./resolve-path.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, MAX_LINE_CHARS, type TruncationResult, truncateHead } from "./truncate.js";

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
	/** Larger files are read only with offset/limit (and their lines are not all counted); default 10 MB. */
	maxFileBytes?: number;
	/** Shared with write and edit, so they can tell whether the model saw the current file. */
	readState?: FileReadState;
	/**
	 * The real path the permission check decided on for this call (taken once): the read opens that
	 * file, without following a symlink swapped in since (see pinned-open.ts), or fails.
	 */
	checkedPath?: (toolCallId: string) => string | undefined;
}

export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

interface ReadLimits {
	maxLines: number;
	maxBytes: number;
	maxFileBytes: number;
}

export function createReadTool(cwd: string, options: ReadToolOptions = {}): AgentTool<typeof readSchema, ReadToolDetails> {
	const limits: ReadLimits = {
		maxLines: options.maxLines ?? DEFAULT_MAX_LINES,
		maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
		maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
	};
	const readState = options.readState;
	return {
		name: "read",
		label: "read",
		description: `Read a file. Text files come back as text; images (png, jpg, gif, webp) as images. Output stops after ${limits.maxLines} lines or ${limits.maxBytes / 1024} KB, whichever comes first; use offset/limit to read further. Files over ${formatSize(limits.maxFileBytes)} need offset/limit.`,
		parameters: readSchema,
		async execute(toolCallId, params: ReadToolInput, signal) {
			const checked = options.checkedPath?.(toolCallId);
			throwIfAborted(signal);
			const absolutePath = resolveToolPath(params.path, cwd);
			const { handle, stats } = checked
				? await openPinned(checked, params.path, { create: false, verb: "read", readOnly: true })
				: await openRegularFile(absolutePath, params.path);
			try {
				const result = await readOpenFile(handle, stats.size, params, limits, signal);
				// The stats were taken before reading: a change made while reading still counts as unseen.
				readState?.recordSeen(absolutePath, stats);
				return result;
			} catch (error) {
				// Our own errors are already worded for the model; Node's (EIO, ...) get the one-line form.
				throw (error as NodeJS.ErrnoException).code ? describeFsError(error, params.path) : error;
			} finally {
				await handle.close();
			}
		},
	};
}

async function readOpenFile(handle: FileHandle, size: number, params: ReadToolInput, limits: ReadLimits, signal?: AbortSignal) {
	const head = await readHead(handle, BINARY_SNIFF_BYTES);
	throwIfAborted(signal);
	const mimeType = detectImageMimeType(head);
	if (mimeType) {
		if (size > limits.maxFileBytes) {
			throw new Error(`Cannot show ${params.path}: the image is ${formatSize(size)}, over the ${formatSize(limits.maxFileBytes)} limit`);
		}
		const bytes = size <= head.length ? head : await readHead(handle, size);
		const image: ImageContent = { type: "image", data: bytes.toString("base64"), mimeType };
		const note: TextContent = { type: "text", text: `Read image file ${params.path} [${mimeType}, ${formatSize(bytes.length)}]` };
		return { content: [note, image], details: { mimeType } };
	}
	if (looksBinary(head)) {
		const text = `Cannot show ${params.path}: it is a binary file (${formatSize(size)}). Use bash with a suitable tool (xxd, file, strings) to inspect it.`;
		return { content: [{ type: "text" as const, text }], details: {} };
	}
	if (size > limits.maxFileBytes && params.offset === undefined && params.limit === undefined) {
		throw new Error(
			`${params.path} is ${formatSize(size)}, over the ${formatSize(limits.maxFileBytes)} limit for reading a whole file: pass offset and limit to read a part (e.g. offset=1, limit=${limits.maxLines}), or search it with grep`,
		);
	}
	const start = (params.offset ?? 1) - 1;
	const window = await readLineWindow(handle, {
		start,
		// One line more than the cap, so the cut below knows there was more.
		maxLines: Math.min(params.limit ?? Number.POSITIVE_INFINITY, limits.maxLines + 1),
		maxBytes: limits.maxBytes,
		maxLineChars: MAX_LINE_CHARS,
		countBytes: limits.maxFileBytes,
		signal,
	});
	return formatTextWindow(window, start, size, params, limits);
}

function formatTextWindow(window: LineWindow, start: number, size: number, params: ReadToolInput, limits: ReadLimits) {
	const { maxBytes } = limits;
	if (window.complete && start >= window.totalLines) {
		throw new Error(`Offset ${params.offset} is past the end of ${params.path} (${window.totalLines} lines)`);
	}
	const truncation = truncateHead(window.lines.join("\n"), { maxLines: limits.maxLines, maxBytes });
	const firstShown = start + 1;
	const ofTotal = window.complete ? `${window.totalLines}` : `a ${formatSize(size)} file`;
	const end = start + window.lines.length;

	let text: string;
	let details: ReadToolDetails = {};
	if (truncation.firstLineExceedsLimit) {
		text = `[Line ${firstShown} is over the ${formatSize(maxBytes)} limit even after cutting to ${MAX_LINE_CHARS} chars. Use bash: sed -n '${firstShown}p' ${params.path} | head -c ${maxBytes}]`;
		details = { truncation };
	} else if (truncation.truncated) {
		const lastShown = start + truncation.outputLines;
		const cap = truncation.truncatedBy === "bytes" ? ` (${formatSize(maxBytes)} limit)` : "";
		text = `${truncation.content}\n\n[Showing lines ${firstShown}-${lastShown} of ${ofTotal}${cap}. Use offset=${lastShown + 1} to continue.]`;
		details = { truncation };
	} else if (!window.complete || end < window.totalLines) {
		text = `${truncation.content}\n\n[Showing lines ${firstShown}-${end} of ${ofTotal}. Use offset=${end + 1} to continue.]`;
	} else {
		text = truncation.content;
	}
	return { content: [{ type: "text" as const, text }], details };
}
