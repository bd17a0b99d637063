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
	readonly untrackedChangesMayStart = async (signal?: AbortSignal, waits?: () => void): Promise<void> => {
		const opened = await this.openedStore;
		await opened?.engine.untrackedChangesMayStart?.(signal, waits);
	};

	/**
	 * For edit/write: the file-copy engine must see a file before it changes. The engine knows the
	 * workspace by its real path, so a path under the folder as given (a link to it) is shown under that;
	 * and through a link in the workspace they change its target, so that file is shown too (one outside
	 * the workspace is not kept).
	 */
	readonly beforeMutate = async (absolutePath: string): Promise<void> => {
		const opened = await this.openedStore;
		if (!opened?.observer) return;
		const paths = shownPaths(this.options.workspace, absolutePath);
		for (const path of paths) await opened.observer.beforeMutate(path);
	};
}

/** `path` as a path under the workspace's real path, then the file it leads to when a link in the workspace is on its way. */
function shownPaths(workspace: string, path: string): string[] {
	let root: string;
	try {
		root = realpathSync(workspace);
	} catch {
		return [path];
	}
	const under = (base: string, p: string) => {
		const rel = relative(base, p);
		return !rel || rel.startsWith("..") || isAbsolute(rel) ? undefined : rel;
	};
	const given = under(resolve(workspace), resolve(path));
	const asReal = given === undefined ? resolve(path) : join(root, given);
	const target = realTarget(asReal);
	return target !== asReal && under(root, target) !== undefined ? [asReal, target] : [asReal];
}
