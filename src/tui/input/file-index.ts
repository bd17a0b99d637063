// The project's paths for `@` fuzzy completion: one gitignore-aware walk of the working folder (the
// same walk grep and find use), kept for a while and walked again in the background when it is old.
// Completion reads the list as it is; it never waits for a walk.
import { walkFiles } from "../../tools/walk-files.js";

/** Paths kept at most: a huge tree still completes, from its first paths in name order. */
export const MAX_INDEXED_PATHS = 50_000;
/** Age after which the next `@` starts a new walk. */
export const INDEX_MAX_AGE_MS = 10_000;

export class FileIndex {
	private paths: string[] | undefined;
	private walkedAt = Number.NEGATIVE_INFINITY;
	private walking: Promise<void> | undefined;

	constructor(
		private readonly root: string,
		/** Called when a walk finishes (the app re-renders to show the matches). */
		private readonly onUpdate: () => void = () => {},
		private readonly now: () => number = Date.now,
	) {}

	/** "/"-separated paths relative to the root, folders ending in "/"; undefined before the first walk. */
	list(): readonly string[] | undefined {
		if (this.now() - this.walkedAt > INDEX_MAX_AGE_MS) void this.refresh();
		return this.paths;
	}

	/** Walks the folder again (joins a walk already running). */
	refresh(): Promise<void> {
		this.walking ??= this.walk().finally(() => {
			this.walking = undefined;
		});
		return this.walking;
	}

	private async walk(): Promise<void> {
		this.walkedAt = this.now();
		const found: string[] = [];
		try {
			for await (const entry of walkFiles(this.root, { includeDirectories: true })) {
				found.push(entry.isDirectory ? `${entry.relativePath}/` : entry.relativePath);
				if (found.length >= MAX_INDEXED_PATHS) break;
			}
		} catch {
			// An unreadable root: nothing to complete, the prefix listing still works.
		}
		this.paths = found;
		this.walkedAt = this.now();
		this.onUpdate();
	}
}
