// The workspace: the cwd plus `--add-dir` folders, compared by real path so that neither a symlink nor
// `..` can lead a call outside while looking like it stays inside.
import { resolve, sep } from "node:path";
import { realTarget } from "../tools/real-path.js";
import type { Workspace } from "./types.js";

export { realTarget };

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

/**
 * True when `real` is `root` or lies under it. Both are absolute and normalised (real paths, or joined
 * from them), so a prefix test does what `path.relative` would, at a fraction of its cost: it runs for
 * every entry grep, find, ls and the sandbox's deny-rule walk look at.
 */
export function isUnder(root: string, real: string): boolean {
	if (real === root) return true;
	const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
	return real.startsWith(prefix);
}
