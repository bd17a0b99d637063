// What the completion menu offers: `/command` at the start of the input, `@path` anywhere. Pure, given
// the command list, a directory lister and the project's paths, so it is tested without a session or
// a file system. `@` with a bare folder path lists that folder; with anything else it fuzzy-matches
// the project's (gitignore-filtered) paths.
import type { SlashCommandInfo } from "../../session/types.js";

export interface Completion {
	/** What the menu shows. */
	label: string;
	/** Shown dim after the label, in a column of its own. */
	detail?: string;
	/** The input text and cursor after choosing it. */
	text: string;
	cursor: number;
	/** Enter on this entry runs it at once (a command that takes no argument). */
	submits?: boolean;
}

export interface DirEntry {
	name: string;
	isDirectory: boolean;
}

/** Matches offered at most (the menu scrolls through them). */
export const MAX_COMPLETIONS = 50;

export interface CompletionSources {
	commands: readonly SlashCommandInfo[];
	listDir: (dir: string) => DirEntry[];
	/**
	 * The best of the project's paths ("/"-separated, folders ending in "/") for a fuzzy query, best
	 * first, at most MAX_COMPLETIONS; undefined while the paths are not listed yet.
	 */
	findPaths?: (query: string) => readonly string[] | undefined;
	/** MCP resources as `<server>:<uri>` (their `@` references), with the resource's name. */
	resources?: () => readonly { ref: string; name: string }[];
}

export function completionsFor(text: string, cursor: number, sources: CompletionSources): Completion[] {
	const before = text.slice(0, cursor);
	const after = text.slice(cursor);
	const command = /^\/(\S*)$/.exec(before);
	if (command) return commandCompletions(command[1], after, sources.commands);

	const at = /(^|\s)@(\S*)$/.exec(before);
	if (!at) return [];
	const partial = at[2];
	const head = before.slice(0, before.length - partial.length);
	const fuzzy = partial === "" || partial.endsWith("/") ? undefined : sources.findPaths?.(partial);
	const found = fuzzy ?? folderListing(partial, sources.listDir);
	// Resources first once the word names a server (`@docs:`), after the files otherwise.
	const lower = partial.toLowerCase();
	const resources = (sources.resources?.() ?? [])
		.filter((r) => r.ref.toLowerCase().startsWith(lower))
		.map((r) => {
			const inserted = `${head}${r.ref} `;
			return { label: `@${r.ref}`, detail: r.name, text: inserted + after, cursor: inserted.length };
		});
	const files = found.map((path) => {
		const isDirectory = path.endsWith("/");
		const inserted = head + path + (isDirectory ? "" : " ");
		return { label: path, text: inserted + after, cursor: inserted.length };
	});
	return (partial.includes(":") ? [...resources, ...files] : [...files, ...resources]).slice(0, MAX_COMPLETIONS);
}

function commandCompletions(partial: string, after: string, commands: readonly SlashCommandInfo[]): Completion[] {
	const lower = partial.toLowerCase();
	return commands
		.filter((c) => c.name.toLowerCase().startsWith(lower))
		.slice(0, MAX_COMPLETIONS)
		.map((c) => {
			const inserted = `/${c.name} `;
			return {
				label: `/${c.name}`,
				detail: [c.args, c.description].filter(Boolean).join("  "),
				text: inserted + after.trimStart(),
				cursor: inserted.length,
				// Enter runs a command that needs nothing more: no arguments, optional ones only, or the name
				// typed out in full (then its own usage line says what is missing).
				...(!c.args || c.args.startsWith("[") || c.name.toLowerCase() === lower ? { submits: true } : {}),
			};
		});
}

/** Entries of the folder `partial` names that start with its last segment; hidden ones only when asked. */
function folderListing(partial: string, listDir: (dir: string) => DirEntry[]): string[] {
	const slash = partial.lastIndexOf("/");
	const dir = slash === -1 ? "" : partial.slice(0, slash + 1);
	const prefix = partial.slice(slash + 1);
	let entries: DirEntry[];
	try {
		entries = listDir(dir || ".");
	} catch {
		return [];
	}
	return entries
		.filter((e) => e.name.startsWith(prefix) && (prefix.startsWith(".") || !e.name.startsWith(".")))
		.sort((a, b) => a.name.localeCompare(b.name))
		.slice(0, MAX_COMPLETIONS)
		.map((e) => `${dir}${e.name}${e.isDirectory ? "/" : ""}`);
}
