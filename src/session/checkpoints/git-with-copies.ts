// The git engine with file copies beside it. Git snapshots run in the background, one at a time; a
// prompt waits for a fresh one at most `waitMs` (the first snapshot of a large tree takes tens of
// seconds, a later one hundreds of milliseconds at 70k files). A point whose snapshot did not finish
// in time "covers edits only": until the next point, the copies engine keeps every file edit/write
// change (not only the ignored ones), so a rewind still undoes what those tools did, not what bash did.
// The slow snapshot goes on in the background and makes the next one incremental.
// The copies also cover what git leaves out: the shadow repository respects .gitignore, so a file the
// edit/write tools change under an ignored path (`dist/`, `.env.local`) is copied before the first
// tool change after a snapshot. Ignored files only bash changed stay the user's, as before.
// A snapshot id is `<commit>+<copies snapshot>`, with an empty commit for an edits-only point; a plain
// commit id (a checkpoint written before the copies existed) still restores what git kept.
import type { FileCopies } from "./file-copies.js";
import type { ShadowGit } from "./shadow-git.js";
import type { CheckpointEngine, FileChange, MutationObserver } from "./types.js";

const SEPARATOR = "+";

function parts(id: string): { commit: string; copies?: string } {
	const at = id.indexOf(SEPARATOR);
	return at < 0 ? { commit: id } : { commit: id.slice(0, at), copies: id.slice(at + 1) };
}

/** Whether a snapshot id of this engine covers only what edit/write changed (its git snapshot was not ready). */
export const coversEditsOnly = (id: string): boolean => id.startsWith(SEPARATOR);

/** Both engines' changes, one list sorted by path; git's entry wins for a path in both. */
function merged(git: FileChange[], copied: FileChange[]): FileChange[] {
	const inGit = new Set(git.map((c) => c.path));
	return [...git, ...copied.filter((c) => !inGit.has(c.path))].sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
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
	private queued?: Promise<string | undefined>;
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
		return this.pointWith(await this.fresh());
	}

	async promptSnapshot(): Promise<string> {
		return this.pointWith(await within(this.fresh(), this.promptWaitMs()));
	}

	/**
	 * How long the next prompt waits for its snapshot: `waitMs`, or nothing once the last snapshot took
	 * longer than that (a large tree: ~1 s at 70k files), where waiting could only delay the prompt and
	 * never gain a full point. The snapshot still runs; when they get quick again, prompts wait again.
	 */
	promptWaitMs(): number {
		return this.lastSnapshotMs !== undefined && this.lastSnapshotMs > this.waitMs ? 0 : this.waitMs;
	}

	private async pointWith(commit: string | undefined): Promise<string> {
		this.editsOnly = commit === undefined;
		return `${commit ?? ""}${SEPARATOR}${await this.copies.snapshotIfChanged()}`;
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
	private fresh(): Promise<string | undefined> {
		if (this.queued) return this.queued;
		const run: Promise<string | undefined> = this.tail.then(() => {
			if (this.queued === run) this.queued = undefined;
			// A failed snapshot (git killed, disk full) makes an edits-only point; the next prompt tries again.
			const started = performance.now();
			return this.git.snapshot().then(
				(commit) => {
					this.lastSnapshotMs = performance.now() - started;
					return commit;
				},
				() => undefined,
			);
		});
		this.queued = run;
		this.tail = run;
		return run;
	}
}
