// The workspace's checkpoint store for one session, opened in the background on first use (the first
// snapshot of a large tree takes a while). It exists before the tools: edit and write call
// `beforeMutate` so the file-copy engine sees a file before it changes. Rewind (rewind.ts) snapshots
// and restores through it.
import { realpathSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { checkpointsDir } from "../config/paths.js";
import { realTarget } from "../tools/real-path.js";
import { type OpenedCheckpoints, openCheckpoints } from "./checkpoints/index.js";

export interface CheckpointStoreOptions {
	workspace: string;
	env: Record<string, string | undefined>;
	/** False with --no-session or `checkpoints: false`: nothing is opened. */
	enabled: boolean;
	/** Problems opening the store (the session runs on without checkpoints). */
	notify: (level: "warning", text: string) => void;
	storeRoot?: string;
}

export class CheckpointStore {
	private openedStore?: Promise<OpenedCheckpoints | undefined>;

	constructor(private readonly options: CheckpointStoreOptions) {}

	/** Opens the workspace's store in the background (once). */
	start(): void {
		if (this.openedStore || !this.options.enabled) return;
		const storeRoot = this.options.storeRoot ?? checkpointsDir(this.options.env);
		// RUDDER_GIT: another git binary (a path, for a git not on PATH).
		const gitBinary = this.options.env.RUDDER_GIT || undefined;
		// RUDDER_CHECKPOINT_WAIT_MS: how long a prompt waits for a git snapshot (tests on a loaded machine).
		const wait = Number(this.options.env.RUDDER_CHECKPOINT_WAIT_MS);
		const promptWaitMs = Number.isFinite(wait) && wait >= 0 ? wait : undefined;
		this.openedStore = openCheckpoints({ workspace: this.options.workspace, storeRoot, gitBinary, promptWaitMs }).then(
			(opened) => {
				if (opened.notice) this.options.notify("warning", opened.notice);
				return opened;
			},
			(error: unknown) => {
				this.options.notify("warning", `Checkpoints are off for this session: ${error instanceof Error ? error.message : String(error)}`);
				return undefined;
			},
		);
	}

	/** The opened store; undefined when it was not started, is off, or failed to open. */
	opened(): Promise<OpenedCheckpoints | undefined> {
		return this.openedStore ?? Promise.resolve(undefined);
	}

	/**
	 * For what can change files without telling the store (bash, `!cmd`, hooks, MCP tools): resolves once
	 * the snapshot an edits-only point waits for has ended (at once when none does), or `signal` aborts.
	 */
	readonly untrackedChangesMayStart = async (signal?: AbortSignal): Promise<void> => {
		const opened = await this.openedStore;
		await opened?.engine.untrackedChangesMayStart?.(signal);
	};

	/**
	 * For edit/write: the file-copy engine must see a file before it changes. Through a link in the
	 * workspace they change its target, so that file is shown too (one outside the workspace is not kept).
	 */
	readonly beforeMutate = async (absolutePath: string): Promise<void> => {
		const opened = await this.openedStore;
		if (!opened?.observer) return;
		await opened.observer.beforeMutate(absolutePath);
		const target = linkTargetIn(this.options.workspace, absolutePath);
		if (target !== undefined) await opened.observer.beforeMutate(target);
	};
}

/** The file `path` leads to when a link is on its way, as a path under `workspace`; undefined otherwise. */
function linkTargetIn(workspace: string, path: string): string | undefined {
	let root: string;
	try {
		root = realpathSync(workspace);
	} catch {
		return undefined;
	}
	const target = realTarget(path);
	const rel = relative(root, target);
	if (!rel || rel.startsWith("..") || isAbsolute(rel)) return undefined;
	const inWorkspace = join(workspace, rel);
	return inWorkspace === resolve(path) ? undefined : inWorkspace;
}
