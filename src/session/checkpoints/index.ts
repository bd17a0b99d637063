// Opens the checkpoint store of a workspace: the shadow git engine when git runs (with copies of the
// files edit/write touch beside it, see git-with-copies.ts), else file copies (with one notice saying
// what that misses). Opening is quick: the first snapshot starts in the background and nothing kills
// it midway, however long the tree takes.
import { createHash } from "node:crypto";
import { realpath } from "node:fs/promises";
import { join } from "node:path";
import { FileCopies } from "./file-copies.js";
import { GitWithCopies } from "./git-with-copies.js";
import { ShadowGit } from "./shadow-git.js";
import {
	type CheckpointEngine,
	type CheckpointOptions,
	DEFAULT_MAX_FILE_BYTES,
	DEFAULT_PROMPT_WAIT_MS,
	type MutationObserver,
} from "./types.js";

export { coversEditsOnly } from "./git-with-copies.js";
export type { CheckpointEngine, CheckpointOptions, FileChange, MutationObserver, PromptPoint } from "./types.js";

export interface OpenedCheckpoints {
	engine: CheckpointEngine;
	/** `beforeMutate` must be called by edit/write before they change a file (the copies of either engine). */
	observer?: MutationObserver;
	/** Why the fallback is used, once. */
	notice?: string;
}

/** The store folder of a workspace: keyed by its real path, so two spellings share one store. */
export async function storeDirFor(storeRoot: string, workspace: string): Promise<string> {
	const real = await realpath(workspace);
	return join(storeRoot, createHash("sha256").update(real).digest("hex").slice(0, 20));
}

export async function openCheckpoints(options: CheckpointOptions): Promise<OpenedCheckpoints> {
	const workspace = await realpath(options.workspace);
	const dir = await storeDirFor(options.storeRoot, workspace);
	const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
	const git = new ShadowGit({ workspace, gitDir: join(dir, "git"), maxFileBytes, gitBinary: options.gitBinary ?? "git" });
	let reason: string;
	try {
		await git.init();
		const copies = new FileCopies(workspace, join(dir, "ignored"), maxFileBytes);
		await copies.load();
		const engine = new GitWithCopies(git, copies, options.promptWaitMs ?? DEFAULT_PROMPT_WAIT_MS);
		engine.warm();
		return { engine, observer: engine };
	} catch (error) {
		reason = error instanceof Error ? error.message : String(error);
	}
	const files = new FileCopies(workspace, join(dir, "files"), maxFileBytes);
	await files.load();
	return {
		engine: files,
		observer: files,
		notice: `Checkpoints keep copies of files changed by edit and write only (changes made by bash are not tracked): ${reason}`,
	};
}
