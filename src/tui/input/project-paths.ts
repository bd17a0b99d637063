// Where the `@` index gets the project's files: `rg --files` when ripgrep is on PATH (the listing runs
// in ripgrep, and its output is read a pipe chunk at a time, so the main thread never does a whole
// listing's work at once), else the Node walk grep and find use, which yields between folders. Both
// follow the same rules: .gitignore as git reads it, `.git` and `node_modules` skipped. (`git
// ls-files` is not a step: it reads the project's own git config, which a cloned folder controls.)
import { ripgrepListArgs, ripgrepOnPath } from "../../tools/ripgrep-files.js";
import { runRipgrep } from "../../tools/ripgrep-run.js";
import { walkFiles } from "../../tools/walk-files.js";

/**
 * Lists `root`'s files ("/"-separated, relative), a batch at a time; resolves false when it cannot list
 * (the next lister tries) or when aborted.
 */
export type PathLister = (root: string, onPaths: (batch: string[]) => void, signal: AbortSignal) => Promise<boolean>;

export const ripgrepLister: PathLister = async (root, onPaths, signal) => {
	const rg = ripgrepOnPath();
	if (!rg) return false;
	const args = await ripgrepListArgs(root);
	// Aborted: nothing to keep. A chunk's paths come as one batch (the folders above them are the caller's).
	return (await runRipgrep(rg, args, root, onPaths, signal).catch(() => undefined)) !== undefined && !signal.aborted;
};

export const walkLister: PathLister = async (root, onPaths, signal) => {
	let batch: string[] = [];
	try {
		for await (const entry of walkFiles(root, { signal })) {
			batch.push(entry.relativePath);
			if (batch.length >= 1000) {
				onPaths(batch);
				batch = [];
			}
		}
	} catch {
		// Aborted, or an unreadable root: nothing to complete, the folder listing still works.
		return false;
	}
	onPaths(batch);
	return true;
};

/** Tried in order until one lists. */
export const PATH_LISTERS: readonly PathLister[] = [ripgrepLister, walkLister];
