// Checkpoints: snapshots of the workspace taken before each prompt, so a run's changes to the files
// (by edit, write and bash alike) can be listed and undone. Two engines share this contract: a shadow
// git repository (everything under the workspace that .gitignore does not exclude) and, when git is
// missing or the tree is too large, copies of the files the edit/write tools touched.

/** One file that differs between two snapshots. Paths are relative to the workspace, with `/`. */
export interface FileChange {
	path: string;
	/** Relative to the older snapshot: the file was added, modified (content, mode or type) or deleted. */
	status: "added" | "modified" | "deleted";
	/** Lines added and removed; 0 and 0 for a binary file or a change of mode only. */
	added: number;
	removed: number;
	binary?: boolean;
	/** Set by a restore that left this file alone, and why (it became a symbolic link, or is in .git). */
	skipped?: string;
}

export interface CheckpointEngine {
	readonly kind: "git" | "files";
	/** Takes a snapshot of the workspace now and returns its id. Cheap when little changed. */
	snapshot(): Promise<string>;
	/**
	 * The snapshot before or after a prompt: one that never holds the prompt up for long (the git engine
	 * waits `promptWaitMs`, then returns an edits-only point that becomes whole when its snapshot ends).
	 * Absent: `snapshot`.
	 */
	promptSnapshot?(): Promise<PromptPoint>;
	/**
	 * Resolves once no edits-only point waits for its snapshot any more (at once when none does), or
	 * when `signal` aborts. What can change files without telling the engine (bash, `!cmd`, hooks, MCP
	 * tools) waits for it, so a point made whole covers everything. Never rejects.
	 */
	untrackedChangesMayStart?(signal?: AbortSignal, waits?: () => void): Promise<void>;
	/** What changed from snapshot `from` to snapshot `to`. */
	changes(from: string, to: string): Promise<FileChange[]>;
	/**
	 * Makes the workspace match snapshot `id` and returns what it changed (relative to the workspace
	 * as it was just before). Files the engine never captured (ignored, too large) are left alone.
	 */
	restore(id: string): Promise<FileChange[]>;
	/** What `restore(id)` would change, without changing anything. */
	preview(id: string): Promise<FileChange[]>;
}

/** A file's content and mode, as the copies engine kept it. */
export interface FileContent {
	content: Buffer;
	mode: number;
}

/** A prompt's point, and for an edits-only one, its snapshot's end. */
export interface PromptPoint {
	id: string;
	/**
	 * For a point taken before its snapshot ended: the id of the same point covering everything once
	 * the snapshot ends, or why the snapshot failed (the point then stays edits-only).
	 */
	whole?: Promise<{ id: string } | { error: string }>;
}

/** File copies need to see a file before a tool changes it (every file for the fallback, ignored ones beside git). */
export interface MutationObserver {
	beforeMutate(absolutePath: string): Promise<void>;
}

export interface CheckpointOptions {
	/** The workspace (its real path is the key of its store). */
	workspace: string;
	/** Folder under which stores live, e.g. `<data folder>/checkpoints`. */
	storeRoot: string;
	/** Files larger than this are not captured. Default 10 MiB. */
	maxFileBytes?: number;
	/** How long a prompt waits for a git snapshot before its point covers edits only. Default 50 ms. */
	promptWaitMs?: number;
	/** The git binary. Default `git` on PATH. */
	gitBinary?: string;
}

export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_PROMPT_WAIT_MS = 50;
