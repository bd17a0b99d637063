// The `ls` tool: one folder's entries, sorted, dotfiles included, folders marked with "/".
import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { type Static, Type } from "typebox";
import type { AgentTool } from "../agent/types.js";
import { throwIfAborted } from "./abort.js";
import { deniedPathError, entryDenial, hiddenNote, type PathDenial } from "./denied-paths.js";
import { describeFsError } from "./fs-errors.js";
import { type LinkCheck, linkAllowed, linkedNote } from "./linked-outside.js";
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
	/** Entries permission deny rules hide from ls: not listed (and counted in a note). */
	denied?: PathDenial;
	/** Whether a link's target may be read without asking; others are not listed (see linked-outside.ts). */
	links?: LinkCheck;
}

/** The entries neither a deny rule nor a link out of reach leaves out, and how many each left out. */
async function visibleEntries(
	folder: string,
	entries: Dirent[],
	denied: PathDenial | undefined,
	links: LinkCheck | undefined,
): Promise<{ shown: Dirent[]; hidden: number; linked: number }> {
	let linked = 0;
	const reachable: Dirent[] = [];
	for (const entry of entries) {
		if (links && entry.isSymbolicLink() && !(await linkAllowed(links, join(folder, entry.name)))) linked++;
		else reachable.push(entry);
	}
	if (!denied) return { shown: reachable, hidden: 0, linked };
	const real = await realpath(folder);
	const shown: Dirent[] = [];
	for (const entry of reachable) {
		const link = entry.isSymbolicLink();
		const isDirectory =
			entry.isDirectory() || (link && ((await stat(join(folder, entry.name)).catch(() => undefined))?.isDirectory() ?? false));
		if (!(await entryDenial(denied, real, entry.name, isDirectory, link, join(folder, entry.name)))) shown.push(entry);
	}
	return { shown, hidden: reachable.length - shown.length, linked };
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
			let listed: Dirent[];
			try {
				listed = await readdir(folder, { withFileTypes: true });
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === "ENOTDIR") throw new Error(`Not a directory: ${displayPath}`);
				throw describeFsError(error, displayPath);
			}
			const rule = options.denied?.(await realpath(folder), true);
			if (rule) throw deniedPathError("list", displayPath, rule);
			const { shown: entries, hidden, linked } = await visibleEntries(folder, listed, options.denied, options.links);
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
			const skipped = [hiddenNote({ count: hidden }, "entry"), linkedNote(linked)].filter((n): n is string => n !== undefined);
			if (lines.length === 0) {
				return { content: [{ type: "text", text: withNotes("(empty directory)", skipped) }], details: { count: 0 } };
			}
			const details: LsToolDetails = { count: names.length };
			const notes: string[] = [...skipped];
			if (names.length > limit) {
				details.entryLimitReached = limit;
				notes.push(`Showing ${limit} of ${names.length} entries. Use limit=${names.length} to see all`);
			}
			return { content: [{ type: "text", text: withNotes(lines.join("\n"), notes) }], details };
		},
	};
}
