// The `write` tool: creates or overwrites a file, creating its parent folders. An existing file is
// overwritten only when the model has seen its current content (see file-read-state.ts).
import type { Stats } from "node:fs";
import { mkdir, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { type Static, Type } from "typebox";
import type { AgentTool } from "../agent/types.js";
import { type BeforeMutate, mutateToolFile } from "./file-mutation-queue.js";
import { FileReadState } from "./file-read-state.js";
import { describeFsError } from "./fs-errors.js";
import { notRegularFileError } from "./regular-file.js";

const writeSchema = Type.Object({
	path: Type.String({ description: "Path to the file to write (relative to the working directory, or absolute)" }),
	content: Type.String({ description: "The complete new content of the file" }),
});

export type WriteToolInput = Static<typeof writeSchema>;

export interface WriteToolDetails {
	/** UTF-8 bytes written. */
	bytes: number;
}

export interface WriteToolOptions {
	/** Shared with read and edit; default: a fresh one (so every existing file must be read first). */
	readState?: FileReadState;
	/** Sees each file before this tool changes it. */
	beforeMutate?: BeforeMutate;
}

/** The path's stats, or undefined when nothing is there yet. */
async function statIfExists(absolutePath: string, displayPath: string): Promise<Stats | undefined> {
	try {
		return await stat(absolutePath);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw describeFsError(error, displayPath);
	}
}

export function createWriteTool(cwd: string, options: WriteToolOptions = {}): AgentTool<typeof writeSchema, WriteToolDetails> {
	const readState = options.readState ?? new FileReadState();
	return {
		name: "write",
		label: "write",
		description:
			"Write a file, replacing it if it exists (an existing file must have been read first). Parent folders are created. Use edit for changes to an existing file.",
		parameters: writeSchema,
		async execute(_toolCallId, params: WriteToolInput, signal) {
			return mutateToolFile(
				params.path,
				cwd,
				signal,
				async (absolutePath) => {
					const before = await statIfExists(absolutePath, params.path);
					// Writing into a FIFO would block until a reader comes; a device is not ours to fill.
					if (before && !before.isFile()) throw notRegularFileError(params.path, before, "write");
					readState.assertCanChange(absolutePath, params.path, before, "write");
					try {
						await mkdir(dirname(absolutePath), { recursive: true });
						await writeFile(absolutePath, params.content, "utf8");
						readState.recordSeen(absolutePath, await stat(absolutePath));
					} catch (error) {
						throw describeFsError(error, params.path);
					}
					const bytes = Buffer.byteLength(params.content, "utf8");
					return { content: [{ type: "text", text: `Wrote ${bytes} bytes to ${params.path}` }], details: { bytes } };
				},
				options.beforeMutate,
			);
		},
	};
}
