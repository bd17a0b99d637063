// What the model has seen of each file in this session, so `write` and `edit` never act on a file
// whose current content the model does not know: an edit made outside (by the user, a formatter, a
// `git checkout`) would otherwise be silently thrown away. A file is "seen" when `read` read it or
// `write`/`edit` wrote it; it is identified by device, inode, size, mtime and ctime (nanosecond
// clocks on Linux file systems, and ctime cannot be set back by `touch -d`).
import type { Stats } from "node:fs";
import { resolve } from "node:path";

export type MutationVerb = "write" | "edit";

function stampOf(stats: Stats): string {
	return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/** One per session, shared by read, write and edit (see `createAllTools`). */
export class FileReadState {
	private readonly seen = new Map<string, string>();

	/** The model now knows the file as `stats` describes it. */
	recordSeen(absolutePath: string, stats: Stats): void {
		this.seen.set(resolve(absolutePath), stampOf(stats));
	}

	/**
	 * Throws the error the model reads unless the file is new (`stats` undefined) or unchanged since
	 * it was last seen. `stats` must be fresh (taken just before the change, inside the file's queue).
	 */
	assertCanChange(absolutePath: string, displayPath: string, stats: Stats | undefined, verb: MutationVerb): void {
		if (!stats) return;
		const seen = this.seen.get(resolve(absolutePath));
		if (seen === undefined) {
			throw new Error(
				`Cannot ${verb} ${displayPath}: the file exists and has not been read in this session. Read it first, then ${verb} it.`,
			);
		}
		if (seen !== stampOf(stats)) {
			throw new Error(
				`Cannot ${verb} ${displayPath}: it changed on disk since it was last read or written (edited outside this session). Read it again, then make the change on its current content.`,
			);
		}
	}
}
