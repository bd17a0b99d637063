// The workspace: the cwd plus `--add-dir` folders, compared by real path so that neither a symlink nor
// `..` can lead a call outside while looking like it stays inside.
import { existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Workspace } from "./types.js";

/** Symlinks followed at most this many times (the kernel's own limit is 40). */
const MAX_LINKS = 40;

/**
 * The real path `path` names or would name once created: existing parts are resolved by the file
 * system; a missing tail is joined onto its nearest existing parent. A dangling symlink is followed to
 * where it points, since writing through it creates the file there.
 */
export function realTarget(path: string, links = 0): string {
	const absolute = resolve(path);
	// existsSync and throwIfNoEntry: a missing path is the common case for a new file, and exceptions are slow.
	if (existsSync(absolute)) {
		try {
			return realpathSync(absolute);
		} catch {
			// Gone in between, or unreadable: resolved from its parent below.
		}
	}
	if (links < MAX_LINKS && lstatSync(absolute, { throwIfNoEntry: false })?.isSymbolicLink()) {
		try {
			return realTarget(resolve(dirname(absolute), readlinkSync(absolute)), links + 1);
		} catch {
			// Unreadable link: resolved from its parent below.
		}
	}
	const parent = dirname(absolute);
	if (parent === absolute) return absolute;
	return join(realTarget(parent, links), basename(absolute));
}

export function createWorkspace(cwd: string, addDirs: readonly string[] = []): Workspace {
	const roots: string[] = [];
	for (const dir of [cwd, ...addDirs.map((d) => resolve(cwd, d))]) {
		const real = realTarget(dir);
		if (!roots.includes(real)) roots.push(real);
	}
	return { roots };
}

/** True when the real path `real` is a root or lies under one. */
export function insideWorkspace(workspace: Workspace, real: string): boolean {
	return workspace.roots.some((root) => isUnder(root, real));
}

export function isUnder(root: string, real: string): boolean {
	if (real === root) return true;
	const rel = relative(root, real);
	return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}
