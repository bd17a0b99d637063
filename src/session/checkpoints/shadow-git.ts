// The git engine: a repository of our own under the data folder (`--git-dir`) with the workspace as
// its work tree. Snapshots are commits on `refs/rudder/head`, built from a private index, so they see
// what bash changed as well as edit/write, and the project's own `.git` (index, stash, hooks, config)
// is never read or written. Incremental snapshots cost about one `stat` per tracked file: git's index
// keeps the stat data, and the untracked cache skips unchanged folders.
import { spawn } from "node:child_process";
import { lstat, mkdir, realpath, rm, stat, writeFile } from "node:fs/promises";
import { setPriority } from "node:os";
import { join } from "node:path";
import type { Writable } from "node:stream";
import { removeFile } from "./pinned-restore.js";
import type { CheckpointEngine, FileChange, FileContent } from "./types.js";

const HEAD_REF = "refs/rudder/head";
/** Refs keeping the commits of points made whole (`withFiles`) reachable. */
const WHOLE_REFS = "refs/rudder/whole/";

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

	/**
	 * A commit like `commit` but with `files` as given (null: absent): the snapshot of a point, with the
	 * files an edit changed while git read the tree put back as they were before the edit. Built in an
	 * index of its own (the private index stays as the last snapshot left it) and kept reachable by a
	 * ref of its own, so no pack or prune drops it.
	 */
	withFiles(commit: string, files: ReadonlyMap<string, FileContent | null>): Promise<string> {
		return this.serial(async () => {
			const index = join(this.options.gitDir, "rudder-whole-index");
			const env = { ...this.env, GIT_INDEX_FILE: index };
			try {
				await this.git(["read-tree", commit], undefined, undefined, env);
				// Only files git's snapshot holds are put back: one it left out (ignored, too large) stays out
				// (the copies keep it), or the point would hold a file no other snapshot has.
				const held = new Set(await this.regularFilesIn(commit, [...files.keys()]));
				const gone = [...files].filter(([path, file]) => file === null && held.has(path)).map(([path]) => path);
				if (gone.length > 0) await this.git(["update-index", "--force-remove", "-z", "--stdin"], nulList(gone), undefined, env);
				const entries: string[] = [];
				for (const [path, file] of files) {
					if (!file || !held.has(path)) continue;
					const blob = (await this.git(["hash-object", "-w", "--stdin"], file.content)).trim();
					entries.push(`${file.mode & 0o111 ? "100755" : "100644"} ${blob}\t${path}`);
				}
				if (entries.length > 0) await this.git(["update-index", "-z", "--index-info"], nulList(entries), undefined, env);
				const tree = (await this.git(["write-tree"], undefined, undefined, env)).trim();
				const whole = (await this.git(["commit-tree", tree, "-p", commit, "-m", "checkpoint, edits made during the scan undone"])).trim();
				await this.git(["update-ref", `${WHOLE_REFS}${whole}`, whole]);
				return whole;
			} finally {
				await rm(index, { force: true });
			}
		});
	}

	/**
	 * Those of `paths` that `commit` holds as regular files. A copy says "absent" for a path that was no
	 * regular file before the edit: a file write created, or a link the edit then refused — only the
	 * first may leave the tree.
	 */
	private async regularFilesIn(commit: string, paths: string[]): Promise<string[]> {
		if (paths.length === 0) return [];
		const env = { ...this.env, GIT_LITERAL_PATHSPECS: "1" };
		const listed = splitNul(await this.git(["ls-tree", "-z", "--full-tree", commit, "--", ...paths], undefined, undefined, env));
		// "<mode> <type> <object>\t<path>" per entry.
		return listed.filter((entry) => entry.startsWith("100")).map((entry) => entry.slice(entry.indexOf("\t") + 1));
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

	/**
	 * Adds what changed to the private index and commits its tree. At 70k files the first snapshot has
	 * every path to handle: the listing is read record by record as git writes it, the sizes are asked a
	 * slice at a time and the list for `update-index` is written a slice at a time, each step yielding
	 * to the event loop, so no step holds the main thread for long (keys keep echoing meanwhile).
	 */
	private async takeSnapshot(): Promise<{ commit: string; skipped: Set<string> }> {
		const listed = new Set<string>();
		// A path both modified and deleted is listed twice; folders (a nested repository) end in "/".
		const records = new NulRecords((path) => {
			if (!path.endsWith("/")) listed.add(path);
		});
		await this.git(["ls-files", "-z", "--others", "--modified", "--deleted", "--exclude-standard"], undefined, (chunk) =>
			records.push(chunk),
		);
		const { keep, skipped } = await this.bySize(listed);
		// Many files (a first snapshot) go straight into one pack: with a big-file threshold of one byte
		// git streams every blob into a pack instead of writing one loose file each (70k files: 7.7 s
		// instead of 17.7 s, 8.6 MiB instead of 280 MiB; bench/RESULTS.md). A few stay loose for the
		// background pack, so snapshots do not leave a pack each.
		const bulk = keep.length >= BULK_PATHS ? ["-c", "core.bigFileThreshold=1"] : [];
		if (keep.length > 0) await this.git([...bulk, "update-index", "--add", "--remove", "-z", "--stdin"], nulSlices(keep));
		if (bulk.length === 0) this.unpacked += keep.length;
		// Out of the index too, so no snapshot claims an older version of a file now too large to keep.
		if (skipped.size > 0) await this.git(["update-index", "--force-remove", "-z", "--stdin"], nulSlices([...skipped]));
		const tree = (await this.git(["write-tree"])).trim();
		const parent = await this.head();
		if (parent && (await this.treeOf(parent)) === tree) return { commit: parent, skipped };
		const commit = (await this.git(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", "checkpoint"])).trim();
		await this.git(["update-ref", HEAD_REF, commit]);
		return { commit, skipped };
	}

	/** The paths to add (gone, or at most the size limit) and those over it, asked a slice at a time. */
	private async bySize(paths: Iterable<string>): Promise<{ keep: string[]; skipped: Set<string> }> {
		const keep: string[] = [];
		const skipped = new Set<string>();
		const sizeOf = (path: string) =>
			lstat(join(this.options.workspace, path)).then(
				(stat) => (stat.isFile() ? stat.size : 0),
				() => 0,
			);
		let slice: string[] = [];
		const flush = async () => {
			const sizes = await Promise.all(slice.map(sizeOf));
			slice.forEach((path, i) => {
				if ((sizes[i] as number) > this.options.maxFileBytes) skipped.add(path);
				else keep.push(path);
			});
			slice = [];
			await yieldToLoop();
		};
		for (const path of paths) {
			slice.push(path);
			if (slice.length === STAT_SLICE) await flush();
		}
		if (slice.length > 0) await flush();
		return { keep, skipped };
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
	 * it left is removed so the next snapshot can run. `input` given in pieces is written a piece at a
	 * time as git reads it; with `onOut`, stdout goes to it chunk by chunk and resolves as "".
	 */
	private git(
		args: string[],
		input?: string | Buffer | Iterable<string>,
		onOut?: (chunk: Buffer) => void,
		env: NodeJS.ProcessEnv = this.env,
	): Promise<string> {
		const command = args.find((arg, i) => arg !== "-c" && args[i - 1] !== "-c") ?? "";
		return new Promise((resolve, reject) => {
			const child = spawn(this.options.gitBinary, [...CONFIG, ...args], { cwd: this.options.workspace, env, stdio: "pipe" });
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
				if (outBytes > MAX_OUTPUT_BYTES) fail(new GitError(`git ${command} wrote more than ${MAX_OUTPUT_BYTES} bytes`));
				else if (onOut) onOut(chunk);
				else out.push(chunk);
			});
			child.stderr.on("data", (chunk: Buffer) => {
				if (err.length < 16) err.push(chunk);
			});
			// A child that exits before reading all of stdin makes the write fail (EPIPE): its exit status tells why.
			child.stdin.on("error", () => undefined);
			child.stdout.on("error", (error) => fail(new GitError(`git ${command}: ${error.message}`)));
			child.stderr.on("error", () => undefined);
			child.on("error", (error: NodeJS.ErrnoException) => {
				failure ??= new GitError(
					error.code === "ENOENT" ? `git was not found (${this.options.gitBinary})` : `git ${command}: ${error.message}`,
				);
			});
			child.on("close", (code, signal) => {
				if (!failure && code === 0) return resolve(Buffer.concat(out).toString("utf8"));
				const settle = () => {
					if (failure) return reject(failure);
					const stderr = Buffer.concat(err).toString("utf8").trim().split("\n")[0];
					const failed = new GitError(`git ${command} failed: ${stderr || (signal ? `killed by ${signal}` : `exit ${code}`)}`);
					if (code !== null) failed.exitCode = code;
					reject(failed);
				};
				if (signal || failure) this.removeLocks(0).then(settle, settle);
				else settle();
			});
			if (typeof input === "string" || Buffer.isBuffer(input) || input === undefined) child.stdin.end(input ?? "");
			else void feed(child.stdin, input);
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

/** From this many files to add, they are written into a pack at once rather than as loose objects. */
const BULK_PATHS = 1_000;
/** Files whose size is asked at once, between two turns of the event loop (a slice costs ~2 ms). */
const STAT_SLICE = 64;
/** Paths written to `update-index` per piece (~100 KB). */
const WRITE_SLICE = 2_000;

/** Lets the event loop run (timers, input) before the next slice of work. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Writes `pieces` to a child's stdin as it reads them, yielding between pieces; stops when the child is gone. */
async function feed(stdin: Writable, pieces: Iterable<string>): Promise<void> {
	for (const piece of pieces) {
		if (stdin.destroyed) return;
		if (!stdin.write(piece)) {
			await new Promise<void>((resolve) => {
				const done = () => {
					stdin.off("drain", done);
					stdin.off("close", done);
					resolve();
				};
				stdin.on("drain", done);
				stdin.on("close", done);
			});
		}
		await yieldToLoop();
	}
	if (!stdin.destroyed) stdin.end();
}

/** NUL-terminated records from chunks of output, each handed on as it completes (a record may span chunks). */
class NulRecords {
	private carry?: Buffer;

	constructor(private readonly record: (text: string) => void) {}

	push(chunk: Buffer): void {
		const data = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
		let start = 0;
		for (let end = data.indexOf(0, start); end >= 0; end = data.indexOf(0, start)) {
			this.record(data.toString("utf8", start, end));
			start = end + 1;
		}
		this.carry = start < data.length ? data.subarray(start) : undefined;
	}
}

function splitNul(text: string): string[] {
	const parts = text.split("\0");
	if (parts.at(-1) === "") parts.pop();
	return parts;
}

const nulList = (paths: string[]) => `${paths.join("\0")}\0`;

/** `nulList` in pieces of `WRITE_SLICE` paths, so no single string holds the whole list. */
function* nulSlices(paths: readonly string[]): Generator<string> {
	for (let start = 0; start < paths.length; start += WRITE_SLICE) yield nulList(paths.slice(start, start + WRITE_SLICE));
}

/** Deletes a file a snapshot did not have, and the folders that held only it, never through a symlink. */
async function removeFileAndEmptyParents(workspace: string, path: string): Promise<string | undefined> {
	return removeFile(await realpath(workspace), path, true);
}
