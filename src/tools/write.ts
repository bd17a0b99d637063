// The `write` tool: creates or overwrites a file, creating its parent folders. An existing file is
// overwritten only when the model has seen its current content (see file-read-state.ts).
import { type Static, Type } from "typebox";
import type { AgentTool } from "../agent/types.js";
import { type BeforeMutate, mutateToolFile } from "./file-mutation-queue.js";
import { FileReadState } from "./file-read-state.js";
import { describeFsError } from "./fs-errors.js";
import { openPinned } from "./pinned-open.js";
import { realTarget } from "./real-path.js";

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
	/**
	 * The real path the permission check approved for this call (it is taken, once). The write goes
	 * there and nowhere else, or fails; without it, the path as it resolves when the write starts.
	 */
	checkedPath?: (toolCallId: string) => string | undefined;
}

export function createWriteTool(cwd: string, options: WriteToolOptions = {}): AgentTool<typeof writeSchema, WriteToolDetails> {
	const readState = options.readState ?? new FileReadState();
	return {
		name: "write",
		label: "write",
		description:
			"Write a file, replacing it if it exists (an existing file must have been read first). Parent folders are created. Use edit for changes to an existing file.",
		parameters: writeSchema,
		async execute(toolCallId, params: WriteToolInput, signal) {
			const checked = options.checkedPath?.(toolCallId);
			return mutateToolFile(
				params.path,
				cwd,
				signal,
				async (absolutePath) => {
					const { handle, stats, created } = await openPinned(checked ?? realTarget(absolutePath), params.path, {
						create: true,
						verb: "write",
					});
					try {
						readState.assertCanChange(absolutePath, params.path, created ? undefined : stats, "write");
						await handle.truncate(0);
						await handle.writeFile(params.content, "utf8");
						readState.recordSeen(absolutePath, await handle.stat());
					} catch (error) {
						throw (error as NodeJS.ErrnoException).code ? describeFsError(error, params.path) : error;
					} finally {
						await handle.close();
					}
					const bytes = Buffer.byteLength(params.content, "utf8");
					return { content: [{ type: "text", text: `Wrote ${bytes} bytes to ${params.path}` }], details: { bytes } };
				},
				options.beforeMutate,
			);
		},
	};
}
