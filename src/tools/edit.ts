// The `edit` tool: exact-text replacements in an existing file, all applied or none.
import { readFile, writeFile } from "node:fs/promises";
import { type Static, Type } from "typebox";
import type { AgentTool } from "../agent/types.js";
import { throwIfAborted } from "./abort.js";
import { applyEdits } from "./edit-apply.js";
import { diffTexts } from "./edit-diff.js";
import { mutateToolFile } from "./file-mutation-queue.js";
import { describeFsError } from "./fs-errors.js";
import { decodeText, encodeText, normalizeLineEndings } from "./text-encoding.js";

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

export function createEditTool(cwd: string): AgentTool<typeof editSchema, EditToolDetails> {
	return {
		name: "edit",
		label: "edit",
		description:
			"Edit a file by exact text replacement. Each oldText must match exactly one place in the original file, whitespace included. Several edits in one call are applied together or not at all; they must not overlap.",
		parameters: editSchema,
		prepareArguments: prepareEditArguments,
		async execute(_toolCallId, params: EditToolInput, signal) {
			return mutateToolFile(params.path, cwd, signal, async (absolutePath) => {
				let raw: string;
				try {
					raw = await readFile(absolutePath, "utf8");
				} catch (error) {
					throw describeFsError(error, params.path);
				}
				const { text: before, lineEnding, hasBom } = decodeText(raw);
				const edits = params.edits.map((e) => ({ oldText: normalizeLineEndings(e.oldText), newText: normalizeLineEndings(e.newText) }));
				const after = applyEdits(before, edits, params.path);
				throwIfAborted(signal);
				try {
					await writeFile(absolutePath, encodeText(after, lineEnding, hasBom), "utf8");
				} catch (error) {
					throw describeFsError(error, params.path);
				}
				const { diff, firstChangedLine } = diffTexts(params.path, before, after);
				const count = edits.length === 1 ? "1 edit" : `${edits.length} edits`;
				return { content: [{ type: "text", text: `Applied ${count} to ${params.path}` }], details: { diff, firstChangedLine } };
			});
		},
	};
}
