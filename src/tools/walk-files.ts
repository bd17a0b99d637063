// A sorted, gitignore-aware walk of a folder tree for grep and find. It yields as it goes so a caller
// that hits its result limit stops the walk early, and it checks the abort signal in every folder.
import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { throwIfAborted } from "./abort.js";
import { entryDenial, type HiddenCount, type PathDenial } from "./denied-paths.js";
import { ALWAYS_SKIPPED, IgnoreRules } from "./ignore-rules.js";
import { type LinkCheck, linkAllowed } from "./linked-outside.js";

export interface WalkEntry {
	absolutePath: string;
	/** "/"-separated path relative to the walk root. */
	relativePath: string;
	isDirectory: boolean;
}

export interface WalkOptions {
	signal?: AbortSignal;
	/** Also yield folders (find does, grep does not). Default false. */
	includeDirectories?: boolean;
	/** Entries (and whole folders) a deny rule hides are skipped and counted in `hidden`. */
	denied?: PathDenial;
	hidden?: HiddenCount;
	/** Links whose target a read could not reach without asking are skipped and counted in `linked`. */
	links?: LinkCheck;
	linked?: HiddenCount;
}

export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
	const rules = await IgnoreRules.forRoot(root);
	// Entries are checked by real path: the root's once, then each name below it (linked folders are not entered).
	const realRoot = options.denied ? await realpath(root) : root;
	yield* walkFolder(root, realRoot, "", rules, options);
}

async function* walkFolder(
	folder: string,
	realFolder: string,
	relFolder: string,
	parentRules: IgnoreRules,
	options: WalkOptions,
): AsyncGenerator<WalkEntry> {
	throwIfAborted(options.signal);
	const rules = relFolder === "" ? parentRules : await parentRules.enter(folder);
	let entries: Dirent[];
	try {
		entries = await readdir(folder, { withFileTypes: true });
	} catch {
		// An unreadable folder deep in a tree should not fail the whole search.
		return;
	}
	entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	for (const entry of entries) {
		const absolutePath = join(folder, entry.name);
		const relativePath = relFolder === "" ? entry.name : `${relFolder}/${entry.name}`;
		let isDirectory = entry.isDirectory();
		let isFile = entry.isFile();
		if (entry.isSymbolicLink()) {
			// Linked files are searched; linked folders are not followed, which rules out cycles.
			const target = await stat(absolutePath).catch(() => undefined);
			isFile = target?.isFile() ?? false;
			isDirectory = false;
			if (isFile && options.links && !(await linkAllowed(options.links, absolutePath))) {
				if (options.linked) options.linked.count++;
				continue;
			}
		}
		if (isDirectory && ALWAYS_SKIPPED.has(entry.name)) continue;
		if (!isDirectory && !isFile) continue;
		if (rules.ignores(absolutePath, isDirectory)) continue;
		if (options.denied && (await entryDenial(options.denied, realFolder, entry.name, isDirectory, entry.isSymbolicLink(), absolutePath))) {
			if (options.hidden) options.hidden.count++;
			continue;
		}
		if (isDirectory) {
			if (options.includeDirectories) yield { absolutePath, relativePath, isDirectory: true };
			yield* walkFolder(absolutePath, join(realFolder, entry.name), relativePath, rules, options);
		} else {
			yield { absolutePath, relativePath, isDirectory: false };
		}
	}
}
