// The project's paths for `@` fuzzy completion: listed in the background (project-paths.ts: ripgrep in
// a child process, else the Node walk), with no cap on their number, kept for a while and listed again
// in the background when old. Completion reads the last finished listing as it is; it never waits for
// one. Folders are offered too ("src/"), taken from the files' paths as the batches arrive.
import { PathList } from "./path-list.js";
import type { SearchablePaths } from "./path-search.js";
import { PATH_LISTERS, type PathLister } from "./project-paths.js";

/** Age after which the next `@` starts a new listing. */
export const INDEX_MAX_AGE_MS = 10_000;

export interface FileIndexOptions {
	/** Tried in order until one lists (default: ripgrep, then the Node walk). */
	listers?: readonly PathLister[];
	now?: () => number;
}

/** A listing being filled: each file after the folders above it that were not seen yet. */
class ListingBuilder {
	readonly list = new PathList();
	private readonly folders = new Set<string>();
	/** The folder of the last file (with its "/"): a folder's files mostly come together, so most files make no folder string. */
	private lastFolder = "\0";

	add(batch: readonly string[]): void {
		for (const file of batch) {
			if (file === "") continue;
			const cut = file.lastIndexOf("/");
			if (cut > 0 && !(cut + 1 === this.lastFolder.length && file.startsWith(this.lastFolder))) this.enter(file, cut);
			this.list.push(file);
		}
	}

	/** The folders above `file` (`cut`: its last "/") not seen yet, outermost first. */
	private enter(file: string, cut: number): void {
		this.lastFolder = file.slice(0, cut + 1);
		const unseen: string[] = [];
		for (let at = cut; at > 0; at = file.lastIndexOf("/", at - 1)) {
			const folder = at === cut ? this.lastFolder : file.slice(0, at + 1);
			if (this.folders.has(folder)) break;
			this.folders.add(folder);
			unseen.push(folder);
		}
		for (let i = unseen.length - 1; i >= 0; i--) this.list.push(unseen[i] as string);
	}
}

export class FileIndex {
	private readonly listers: readonly PathLister[];
	private readonly now: () => number;
	private readonly stop = new AbortController();
	private listing: SearchablePaths | undefined;
	private listedAt = Number.NEGATIVE_INFINITY;
	private running: Promise<void> | undefined;

	constructor(
		private readonly root: string,
		/** Called when a listing finished with something new (the app re-renders to show the matches). */
		private readonly onUpdate: () => void,
		options: FileIndexOptions = {},
	) {
		this.listers = options.listers ?? PATH_LISTERS;
		this.now = options.now ?? Date.now;
	}

	/** The last finished listing, undefined before the first; an old one starts a new listing behind it. */
	current(): SearchablePaths | undefined {
		if (this.now() - this.listedAt > INDEX_MAX_AGE_MS) void this.refresh();
		return this.listing;
	}

	/** Lists the folder again (joins a listing already running). */
	refresh(): Promise<void> {
		this.running ??= this.list().finally(() => {
			this.running = undefined;
		});
		return this.running;
	}

	/** Stops a listing under way (the app is closing). */
	dispose(): void {
		this.stop.abort();
	}

	private async list(): Promise<void> {
		this.listedAt = this.now();
		for (const lister of this.listers) {
			if (this.stop.signal.aborted) return;
			const builder = new ListingBuilder();
			if (!(await lister(this.root, (batch) => builder.add(batch), this.stop.signal))) continue;
			this.listedAt = this.now();
			const listing = builder.list.finish();
			// The same paths keep the same listing, and with it the searches already done on it.
			if (listing.sameAs(this.listing)) return;
			this.listing = listing;
			this.onUpdate();
			return;
		}
	}
}
