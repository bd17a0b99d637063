// Writes and edits to one file run one at a time. In a parallel tool batch two edits to the same file
// would otherwise both read the original and the second write would silently drop the first edit.
import { resolve } from "node:path";
import { throwIfAborted } from "./abort.js";
import { resolveToolPath } from "./resolve-path.js";

const tails = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier mutation of `absolutePath` has settled; other files are not held up. */
export function withFileMutationQueue<T>(absolutePath: string, fn: () => Promise<T>): Promise<T> {
	const key = resolve(absolutePath);
	const previous = tails.get(key) ?? Promise.resolve();
	const run = previous.then(fn, fn);
	// The tail never rejects, so a failed edit does not poison the next one.
	const tail = run.then(
		() => undefined,
		() => undefined,
	);
	tails.set(key, tail);
	void tail.then(() => {
		if (tails.get(key) === tail) tails.delete(key);
	});
	return run;
}

/** Called with a file's absolute path just before a tool may change it (the checkpoints' file-copy fallback). */
export type BeforeMutate = (absolutePath: string) => Promise<void>;

/**
 * What `write` and `edit` share: resolve the tool's path, then run `fn` in that file's queue, checking
 * the signal before queueing and again when its turn comes (an abort while waiting must not write).
 */
export function mutateToolFile<T>(
	path: string,
	cwd: string,
	signal: AbortSignal | undefined,
	fn: (absolutePath: string) => Promise<T>,
	beforeMutate?: BeforeMutate,
): Promise<T> {
	throwIfAborted(signal);
	const absolutePath = resolveToolPath(path, cwd);
	return withFileMutationQueue(absolutePath, async () => {
		throwIfAborted(signal);
		await beforeMutate?.(absolutePath);
		return fn(absolutePath);
	});
}
