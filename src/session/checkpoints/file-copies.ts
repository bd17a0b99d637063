// The fallback engine, for when git is missing or the workspace is too large to snapshot in time: it
// keeps a copy of each file as it was before the first change the edit/write tools made to it after a
// snapshot. So it undoes what those tools did, and nothing bash did. Copies live on disk (resumed
// sessions can still rewind): `blobs/<sha256>` and one manifest per snapshot.
import { createHash } from "node:crypto";
import { lstat, mkdir, readdir, readFile, realpath, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { diffLines } from "diff";
import { openPinned } from "../../tools/pinned-open.js";
import { LINK_SCAN_LIMIT, otherNames } from "./link-names.js";
import { removeFile, restoreFile } from "./pinned-restore.js";
import type { CheckpointEngine, FileChange, FileContent, MutationObserver } from "./types.js";

/** A file's state: its content (by blob) and mode, or absent. */
type FileState = { blob: string; mode: number } | { absent: true };

interface Snapshot {
	id: string;
	/** State before the first tool change after this snapshot, by workspace-relative path. */
	before: Map<string, FileState>;
}

export class FileCopies implements CheckpointEngine, MutationObserver {
	readonly kind = "files" as const;
	private snapshots: Snapshot[] = [];
	/** Per snapshot id, a file copied there whose other names (hard links) could not all be found. */
	private readonly namesUnknown = new Map<string, string>();
	private readonly blobs: string;
	private readonly manifests: string;

	constructor(
		private readonly workspace: string,
		storeDir: string,
		private readonly maxFileBytes: number,
		private readonly linkScanLimit = LINK_SCAN_LIMIT,
	) {
		this.blobs = join(storeDir, "blobs");
		this.manifests = join(storeDir, "snapshots");
	}

	/** Reads the snapshots kept by earlier sessions. */
	async load(): Promise<void> {
		await mkdir(this.blobs, { recursive: true, mode: 0o700 });
		await mkdir(this.manifests, { recursive: true, mode: 0o700 });
		const names = (await readdir(this.manifests)).filter((n) => n.endsWith(".json")).sort();
		this.snapshots = [];
		for (const name of names) {
			try {
				const raw = JSON.parse(await readFile(join(this.manifests, name), "utf8")) as Record<string, FileState>;
				this.snapshots.push({ id: name.slice(0, -5), before: new Map(Object.entries(raw)) });
			} catch {
				// A torn manifest loses only that snapshot's copies.
			}
		}
	}

	async snapshot(): Promise<string> {
		const last = this.snapshots.at(-1);
		const next = last ? Number(last.id.slice(1)) + 1 : 1;
		const snapshot: Snapshot = { id: `f${String(next).padStart(8, "0")}`, before: new Map() };
		this.snapshots.push(snapshot);
		await this.persist(snapshot);
		return snapshot.id;
	}

	/** A snapshot, or the last one again when no file was copied since it (the state is the same). */
	async snapshotIfChanged(): Promise<string> {
		const last = this.snapshots.at(-1);
		return last && last.before.size === 0 ? last.id : this.snapshot();
	}

	/**
	 * The files changed since snapshot `id` (by the snapshots taken so far from it on), each as it was
	 * at `id` — its first copy from there: null where absent. Later snapshots count too: an edit of the
	 * next prompt's run is copied into that prompt's snapshot, and may have been made while git still
	 * read the tree for `id`'s point. Which snapshots count is decided when called, before any await.
	 */
	async copied(id: string): Promise<Map<string, FileContent | null>> {
		const states = new Map<string, FileState>();
		const start = this.indexOf(id);
		for (const snapshot of start < 0 ? [] : this.snapshots.slice(start)) {
			const unknown = this.namesUnknown.get(snapshot.id);
			// Git may hold the edit under a name not copied: the point cannot be whole.
			if (unknown) throw new Error(`${unknown} has hard links the workspace is too large to search for`);
			for (const [path, state] of snapshot.before) if (!states.has(path)) states.set(path, state);
		}
		const files = new Map<string, FileContent | null>();
		for (const [path, state] of states) {
			files.set(path, "absent" in state ? null : { content: await readFile(join(this.blobs, state.blob)), mode: state.mode });
		}
		return files;
	}

	async beforeMutate(absolutePath: string): Promise<void> {
		const current = this.snapshots.at(-1);
		const path = this.relativePath(absolutePath);
		if (!current || path === undefined || current.before.has(path)) return;
		current.before.set(path, await this.capture(path));
		await this.copyOtherNames(current, path);
		await this.persist(current);
	}

	/** edit and write change a file in place: its other names (hard links) change too, so they are copied as well. */
	private async copyOtherNames(snapshot: Snapshot, path: string): Promise<void> {
		const root = await realpath(this.workspace);
		const stat = await lstat(join(root, path)).catch(() => undefined);
		if (!stat?.isFile() || stat.nlink < 2) return;
		const others = await otherNames(root, path, stat, this.linkScanLimit);
		if (!others) {
			if (!this.namesUnknown.has(snapshot.id)) this.namesUnknown.set(snapshot.id, path);
			return;
		}
		for (const other of others) if (!snapshot.before.has(other)) snapshot.before.set(other, await this.capture(other));
	}

	async changes(from: string, to: string): Promise<FileChange[]> {
		const start = this.indexOf(from);
		const end = this.indexOf(to);
		const paths = this.pathsRecordedIn(start, end);
		const out: FileChange[] = [];
		for (const path of paths) {
			const change = await this.compare(path, this.stateAt(path, start), await this.stateOrDisk(path, end));
			if (change) out.push(change);
		}
		return out;
	}

	async preview(id: string): Promise<FileChange[]> {
		const index = this.indexOf(id);
		const out: FileChange[] = [];
		for (const path of this.pathsRecordedIn(index, this.snapshots.length)) {
			const change = await this.compare(path, await this.capture(path), this.stateAt(path, index));
			if (change) out.push(change);
		}
		return out;
	}

	async restore(id: string): Promise<FileChange[]> {
		const plan = await this.preview(id);
		const index = this.indexOf(id);
		// Never through a symlink: a folder a command replaced by a link is skipped and named.
		const root = await realpath(this.workspace);
		for (const change of plan) {
			const target = this.stateAt(change.path, index);
			const skipped =
				!target || "absent" in target
					? await removeFile(root, change.path)
					: await restoreFile(root, change.path, await readFile(join(this.blobs, target.blob)), target.mode);
			if (skipped) change.skipped = skipped;
		}
		return plan;
	}

	private relativePath(absolutePath: string): string | undefined {
		const rel = relative(this.workspace, absolutePath);
		if (!rel || rel.startsWith("..") || isAbsolute(rel)) return undefined;
		return rel.split(sep).join("/");
	}

	private indexOf(id: string): number {
		const index = this.snapshots.findIndex((s) => s.id === id);
		if (index < 0) throw new Error(`No checkpoint ${id} in this workspace's store`);
		return index;
	}

	/** Paths some snapshot in [start, end) recorded. */
	private pathsRecordedIn(start: number, end: number): string[] {
		const paths = new Set<string>();
		for (const snapshot of this.snapshots.slice(start, end)) for (const path of snapshot.before.keys()) paths.add(path);
		return [...paths].sort();
	}

	/** The file's state at snapshot `index`: the first copy taken at or after it; undefined = unchanged since. */
	private stateAt(path: string, index: number): FileState | undefined {
		for (const snapshot of this.snapshots.slice(index)) {
			const state = snapshot.before.get(path);
			if (state) return state;
		}
		return undefined;
	}

	private async stateOrDisk(path: string, index: number): Promise<FileState> {
		return this.stateAt(path, index) ?? (await this.capture(path));
	}

	/** Copies the file as it is now into the blob store. */
	private async capture(path: string): Promise<FileState> {
		const file = join(await realpath(this.workspace), path);
		const stat = await lstat(file).catch(() => undefined);
		if (!stat?.isFile()) return { absent: true };
		if (stat.size > this.maxFileBytes) return { absent: true };
		// Read without following a link on the way: what is outside the workspace is never copied in.
		const opened = await openPinned(file, path, { create: false, verb: "read", readOnly: true }).catch(() => undefined);
		if (!opened) return { absent: true };
		const content = await opened.handle.readFile().finally(() => opened.handle.close());
		const blob = createHash("sha256").update(content).digest("hex");
		await writeFile(join(this.blobs, blob), content, { mode: 0o600, flag: "wx" }).catch((error: NodeJS.ErrnoException) => {
			if (error.code !== "EEXIST") throw error;
		});
		return { blob, mode: stat.mode };
	}

	private async compare(path: string, from: FileState | undefined, to: FileState | undefined): Promise<FileChange | undefined> {
		const a = from ?? (await this.capture(path));
		const b = to ?? (await this.capture(path));
		const aAbsent = "absent" in a;
		const bAbsent = "absent" in b;
		if (aAbsent && bAbsent) return undefined;
		if (!aAbsent && !bAbsent && a.blob === b.blob && (a.mode & 0o777) === (b.mode & 0o777)) return undefined;
		const before = aAbsent ? "" : await readFile(join(this.blobs, a.blob), "utf8");
		const after = bAbsent ? "" : await readFile(join(this.blobs, b.blob), "utf8");
		let added = 0;
		let removed = 0;
		for (const part of diffLines(before, after)) {
			if (part.added) added += part.count ?? 0;
			else if (part.removed) removed += part.count ?? 0;
		}
		return { path, status: aAbsent ? "added" : bAbsent ? "deleted" : "modified", added, removed };
	}

	private async persist(snapshot: Snapshot): Promise<void> {
		const body = JSON.stringify(Object.fromEntries(snapshot.before));
		await writeFile(join(this.manifests, `${snapshot.id}.json`), body, { mode: 0o600 });
	}
}
