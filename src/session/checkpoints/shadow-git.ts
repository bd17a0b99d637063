// The git engine: a repository of our own under the data folder (`--git-dir`) with the workspace as
// its work tree. Snapshots are commits on `refs/rudder/head`, built from a private index, so they see
// what bash changed as well as edit/write, and the project's own `.git` (index, stash, hooks, config)
// is never read or written. Incremental snapshots cost about one `stat` per tracked file: git's index
// keeps the stat data, and the untracked cache skips unchanged folders.
import { spawn } from "node:child_process";
import { lstat, mkdir, realpath, rm, stat, writeFile } from "node:fs/promises";
import { setPriority } from "node:os";
import { join } from "node:path";
import { removeFile } from "./pinned-restore.js";
import type { CheckpointEngine, FileChange } from "./types.js";

const HEAD_REF = "refs/rudder/head";
/** git's id of the empty tree (same in every repository). */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
/** Locks a git killed midway leaves behind; ours to remove, as our calls run one at a time. */
const LOCKS = ["rudder-index.lock", `${HEAD_REF}.lock`];
/** A lock older than this at start-up was left by a Rudder that died (no snapshot runs this long). */
const STALE_LOCK_MS = 30 * 60_000;

export interface ShadowGitOptions {
	workspace: string;
	gitDir: string;
	maxFileBytes: number;
	gitBinary: string;
	/** Loose objects worth a pack (default 5,000; git's own gc.auto threshold is 6,700). */
	packAfterObjects?: number;
}

export class GitError extends Error {
	/** git's exit status, when it ran and failed. */
	exitCode?: number;
}

/** Environment for our git calls: none of the caller's GIT_* variables, no global or system config. */
function gitEnv(options: ShadowGitOptions): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("GIT_")) env[key] = value;
	return {
		...env,
		GIT_DIR: options.gitDir,
		GIT_WORK_TREE: options.workspace,
		GIT_INDEX_FILE: join(options.gitDir, "rudder-index"),
		GIT_CONFIG_NOSYSTEM: "1",
		GIT_CONFIG_GLOBAL: "/dev/null",
		GIT_OPTIONAL_LOCKS: "0",
		GIT_TERMINAL_PROMPT: "0",
		GIT_AUTHOR_NAME: "rudder",
		GIT_AUTHOR_EMAIL: "rudder@localhost",
		GIT_COMMITTER_NAME: "rudder",
		GIT_COMMITTER_EMAIL: "rudder@localhost",
		LC_ALL: "C",
	};
}

// Settings that make the shadow repository behave the same on every machine: never run hooks or an
// fsmonitor, never convert line endings, track the executable bit.
const CONFIG = [
	"core.hooksPath=/dev/null",
	"core.autocrlf=false",
	"core.safecrlf=false",
	"core.fileMode=true",
	"core.symlinks=true",
	"core.fsmonitor=false",
	"core.untrackedCache=true",
	"core.quotePath=false",
	"gc.auto=0",
	"safe.directory=*",
].flatMap((entry) => ["-c", entry]);

export class ShadowGit implements CheckpointEngine {
	readonly kind = "git" as const;
	private readonly env: NodeJS.ProcessEnv;
	/** Snapshots run one at a time: they share the private index. */
	private queue: Promise<unknown> = Promise.resolve();
	private packing?: Promise<void>;
	/** About how many loose objects snapshots added since the last pack (one per file they added). */
	private unpacked = 0;

	constructor(private readonly options: ShadowGitOptions) {
		this.env = gitEnv(options);
	}

	/** Creates the repository if needed; throws `GitError` when git cannot run. */
	async init(): Promise<void> {
		await mkdir(this.options.gitDir, { recursive: true, mode: 0o700 });
		await this.git(["init", "--quiet"]);
		await mkdir(join(this.options.gitDir, "info"), { recursive: true });
		// Nested repositories are the user's business, not ours.
		await writeFile(join(this.options.gitDir, "info", "exclude"), ".git\n");
		await this.removeLocks(STALE_LOCK_MS);
	}

	snapshot(): Promise<string> {
		return this.serial(async () => {
			const { commit } = await this.takeSnapshot();
			this.packInBackground();
			return commit;
		});
	}

	async changes(from: string, to: string): Promise<FileChange[]> {
		return this.diff(from, to);
	}

	preview(id: string): Promise<FileChange[]> {
		return this.serial(async () => {
			const now = await this.takeSnapshot();
			return (await this.diff(now.commit, id)).filter((c) => !now.skipped.has(c.path));
		});
	}

	restore(id: string): Promise<FileChange[]> {
		return this.serial(async () => {
			const now = await this.takeSnapshot();
			const plan = (await this.diff(now.commit, id)).filter((c) => !now.skipped.has(c.path));
			// The plan reads from now to the snapshot: "deleted" files did not exist then.
			const toCheckout = plan.filter((c) => c.status !== "deleted").map((c) => c.path);
			for (const change of plan.filter((c) => c.status === "deleted")) {
				const skipped = await removeFileAndEmptyParents(this.options.workspace, change.path);
				if (skipped) change.skipped = skipped;
			}
			if (toCheckout.length > 0) {
				// `checkout <commit> -- paths` writes content, mode and type from the snapshot.
				await this.git(["checkout", id, "--pathspec-from-file=-", "--pathspec-file-nul", "--"], nulList(toCheckout));
			}
			await this.takeSnapshot();
			return plan;
		});
	}

	/** Whether snapshots leave `path` out (a .gitignore rule, or our own exclude of nested `.git`). */
	async isIgnored(path: string): Promise<boolean> {
		try {
			await this.git(["check-ignore", "--quiet", "--", path]);
			return true;
		} catch (error) {
			// Exit 1: not ignored. Anything else (git failing) counts as ignored, so a copy is kept.
			return !(error instanceof GitError && error.exitCode === 1);
		}
	}

	/**
	 * Packs the store once snapshots have added thousands of objects (the first snapshot of a large tree
	 * leaves one loose file per blob: 338 MiB at 70k files), in a child process at low priority, one at a
	 * time, awaited by nothing. `repack -d` packs the loose objects the refs and the index reach and
	 * deletes them; without delta search it is quick. It runs safely beside a snapshot (git adds objects
	 * and packs without a lock in common); killed midway it leaves a temporary file the next one removes.
	 */
	private packInBackground(): void {
		if (this.packing || this.unpacked < (this.options.packAfterObjects ?? PACK_AFTER_OBJECTS)) return;
		this.unpacked = 0;
		this.packing = new Promise<void>((resolve) => {
			const child = spawn(this.options.gitBinary, [...CONFIG, "-c", "pack.window=0", "repack", "-d", "-q"], {
				cwd: this.options.workspace,
				env: this.env,
				stdio: "ignore",
			});
			child.on("spawn", () => {
				try {
					if (child.pid) setPriority(child.pid, 10);
				} catch {}
			});
			child.on("error", () => resolve());
			child.on("close", () => resolve());
		}).finally(() => {
			this.packing = undefined;
		});
	}

	/** The background pack running now, if any (tests and the benchmark wait for it). */
	packed(): Promise<void> {
		return this.packing ?? Promise.resolve();
	}

	private serial<T>(work: () => Promise<T>): Promise<T> {
		const next = this.queue.then(work, work);
		this.queue = next.catch(() => undefined);
		return next;
	}

	private async takeSnapshot(): Promise<{ commit: string; skipped: Set<string> }> {
		const listed = await this.git(["ls-files", "-z", "--others", "--modified", "--deleted", "--exclude-standard"]);
		const candidates = [...new Set(splitNul(listed))].filter((p) => !p.endsWith("/"));
		// Sizes asked many at a time: the first snapshot of a large tree has every file to ask about.
		const sizes = await mapInFlight(candidates, STAT_IN_FLIGHT, async (path) => {
			const stat = await lstat(join(this.options.workspace, path)).catch(() => undefined);
			return stat?.isFile() ? stat.size : 0;
		});
		const keep = candidates.filter((_, i) => (sizes[i] as number) <= this.options.maxFileBytes);
		const skipped = new Set(candidates.filter((_, i) => (sizes[i] as number) > this.options.maxFileBytes));
		if (keep.length > 0) await this.git(["update-index", "--add", "--remove", "-z", "--stdin"], nulList(keep));
		this.unpacked += keep.length;
		// Out of the index too, so no snapshot claims an older version of a file now too large to keep.
		if (skipped.size > 0) await this.git(["update-index", "--force-remove", "-z", "--stdin"], nulList([...skipped]));
		const tree = (await this.git(["write-tree"])).trim();
		const parent = await this.head();
		if (parent && (await this.treeOf(parent)) === tree) return { commit: parent, skipped };
		const commit = (await this.git(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", "checkpoint"])).trim();
		await this.git(["update-ref", HEAD_REF, commit]);
		return { commit, skipped };
	}

	private async head(): Promise<string | undefined> {
		try {
			return (await this.git(["rev-parse", "--verify", "--quiet", HEAD_REF])).trim() || undefined;
		} catch {
			return undefined;
		}
	}

	private async treeOf(commit: string): Promise<string> {
		return (await this.git(["rev-parse", `${commit}^{tree}`])).trim();
	}

	private async diff(from: string, to: string): Promise<FileChange[]> {
		const a = from || EMPTY_TREE;
		const statusOut = splitNul(await this.git(["diff", "--name-status", "-z", "--no-renames", a, to]));
		const numstatOut = splitNul(await this.git(["diff", "--numstat", "-z", "--no-renames", a, to]));
		const counts = new Map<string, { added: number; removed: number; binary: boolean }>();
		// numstat -z: "added\tremoved\tpath" per record.
		for (const record of numstatOut) {
			const [added, removed, ...rest] = record.split("\t");
			const path = rest.join("\t");
			const binary = added === "-";
			counts.set(path, { added: binary ? 0 : Number(added), removed: binary ? 0 : Number(removed), binary });
		}
		const changes: FileChange[] = [];
		for (let i = 0; i + 1 < statusOut.length; i += 2) {
			const code = statusOut[i];
			const path = statusOut[i + 1];
			const status = code === "A" ? "added" : code === "D" ? "deleted" : "modified";
			const count = counts.get(path) ?? { added: 0, removed: 0, binary: false };
			const change: FileChange = { path, status, added: count.added, removed: count.removed };
			if (count.binary) change.binary = true;
			changes.push(change);
		}
		return changes;
	}

	/**
	 * Runs git and resolves with its stdout. Every stream of the child has an error handler: a git that
	 * dies midway (killed, out of memory) is a rejected snapshot, never an unhandled EPIPE, and the lock
	 * it left is removed so the next snapshot can run.
	 */
	private git(args: string[], input?: string): Promise<string> {
		return new Promise((resolve, reject) => {
			const child = spawn(this.options.gitBinary, [...CONFIG, ...args], { cwd: this.options.workspace, env: this.env, stdio: "pipe" });
			const out: Buffer[] = [];
			const err: Buffer[] = [];
			let outBytes = 0;
			let failure: GitError | undefined;
			const fail = (error: GitError) => {
				failure ??= error;
				child.kill("SIGKILL");
			};
			child.stdout.on("data", (chunk: Buffer) => {
				outBytes += chunk.length;
				if (outBytes > MAX_OUTPUT_BYTES) fail(new GitError(`git ${args[0]} wrote more than ${MAX_OUTPUT_BYTES} bytes`));
				else out.push(chunk);
			});
			child.stderr.on("data", (chunk: Buffer) => {
				if (err.length < 16) err.push(chunk);
			});
			// A child that exits before reading all of stdin makes the write fail (EPIPE): its exit status tells why.
			child.stdin.on("error", () => undefined);
			child.stdout.on("error", (error) => fail(new GitError(`git ${args[0]}: ${error.message}`)));
			child.stderr.on("error", () => undefined);
			child.on("error", (error: NodeJS.ErrnoException) => {
				failure ??= new GitError(
					error.code === "ENOENT" ? `git was not found (${this.options.gitBinary})` : `git ${args[0]}: ${error.message}`,
				);
			});
			child.on("close", (code, signal) => {
				if (!failure && code === 0) return resolve(Buffer.concat(out).toString("utf8"));
				const settle = () => {
					if (failure) return reject(failure);
					const stderr = Buffer.concat(err).toString("utf8").trim().split("\n")[0];
					const failed = new GitError(`git ${args[0]} failed: ${stderr || (signal ? `killed by ${signal}` : `exit ${code}`)}`);
					if (code !== null) failed.exitCode = code;
					reject(failed);
				};
				if (signal || failure) this.removeLocks(0).then(settle, settle);
				else settle();
			});
			child.stdin.end(input ?? "");
		});
	}

	/** Removes the locks of a git that died (older than `ageMs`), so a killed snapshot leaves a usable store. */
	private async removeLocks(ageMs: number): Promise<void> {
		for (const name of LOCKS) {
			const lock = join(this.options.gitDir, name);
			const info = await stat(lock).catch(() => undefined);
			if (info && Date.now() - info.mtimeMs >= ageMs) await rm(lock, { force: true });
		}
	}
}

const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;
const PACK_AFTER_OBJECTS = 5_000;

/** Files whose size is asked at once. */
const STAT_IN_FLIGHT = 32;

/** `work` over `items`, at most `limit` at a time, results in order. */
async function mapInFlight<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
	const results: R[] = new Array(items.length);
	let next = 0;
	const worker = async () => {
		while (next < items.length) {
			const i = next++;
			results[i] = await work(items[i] as T);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
	return results;
}

function splitNul(text: string): string[] {
	const parts = text.split("\0");
	if (parts.at(-1) === "") parts.pop();
	return parts;
}

const nulList = (paths: string[]) => `${paths.join("\0")}\0`;

/** Deletes a file a snapshot did not have, and the folders that held only it, never through a symlink. */
async function removeFileAndEmptyParents(workspace: string, path: string): Promise<string | undefined> {
	return removeFile(await realpath(workspace), path, true);
}
