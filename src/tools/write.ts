// The `write` tool: creates or overwrites a file, creating its parent folders.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { type Static, Type } from "typebox";
import type { AgentTool } from "../agent/types.js";
import { mutateToolFile } from "./file-mutation-queue.js";
import { describeFsError } from "./fs-errors.js";

const writeSchema = Type.Object({
	path: Type.String({ description: "Path to the file to write (relative to the working directory, or absolute)" }),
	content: Type.String({ description: "The complete new content of the file" }),
});

export type WriteToolInput = Static<typeof writeSchema>;

export interface WriteToolDetails {
	/** UTF-8 bytes written. */
	bytes: number;
}

export function createWriteTool(cwd: string): AgentTool<typeof writeSchema, WriteToolDetails> {
	return {
		name: "write",
		label: "write",
		description: "Write a file, replacing it if it exists. Parent folders are created. Use edit for changes to an existing file.",
		parameters: writeSchema,
		async execute(_toolCallId, params: WriteToolInput, signal) {
			return mutateToolFile(params.path, cwd, signal, async (absolutePath) => {
				try {
					await mkdir(dirname(absolutePath), { recursive: true });
					await writeFile(absolutePath, params.content, "utf8");
				} catch (error) {
					throw describeFsError(error, params.path);
				}
				const bytes = Buffer.byteLength(params.content, "utf8");
				return { content: [{ type: "text", text: `Wrote ${bytes} bytes to ${params.path}` }], details: { bytes } };
			});
		},
	};
}
