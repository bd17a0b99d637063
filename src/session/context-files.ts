// Project instructions the model should follow: `AGENTS.md` (and `CLAUDE.md`, the same idea under
// another name) from the global config folder, then from every folder between the filesystem root and
// cwd. General rules come first so the closest folder's rules, read last, can refine them.
//
// Each file goes into every request's system prompt, so where it comes from matters. Until the project
// folder is trusted, a file is read only from the trusted tree: the workspace (the repository holding
// cwd, or cwd itself) and the user's own folders (the config folder, the home folder and the folders
// between it and cwd). A repo-shipped `AGENTS.md` that links to `~/.ssh/id_rsa` would otherwise send
// the key to the provider; an `AGENTS.md` in `/tmp` or `/` may have been written by anyone. Such files
// wait for trust, named in one notice.
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { configDir } from "../config/paths.js";

export interface ContextFile {
	path: string;
	content: string;
}

export const contextFileNames = ["AGENTS.md", "CLAUDE.md"] as const;

/** Folders from the filesystem root down to `cwd`, root first. */
export function foldersRootToCwd(cwd: string): string[] {
	const folders: string[] = [];
	let dir = resolve(cwd);
	for (;;) {
		folders.push(dir);
		const parent = dirname(dir);
		if (parent === dir) break;
		dir = parent;
	}
	return folders.reverse();
}

/** A context file not read because the folder is not trusted, and why. */
export interface HeldContextFile {
	path: string;
	/** Where the link points, when it is a link out of the workspace. */
	target?: string;
}

export interface ContextFileOptions {
	cwd: string;
	env?: Record<string, string | undefined>;
	/** The project folder is trusted (remembered, or `--trust-project`): every file is read. */
	trusted?: boolean;
	/** The user's home folder (default: the OS's). */
	home?: string;
	/** Where the one notice about held files goes. */
	notices?: string[];
}

const inside = (path: string, folder: string): boolean => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

/** The repository holding `realCwd` (the closest folder with `.git`), else `realCwd`. */
function workspaceRoot(realCwd: string): string {
	const folders = foldersRootToCwd(realCwd).reverse();
	return folders.find((folder) => existsSync(join(folder, ".git"))) ?? realCwd;
}

const realOr = (path: string): string => (existsSync(path) ? realpathSync(path) : resolve(path));

/** The files of one folder that exist as regular files (after links). */
function candidates(folder: string): string[] {
	return contextFileNames.map((name) => join(folder, name)).filter((path) => existsSync(path) && statSync(path).isFile());
}

/** The files to read (in order) and the ones that wait for trust. */
export function readContextFiles(options: ContextFileOptions): { files: ContextFile[]; held: HeldContextFile[] } {
	const realCwd = realOr(options.cwd);
	const workspace = workspaceRoot(realCwd);
	const home = realOr(options.home ?? homedir());
	const seen = new Set<string>();
	const files: ContextFile[] = [];
	const held: HeldContextFile[] = [];
	const take = (path: string, real: string) => {
		// CLAUDE.md is often a symlink to AGENTS.md; the model should read it once.
		if (seen.has(real)) return;
		seen.add(real);
		files.push({ path, content: readFileSync(path, "utf8") });
	};
	// The user's own config folder: always read.
	for (const path of candidates(configDir(options.env))) take(path, realpathSync(path));
	for (const folder of foldersRootToCwd(options.cwd)) {
		const realFolder = realOr(folder);
		for (const path of candidates(folder)) {
			const real = realpathSync(path);
			if (options.trusted) take(path, real);
			else if (inside(realFolder, workspace)) {
				// A file of the workspace, or a link within it; a link out of it waits.
				if (inside(real, workspace)) take(path, real);
				else held.push({ path, target: real });
			} else if (inside(realFolder, home)) take(path, real);
			else held.push({ path });
		}
	}
	if (held.length > 0) options.notices?.push(heldContextNotice(held));
	return { files, held };
}

/** Context files in the order the model reads them: global, then root → cwd (see `readContextFiles`). */
export function loadContextFiles(options: ContextFileOptions): ContextFile[] {
	return readContextFiles(options).files;
}

/** One line naming every held file and why. */
export function heldContextNotice(held: readonly HeldContextFile[]): string {
	const list = held
		.map((h) =>
			h.target ? `${h.path} (a link to ${h.target}, outside the workspace)` : `${h.path} (outside the workspace and your home folder)`,
		)
		.join(", ");
	return `Not read as instructions until this folder is trusted: ${list}. Start rudder with --trust-project to read them.`;
}
