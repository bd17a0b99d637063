// The workspace: the cwd plus `--add-dir` folders, compared by real path so that neither a symlink nor
// `..` can lead a call outside while looking like it stays inside.
import { isAbsolute, relative, resolve, sep } from "node:path";
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

export function isUnder(root: string, real: string): boolean {
	if (real === root) return true;
	const rel = relative(root, real);
	return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}
