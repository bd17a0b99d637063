// What Tab would complete: `/command` at the start of the input, `@path` anywhere. Pure, given the
// command list and a directory lister, so it is tested without a session or a file system.
import type { SlashCommandInfo } from "../src/session/types.js";

export interface Completion {
	/** What the menu shows. */
	label: string;
	/** Shown dim after the label. */
	detail?: string;
	/** The input text and cursor after choosing it. */
	text: string;
	cursor: number;
}

export interface DirEntry {
	name: string;
	isDirectory: boolean;
}

export const MAX_COMPLETIONS = 5;

export function completionsFor(
	text: string,
	cursor: number,
	commands: readonly SlashCommandInfo[],
	listDir: (dir: string) => DirEntry[],
): Completion[] {
	const before = text.slice(0, cursor);
	const after = text.slice(cursor);
	const command = /^\/(\S*)$/.exec(before);
	if (command) {
		return commands
			.filter((c) => c.name.startsWith(command[1]))
			.slice(0, MAX_COMPLETIONS)
			.map((c) => {
				const inserted = `/${c.name} `;
				return {
					label: `/${c.name}`,
					detail: [c.args, c.description].filter(Boolean).join("  "),
					text: inserted + after.trimStart(),
					cursor: inserted.length,
				};
			});
	}
	const at = /(^|\s)@(\S*)$/.exec(before);
	if (!at) return [];
	const partial = at[2];
	const slash = partial.lastIndexOf("/");
	const dir = slash === -1 ? "" : partial.slice(0, slash + 1);
	const prefix = partial.slice(slash + 1);
	let entries: DirEntry[];
	try {
		entries = listDir(dir || ".");
	} catch {
		return [];
	}
	const head = before.slice(0, before.length - partial.length);
	return entries
		.filter((e) => e.name.startsWith(prefix) && (prefix.startsWith(".") || !e.name.startsWith(".")))
		.sort((a, b) => a.name.localeCompare(b.name))
		.slice(0, MAX_COMPLETIONS)
		.map((e) => {
			const path = `${dir}${e.name}${e.isDirectory ? "/" : ""}`;
			const inserted = head + path + (e.isDirectory ? "" : " ");
			return { label: path, text: inserted + after, cursor: inserted.length };
		});
}
