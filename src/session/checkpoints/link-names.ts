// A file's other names inside the workspace (hard links). edit and write change a file in place, so an
// edit of `a.ts` changes every name of that file; a point's copies must hold each name's content from
// before the edit, or git, reading the tree meanwhile, keeps the edit under the other name. No index
// maps an inode to its names, so the workspace is walked — only for a file with more than one link,
// which is rare, and only as far as `limit` entries: past that the names are unknown (undefined).
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

/** Folders no snapshot holds and a rewind never writes: their names do not matter. */
const SKIPPED = new Set([".git", ".rudder"]);

/** How many entries a walk reads before giving up: a large tree makes the point edits-only instead. */
export const LINK_SCAN_LIMIT = 50_000;

/**
 * The workspace-relative names, other than `path`, of the file `file` (its dev, ino and link count),
 * under `root`; undefined when the walk reached `limit` entries before finding all the file's links.
 * Names outside the workspace are never found and need not be: nothing there is snapshotted or restored.
 */
export async function otherNames(
	root: string,
	path: string,
	file: { dev: number; ino: number; nlink: number },
	limit = LINK_SCAN_LIMIT,
): Promise<string[] | undefined> {
	const found: string[] = [];
	const folders = [""];
	let seen = 0;
	for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
		const entries = await readdir(join(root, folder), { withFileTypes: true }).catch(() => []);
		for (const entry of entries) {
			if (++seen > limit) return undefined;
			const name = folder ? `${folder}/${entry.name}` : entry.name;
			// Links are not followed: a folder reached through one is outside, or seen under its own name.
			if (entry.isDirectory()) {
				if (!(folder === "" && SKIPPED.has(entry.name))) folders.push(name);
			} else if (entry.isFile() && name !== path) {
				const stat = await lstat(join(root, name)).catch(() => undefined);
				if (stat && stat.ino === file.ino && stat.dev === file.dev) found.push(name);
				// Every other link found: the rest of the tree cannot hold one.
				if (found.length === file.nlink - 1) return found.sort();
			}
		}
	}
	return found.sort();
}
