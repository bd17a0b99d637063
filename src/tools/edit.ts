// The `edit` tool: exact-text replacements in an existing file, all applied or none.
import type { FileHandle } from "node:fs/promises";
import { type Static, Type } from "typebox";
import type { AgentTool } from "../agent/types.js";
import { throwIfAborted } from "./abort.js";
import { applyEdits } from "./edit-apply.js";
import { diffTexts } from "./edit-diff.js";
import { type BeforeMutate, mutateToolFile } from "./file-mutation-queue.js";
import { FileReadState } from "./file-read-state.js";
import { describeFsError } from "./fs-errors.js";
import { openPinned } from "./pinned-open.js";
import { realTarget } from "./real-path.js";
import { readHead } from "./regular-file.js";
import { decodeText, encodeText, normalizeLineEndings } from "./text-encoding.js";
import { formatSize } from "./truncate.js";

const replacementSchema = Type.Object({
	oldText: Type.String({ description: "Exact text to replace; must occur exactly once in the original file" }),
	newText: Type.String({ description: "Text to put in its place" }),
});

const editSchema = Type.Object({
	path: Type.String({ description: "Path to the file to edit (relative to the working directory, or absolute)" }),
	edits: Type.Array(replacementSchema, {
		minItems: 1,
		description: "Replacements, each matched against the original file (not against the result of earlier edits)",
	}),
});

export type EditToolInput = Static<typeof editSchema>;

export interface EditToolDetails {
	/** Unified diff of the change. */
	diff: string;
	/** 1-based line of the first change in the new file. */
	firstChangedLine: number | undefined;
}

/** Accepts the legacy single-edit shape `{path, oldText, newText}` and a JSON-encoded `edits` string. */
export function prepareEditArguments(raw: unknown): unknown {
	if (!raw || typeof raw !== "object") return raw;
	const args = { ...(raw as Record<string, unknown>) };
	if (typeof args.edits === "string") {
		try {
			args.edits = JSON.parse(args.edits);
		} catch {
			// Left as is: validation then names the field.
		}
	}
	if (args.edits === undefined && typeof args.oldText === "string" && typeof args.newText === "string") {
		args.edits = [{ oldText: args.oldText, newText: args.newText }];
		delete args.oldText;
		delete args.newText;
	}
	return args;
}

export interface EditToolOptions {
	/** Shared with read and write; default: a fresh one (so every file must be read first). */
	readState?: FileReadState;
	/** Sees each file before this tool changes it. */
	beforeMutate?: BeforeMutate;
	/** The real path the permission check approved for this call (see write.ts). */
	checkedPath?: (toolCallId: string) => string | undefined;
}

/** Larger files are edited with bash (sed); the whole file is held in memory twice while editing. */
export const EDIT_MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The file opened once, read and written through the same descriptor, at the checked real path (see
 * pinned-open.ts); its stats are checked against what the model saw.
 */
async function openForEdit(
	realPath: string,
	absolutePath: string,
	displayPath: string,
	readState: FileReadState,
): Promise<{ handle: FileHandle; raw: string }> {
	const { handle, stats } = await openPinned(realPath, displayPath, { create: false, verb: "edit" });
	try {
		readState.assertCanChange(absolutePath, displayPath, stats, "edit");
		if (stats.size > EDIT_MAX_FILE_BYTES) {
			throw new Error(
				`Cannot edit ${displayPath}: it is ${formatSize(stats.size)}, over the ${formatSize(EDIT_MAX_FILE_BYTES)} limit; use bash`,
			);
		}
		return { handle, raw: (await readHead(handle, stats.size)).toString("utf8") };
	} catch (error) {
		await handle.close();
		throw (error as NodeJS.ErrnoException).code ? describeFsError(error, displayPath) : error;
	}
}

export function createEditTool(cwd: string, options: EditToolOptions = {}): AgentTool<typeof editSchema, EditToolDetails> {
	const readState = options.readState ?? new FileReadState();
	return {
		name: "edit",
		label: "edit",
		description:
			"Edit a file by exact text replacement (the file must have been read first). Each oldText must match exactly one place in the original file, whitespace included. Several edits in one call are applied together or not at all; they must not overlap.",
		parameters: editSchema,
		prepareArguments: prepareEditArguments,
		async execute(toolCallId, params: EditToolInput, signal) {
			const checked = options.checkedPath?.(toolCallId);
			return mutateToolFile(
				params.path,
				cwd,
				signal,
				async (absolutePath) => {
					const { handle, raw } = await openForEdit(checked ?? realTarget(absolutePath), absolutePath, params.path, readState);
					try {
						const { text: before, lineEnding, hasBom } = decodeText(raw);
						const edits = params.edits.map((e) => ({ oldText: normalizeLineEndings(e.oldText), newText: normalizeLineEndings(e.newText) }));
						const after = applyEdits(before, edits, params.path);
						throwIfAborted(signal);
						try {
							await handle.truncate(0);
							// Reads were positioned, so the descriptor is still at 0: writeFile writes from the start.
							await handle.writeFile(encodeText(after, lineEnding, hasBom), "utf8");
							readState.recordSeen(absolutePath, await handle.stat());
						} catch (error) {
							throw describeFsError(error, params.path);
						}
						const { diff, firstChangedLine } = diffTexts(params.path, before, after);
						const count = edits.length === 1 ? "1 edit" : `${edits.length} edits`;
						return { content: [{ type: "text", text: `Applied ${count} to ${params.path}` }], details: { diff, firstChangedLine } };
					} finally {
						await handle.close();
					}
				},
				options.beforeMutate,
			);
		},
	};
}
