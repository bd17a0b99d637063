// The `ls` tool: one folder's entries, sorted, dotfiles included, folders marked with "/".
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { type Static, Type } from "typebox";
import type { AgentTool } from "../agent/types.js";
import { throwIfAborted } from "./abort.js";
import { describeFsError } from "./fs-errors.js";
import { withNotes } from "./listing-output.js";
import { resolveToolPath } from "./resolve-path.js";

const lsSchema = Type.Object({
	path: Type.Optional(Type.String({ description: "Folder to list (default: the working directory)" })),
	limit: Type.Optional(Type.Integer({ minimum: 1, description: "Maximum number of entries (default 500)" })),
});

export type LsToolInput = Static<typeof lsSchema>;

export interface LsToolDetails {
	count: number;
	/** Set when there were more entries than the limit. */
	entryLimitReached?: number;
}

export interface LsToolOptions {
	/** Default entry limit; 500. */
	defaultLimit?: number;
}

export function createLsTool(cwd: string, options: LsToolOptions = {}): AgentTool<typeof lsSchema, LsToolDetails> {
	const defaultLimit = options.defaultLimit ?? 500;
	return {
		name: "ls",
		label: "ls",
		description: `List a folder's entries, sorted, dotfiles included; folders end with '/'. Stops after ${defaultLimit} entries by default.`,
		parameters: lsSchema,
		async execute(_toolCallId, params: LsToolInput, signal) {
			throwIfAborted(signal);
			const displayPath = params.path ?? ".";
			const folder = resolveToolPath(displayPath, cwd);
			let entries: Dirent[];
			try {
				entries = await readdir(folder, { withFileTypes: true });
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === "ENOTDIR") throw new Error(`Not a directory: ${displayPath}`);
				throw describeFsError(error, displayPath);
			}
			throwIfAborted(signal);
			const limit = params.limit ?? defaultLimit;
			const names = entries.map((e) => e.name).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()) || (a < b ? -1 : 1));
			const shown = names.slice(0, limit);
			const byName = new Map(entries.map((e) => [e.name, e]));
			const lines: string[] = [];
			for (const name of shown) {
				const entry = byName.get(name) as Dirent;
				let isDirectory = entry.isDirectory();
				if (entry.isSymbolicLink()) isDirectory = (await stat(join(folder, name)).catch(() => undefined))?.isDirectory() ?? false;
				lines.push(isDirectory ? `${name}/` : name);
			}
			if (lines.length === 0) return { content: [{ type: "text", text: "(empty directory)" }], details: { count: 0 } };
			const details: LsToolDetails = { count: names.length };
			const notes: string[] = [];
			if (names.length > limit) {
				details.entryLimitReached = limit;
				notes.push(`Showing ${limit} of ${names.length} entries. Use limit=${names.length} to see all`);
			}
			return { content: [{ type: "text", text: withNotes(lines.join("\n"), notes) }], details };
		},
	};
}
