// The git engine with file copies beside it. Git snapshots run in the background, one at a time; a
// prompt waits for a fresh one at most `waitMs` (the first snapshot of a large tree takes seconds, a
// later one hundreds of milliseconds at 70k files). A point whose snapshot did not finish in time
// "covers edits only" at first: the copies engine keeps every file edit/write changes (not only the
// ignored ones), and what can change files unseen (bash, `!cmd`, hooks, MCP tools) waits for the
// snapshot (`untrackedChangesMayStart`). When it ends, the point is whole: its snapshot holds every
// file as it was at the point, except those an edit changed while git read the tree — git may have
// read them after the edit — so the point's commit is that snapshot with the copies taken before those
// edits put back (and a file write created meanwhile taken out). A snapshot that fails leaves the
// point edits-only.
// The copies also cover what git leaves out: the shadow repository respects .gitignore, so a file the
// edit/write tools change under an ignored path (`dist/`, `.env.local`) is copied before the first
// tool change after a snapshot. Ignored files only bash changed stay the user's, as before.
// A snapshot id is `<commit>+<copies snapshot>`, with an empty commit for an edits-only point; a plain
// commit id (a checkpoint written before the copies existed) still restores what git kept.
import type { FileCopies } from "./file-copies.js";
import type { ShadowGit } from "./shadow-git.js";
import type { CheckpointEngine, FileChange, MutationObserver, PromptPoint } from "./types.js";

const SEPARATOR = "+";

/** A commit id as git writes it: anything else in a session file (an option, a range) never reaches git. */
const COMMIT = /^([0-9a-f]{40}|[0-9a-f]{64})?$/;

function parts(id: string): { commit: string; copies?: string } {
	const at = id.indexOf(SEPARATOR);
	const commit = at < 0 ? id : id.slice(0, at);
	if (!COMMIT.test(commit)) throw new Error(`Not a checkpoint of this store: ${JSON.stringify(id.slice(0, 80))}`);
	return at < 0 ? { commit } : { commit, copies: id.slice(at + 1) };
}

/** A git snapshot's commit, or why it failed. */
type Taken = { commit: string } | { error: string };
/** What an edits-only point's snapshot ended in. */
type Whole = Awaited<NonNullable<PromptPoint["whole"]>>;

/** Whether a snapshot id of this engine covers only what edit/write changed (its git snapshot was not ready). */
export const coversEditsOnly = (id: string): boolean => id.startsWith(SEPARATOR);

/** Both engines' changes, one list sorted by path; git's entry wins for a path in both. */
function merged(git: FileChange[], copied: FileChange[]): FileChange[] {
	const inGit = new Set(git.map((c) => c.path));
	return [...git, ...copied.filter((c) => !inGit.has(c.path))].sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

/** Resolves when `work` settles or `signal` aborts, whichever comes first. */
function settledOrAborted(work: Promise<unknown>, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			signal?.removeEventListener("abort", done);
			resolve();
		};
		signal?.addEventListener("abort", done, { once: true });
		work.then(done, done);
	});
}

/** The value of `work`, or undefined when it takes longer than `ms` (it goes on in the background). */
function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const late = new Promise<undefined>((resolve) => {
		timer = setTimeout(() => resolve(undefined), ms);
	});
	return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export class GitWithCopies implements CheckpointEngine, MutationObserver {
	readonly kind = "git" as const;
	/** The last git snapshot started or queued. */
	private tail: Promise<unknown> = Promise.resolve();
	/** A git snapshot queued behind a running one and not started yet: a later point can share it. */
	private queued?: Promise<Taken>;
	/** The newest edits-only point's way to whole (or its failure), until it ends. */
	private awaited?: Promise<unknown>;
	/** Counts points, so a snapshot that ends knows whether its point is still the newest. */
	private points = 0;
	/** True while the newest point has no git commit: the copies then keep every file the tools change. */
	private editsOnly = true;
	/** How long the last git snapshot that succeeded took. */
	private lastSnapshotMs?: number;

	constructor(
		private readonly git: ShadowGit,
		private readonly copies: FileCopies,
		private readonly waitMs: number,
	) {}

	/** The store's background pack, if one runs (the benchmark waits for it before removing the store). */
	packed(): Promise<void> {
		return this.git.packed();
	}

	/** Starts a git snapshot in the background (the first one, at start-up). */
	warm(): void {
		void this.fresh();
	}

	/** A full snapshot, however long git takes (previews and restores must see everything). */
	async snapshot(): Promise<string> {
		const taken = await this.fresh();
		return (await this.pointWith("commit" in taken ? taken.commit : undefined)).id;
	}

	async promptSnapshot(): Promise<PromptPoint> {
		const run = this.fresh();
		const taken = await within(run, this.promptWaitMs());
		if (taken && "commit" in taken) return { id: (await this.pointWith(taken.commit)).id };
		const point = await this.pointWith(undefined);
		const whole = run
			.then((result): Promise<Whole> | Whole => ("error" in result ? result : this.madeWhole(point, result.commit)))
			.catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
		// Commands wait until the point is whole, the copies sealed included: a command that ran before
		// would leave later edits copied after it as if they were the point's own.
		this.awaited = whole;
		void whole.then(() => {
			if (this.awaited === whole) this.awaited = undefined;
		});
		return { id: point.id, whole };
	}

	/** The id of edits-only `point` covering everything, now that its snapshot `commit` is there. */
	private async madeWhole(point: { id: string; number: number }, commit: string): Promise<{ id: string }> {
		const copies = point.id.slice(SEPARATOR.length);
		// The copies taken until now, the later points' included (edits of their runs while git read the tree).
		const copied = this.copies.copied(copies);
		copied.catch(() => undefined);
		const newest = point.number === this.points;
		// Tracked files are git's again. The copies taken so far are this point's own; later ones go into a
		// snapshot of their own, even when none was taken yet, so the next point cannot share this one's.
		if (newest) this.editsOnly = false;
		try {
			if (newest) await this.copies.snapshot();
			// Files edited while git read the tree: the snapshot may hold them after the edit.
			const edited = await copied;
			return { id: `${edited.size > 0 ? await this.git.withFiles(commit, edited) : commit}${SEPARATOR}${copies}` };
		} catch (error) {
			// Not whole after all (the store full, say): while it is the newest point, the copies keep every
			// file the tools change again, or the run's later edits would be in no point.
			if (point.number === this.points) this.editsOnly = true;
			throw error;
		}
	}

	/** `waits` is called once when it must wait (a row then says so instead of running a timer). */
	async untrackedChangesMayStart(signal?: AbortSignal, waits?: () => void): Promise<void> {
		if (this.awaited && !signal?.aborted) waits?.();
		// A later prompt's point may start waiting meanwhile: wait for that one too.
		for (let awaited = this.awaited; awaited && !signal?.aborted; awaited = this.awaited) await settledOrAborted(awaited, signal);
	}

	/**
	 * How long the next prompt waits for its snapshot: `waitMs`, or nothing once the last snapshot took
	 * longer than that (a large tree: ~1 s at 70k files), where waiting could only delay the prompt and
	 * never gain a full point. The snapshot still runs; when they get quick again, prompts wait again.
	 */
	promptWaitMs(): number {
		return this.lastSnapshotMs !== undefined && this.lastSnapshotMs > this.waitMs ? 0 : this.waitMs;
	}

	private async pointWith(commit: string | undefined): Promise<{ id: string; number: number }> {
		// A point after an edits-only one never shares its copies: those become the earlier point's own
		// when it is whole, and must hold only copies taken before any command could run.
		const shared = !this.editsOnly;
		// A snapshot that ends while an edits-only point still waits for its own (a preview's full
		// snapshot queued before it) leaves the copies on: that point's copies must hold every edit until
		// its snapshot ends, and it makes the copies git's again itself, as the newest point.
		const waiting = commit !== undefined && this.awaited !== undefined;
		if (!waiting) this.editsOnly = commit === undefined;
		const number = waiting ? this.points : ++this.points;
		const copies = shared ? await this.copies.snapshotIfChanged() : await this.copies.snapshot();
		return { id: `${commit ?? ""}${SEPARATOR}${copies}`, number };
	}

	async beforeMutate(absolutePath: string): Promise<void> {
		if (this.editsOnly || (await this.git.isIgnored(absolutePath))) await this.copies.beforeMutate(absolutePath);
	}

	async changes(from: string, to: string): Promise<FileChange[]> {
		const a = parts(from);
		const b = parts(to);
		const copied = a.copies && b.copies ? await this.copies.changes(a.copies, b.copies) : [];
		// Without both commits git cannot say: the copies' list is what is known.
		return merged(a.commit && b.commit ? await this.git.changes(a.commit, b.commit) : [], copied);
	}

	async preview(id: string): Promise<FileChange[]> {
		const { commit, copies } = parts(id);
		return merged(commit ? await this.git.preview(commit) : [], copies ? await this.copies.preview(copies) : []);
	}

	async restore(id: string): Promise<FileChange[]> {
		const { commit, copies } = parts(id);
		// Copies first: a later edits-only point may hold a tracked file as it was after this point's
		// snapshot; git's checkout then puts every tracked file back as the snapshot has it.
		// The result is what each restore did, not a preview taken before: a path skipped because it
		// became a symbolic link must be named as skipped.
		const copied = copies ? await this.copies.restore(copies) : [];
		return merged(commit ? await this.git.restore(commit) : [], copied);
	}

	/** A git snapshot that starts now or later (never one that started earlier: tools may have run since). */
	private fresh(): Promise<Taken> {
		if (this.queued) return this.queued;
		const run: Promise<Taken> = this.tail.then(() => {
			if (this.queued === run) this.queued = undefined;
			// A failed snapshot (git killed, disk full) makes an edits-only point; the next prompt tries again.
			const started = performance.now();
			return this.git.snapshot().then(
				(commit) => {
					this.lastSnapshotMs = performance.now() - started;
					return { commit };
				},
				(error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
			);
		});
		this.queued = run;
		this.tail = run;
		return run;
	}
}
