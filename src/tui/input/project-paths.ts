// Where the `@` index gets the project's files: `rg --files` when ripgrep is on PATH (the listing runs
// in ripgrep, and its output is read a pipe chunk at a time, so the main thread never does a whole
// listing's work at once), else the Node walk grep and find use, which yields between folders. Both
// follow the same rules: .gitignore as git reads it, `.git` and `node_modules` skipped. (`git
// ls-files` is not a step: it reads the project's own git config, which a cloned folder controls.)
import { spawn } from "node:child_process";
import { ripgrepListArgs, ripgrepOnPath } from "../../tools/ripgrep-files.js";
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
	return new Promise((resolve) => {
		const child = spawn(rg, args, { cwd: root, stdio: ["ignore", "pipe", "ignore"], signal });
		let rest: Buffer = Buffer.alloc(0);
		let any = false;
		child.stdout.on("data", (chunk: Buffer) => {
			// A chunk can end inside a path (or a character): what follows its last NUL waits for the next.
			const data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
			const end = data.lastIndexOf(0);
			if (end === -1) {
				rest = data;
				return;
			}
			rest = data.subarray(end + 1);
			const batch = data.toString("utf8", 0, end).split("\0");
			for (let i = 0; i < batch.length; i++) if ((batch[i] as string).startsWith("./")) batch[i] = (batch[i] as string).slice(2);
			any = true;
			onPaths(batch);
		});
		child.stdout.on("error", () => undefined);
		child.on("error", () => resolve(false));
		// 1: nothing to list; 2: some folders could not be read (the walk skips those too).
		child.on("close", (code) => resolve(!signal.aborted && (code === 0 || code === 1 || (code === 2 && any))));
	});
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
