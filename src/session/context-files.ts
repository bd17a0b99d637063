// Project instructions the model should follow: `AGENTS.md` (and `CLAUDE.md`, the same idea under
// another name) from the global config folder, then from every folder between the filesystem root and
// cwd. General rules come first so the closest folder's rules, read last, can refine them.
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
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

/** Context files in the order the model reads them: global, then root → cwd. */
export function loadContextFiles(options: { cwd: string; env?: Record<string, string | undefined> }): ContextFile[] {
	const folders = [configDir(options.env), ...foldersRootToCwd(options.cwd)];
	const seen = new Set<string>();
	const files: ContextFile[] = [];
	for (const folder of folders) {
		for (const name of contextFileNames) {
			const path = join(folder, name);
			if (!existsSync(path) || !statSync(path).isFile()) continue;
			// CLAUDE.md is often a symlink to AGENTS.md; the model should read it once.
			const real = realpathSync(path);
			if (seen.has(real)) continue;
			seen.add(real);
			files.push({ path, content: readFileSync(path, "utf8") });
		}
	}
	return files;
}
