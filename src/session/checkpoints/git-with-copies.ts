// The git engine with file copies beside it for what git leaves out: the shadow repository respects
// .gitignore, so a file the edit/write tools change under an ignored path (`dist/`, `.env.local`) would
// not come back on a rewind. Such files get the file-copy engine's treatment: copied before the first
// tool change after a snapshot. Ignored files only bash changed stay the user's, as before.
// A snapshot id is `<commit>+<copies snapshot>`; a plain commit id (a checkpoint written before the
// copies existed) still restores what git kept.
import type { FileCopies } from "./file-copies.js";
import type { ShadowGit } from "./shadow-git.js";
import type { CheckpointEngine, FileChange, MutationObserver } from "./types.js";

const SEPARATOR = "+";

function parts(id: string): { commit: string; copies?: string } {
	const at = id.indexOf(SEPARATOR);
	return at < 0 ? { commit: id } : { commit: id.slice(0, at), copies: id.slice(at + 1) };
}

/** Both engines' changes, one list sorted by path (a path is only ever in one of them). */
const merged = (a: FileChange[], b: FileChange[]) => [...a, ...b].sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));

export class GitWithCopies implements CheckpointEngine, MutationObserver {
	readonly kind = "git" as const;

	constructor(
		private readonly git: ShadowGit,
		private readonly copies: FileCopies,
	) {}

	/** The id of the git snapshot `commit` taken now, with the copies' snapshot beside it. */
	async with(commit: string): Promise<string> {
		return `${commit}${SEPARATOR}${await this.copies.snapshotIfChanged()}`;
	}

	async snapshot(): Promise<string> {
		return this.with(await this.git.snapshot());
	}

	async beforeMutate(absolutePath: string): Promise<void> {
		if (await this.git.isIgnored(absolutePath)) await this.copies.beforeMutate(absolutePath);
	}

	async changes(from: string, to: string): Promise<FileChange[]> {
		const a = parts(from);
		const b = parts(to);
		const copied = a.copies && b.copies ? await this.copies.changes(a.copies, b.copies) : [];
		return merged(await this.git.changes(a.commit, b.commit), copied);
	}

	async preview(id: string): Promise<FileChange[]> {
		const { commit, copies } = parts(id);
		return merged(await this.git.preview(commit), copies ? await this.copies.preview(copies) : []);
	}

	async restore(id: string): Promise<FileChange[]> {
		const { commit, copies } = parts(id);
		return merged(await this.git.restore(commit), copies ? await this.copies.restore(copies) : []);
	}
}
