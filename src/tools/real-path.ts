// Where a path really leads, for the workspace check and for the write that follows it: symlinks and
// `..` resolved by the file system, a missing tail joined onto its nearest existing parent.
import { existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

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
