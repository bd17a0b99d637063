// Rewind for a session: a checkpoint of the workspace before each prompt and after each run, kept as
// entries of the session log, and the operations built on them — restore code and/or conversation to
// before a prompt (`/rewind`, `/undo`), branch the conversation (`/branch`), list and switch branches
// (`/tree`), and fork a new session file (`/fork`). The conversation is never deleted: a restore moves
// the log's position in its tree, and what came after stays on the branch it was on.
import type { AgentMessage } from "../agent/types.js";
import type { CheckpointStore } from "./checkpoint-store.js";
import { coversEditsOnly, type FileChange, type OpenedCheckpoints, type PromptPoint } from "./checkpoints/index.js";
import { type CheckpointRecord, previewRewind, type RewindPreview } from "./checkpoints/rewind-plan.js";
import { shownChanges, shownPreview } from "./checkpoints/shown-path.js";
import { ASIDE_KINDS, type EntryOf, type SessionEntry } from "./session-format.js";
import { type LoadedSession, loadSession } from "./session-load.js";
import type { SessionLog } from "./session-log.js";
import { messageText } from "./session-messages.js";

export type RestoreWhat = "code" | "conversation" | "both";

/** A prompt of the current branch that can be rewound to. */
export interface RewindPoint {
	/** The user message's entry id. */
	entryId: string;
	text: string;
	timestamp: string;
	/** Absent for prompts without a checkpoint (steering, older files, checkpoints off): conversation only. */
	checkpoint?: CheckpointRecord;
	/** The checkpoint covers only what edit/write changed (its git snapshot did not end, or failed). */
	editsOnly?: boolean;
	/** What the run after this prompt changed in the files (empty without a checkpoint). */
	changes: FileChange[];
}

export interface RewindResult {
	entryId: string;
	restore: RestoreWhat;
	/** Files the code restore changed. */
	files: FileChange[];
	/** The prompt's text. */
	prompt: string;
	/** The prompt's text, for the input (a conversation restore). */
	text?: string;
}

/** One branch of the session's tree, by its leaf. */
export interface BranchInfo {
	leafId: string;
	/** The last prompt on the branch ("" when it has none). */
	text: string;
	timestamp: string;
	current: boolean;
	messageCount: number;
}

/** One entry of the session tree, as rpc `get_tree` lists it. */
export interface TreeEntry {
	id: string;
	parentId: string | null;
	type: string;
	timestamp: string;
	/** Message entries: the role and the start of the text. */
	role?: string;
	text?: string;
}

/** The parts rewind works with, all built before it (see assemble.ts). */
export interface SessionRewindDeps {
	checkpoints: CheckpointStore;
	/** The session file open now; absent with --no-session. */
	log(): SessionLog | undefined;
	/** Replaces the transcript with the branch the log is on now (after a move). */
	adoptBranch(loaded: LoadedSession): void;
	notify(level: "warning", text: string): void;
	emitCheckpoint(entryId: string, snapshot: string, engine: "git" | "files"): void;
}

/** How many of the newest prompts get their changed files listed (each costs two `git diff`s). */
const POINTS_WITH_CHANGES = 50;

export class SessionRewind {
	/** Checkpoint work runs one piece at a time, so log entries keep their order. */
	private chain: Promise<unknown> = Promise.resolve();
	/** The `before` snapshot of the run going on, until its `after` is written. */
	private openRun?: string;
	/** Edits-only checkpoints whose snapshots have not ended yet (each then writes its `checkpoint_whole`). */
	private readonly becomingWhole = new Set<Promise<void>>();

	constructor(private readonly deps: SessionRewindDeps) {}

	/** Before a prompt is sent: a `before` checkpoint; the prompt's user message becomes its child. */
	beforePrompt(): Promise<void> {
		return this.serial(async () => {
			const log = this.deps.log();
			if (!log) return;
			this.deps.checkpoints.start();
			const opened = await this.deps.checkpoints.opened();
			if (!opened) return;
			const point = await promptPoint(opened);
			const entryId = log.append({ type: "checkpoint", snapshot: point.id, engine: opened.engine.kind, when: "before" });
			this.openRun = point.id;
			this.deps.emitCheckpoint(entryId, point.id, opened.engine.kind);
			if (point.whole) this.whenWhole(point.whole, (result) => this.madeWhole(log, entryId, result, "before"));
		});
	}

	/** When a run ended: an `after` checkpoint, so later changes by someone else can be told apart. */
	afterRun(): Promise<void> {
		return this.serial(async () => {
			const log = this.deps.log();
			const opened = await this.deps.checkpoints.opened();
			if (!log || !opened || this.openRun === undefined) return;
			this.openRun = undefined;
			const point = await promptPoint(opened);
			const entryId = log.append({ type: "checkpoint", snapshot: point.id, engine: opened.engine.kind, when: "after" });
			if (point.whole) this.whenWhole(point.whole, (result) => this.madeWhole(log, entryId, result, "after"));
		});
	}

	/**
	 * An edits-only checkpoint's snapshot ended: recorded aside as the checkpoint's child (any time, even
	 * between a checkpoint and its prompt, without moving the leaf), in the file it belongs to only. A
	 * failed one stays edits-only, and a rewind point says so once.
	 */
	private madeWhole(log: SessionLog, entryId: string, result: { id: string } | { error: string }, when: "before" | "after"): void {
		if ("error" in result) {
			if (when === "before")
				this.deps.notify("warning", `The rewind point of this prompt covers edits only: its snapshot failed (${result.error})`);
			return;
		}
		if (this.deps.log() !== log) return;
		try {
			log.appendAside({ type: "checkpoint_whole", snapshot: result.id }, entryId);
		} catch {
			// The file was closed meanwhile (the session ended): the point stays edits-only.
		}
	}

	/** Resolves when no checkpoint is being taken. */
	settled(): Promise<void> {
		return this.chain.then(() => undefined);
	}

	/** Resolves when, besides, every edits-only checkpoint has become whole (or failed to). */
	async wholeSettled(): Promise<void> {
		await this.settled();
		await Promise.all(this.becomingWhole);
	}

	private whenWhole(whole: NonNullable<PromptPoint["whole"]>, then: (result: Awaited<typeof whole>) => void): void {
		const done = whole.then(then).finally(() => this.becomingWhole.delete(done));
		this.becomingWhole.add(done);
	}

	/**
	 * The prompts of the current branch, newest first, each with what its run changed. Points whose
	 * snapshots are still running are waited for (a fraction of a second at 70k files), so a run's list
	 * holds what bash changed too.
	 */
	async points(): Promise<RewindPoint[]> {
		await this.wholeSettled();
		const loaded = this.loadOwnFile();
		if (!loaded) return [];
		const opened = await this.deps.checkpoints.opened();
		const points = pointsOf(loaded.branch, opened?.engine.kind, wholeCheckpoints(loaded.entries)).reverse();
		if (opened) {
			const now = () => opened.engine.snapshot();
			for (const point of points.slice(0, POINTS_WITH_CHANGES)) {
				if (point.checkpoint)
					point.changes = shownChanges(await opened.engine.changes(point.checkpoint.before, point.checkpoint.after ?? (await now())));
			}
		}
		return points;
	}

	/** What a code restore to before `entryId` would change, and which of those files changed outside Rudder. */
	async preview(entryId: string): Promise<RewindPreview> {
		await this.wholeSettled();
		const { opened, records, index } = await this.locate(entryId, "code");
		return shownPreview(await previewRewind(opened.engine, records, index));
	}

	/** Restores code, conversation or both to just before the prompt `entryId`. */
	async rewind(entryId: string, restore: RestoreWhat): Promise<RewindResult> {
		await this.wholeSettled();
		const loaded = this.loadOwnFile();
		if (!loaded) throw new Error("Rewind needs a session file (this session runs with --no-session)");
		const entry = loaded.branch.find((e) => e.id === entryId);
		if (!entry || entry.type !== "message" || entry.message.role !== "user") throw new Error(`No prompt ${entryId} on this branch`);
		let files: FileChange[] = [];
		if (restore !== "conversation") {
			const { opened, records, index } = await this.locate(entryId, "code");
			files = shownChanges(await opened.engine.restore(records[index].before));
		}
		const result: RewindResult = { entryId, restore, files, prompt: messageText(entry.message) };
		if (restore !== "code") {
			this.moveTo(entry.parentId);
			result.text = result.prompt;
		}
		return result;
	}

	/** Code and conversation back to just before the last prompt that has a checkpoint. */
	async undo(): Promise<RewindResult> {
		const last = (await this.points()).find((p) => p.checkpoint);
		if (!last) throw new Error("Nothing to undo: no prompt of this branch has a checkpoint");
		return this.rewind(last.entryId, "both");
	}

	/** The branches of the session's tree, newest first. */
	branches(): BranchInfo[] {
		const loaded = this.loadOwnFile();
		if (!loaded) return [];
		const byId = new Map(loaded.entries.map((e) => [e.id, e]));
		const hasChild = new Set(loaded.entries.map((e) => e.parentId).filter((id): id is string => id !== null));
		const current = loaded.leafId;
		const out: BranchInfo[] = [];
		for (const leaf of loaded.entries) {
			if (hasChild.has(leaf.id) || leaf.type === "checkpoint_whole") continue;
			const path = pathTo(byId, leaf.id);
			const prompts = path.filter(isUserMessage);
			const lastPrompt = prompts.at(-1);
			out.push({
				leafId: leaf.id,
				text: lastPrompt ? messageText(lastPrompt.message) : "",
				timestamp: leaf.timestamp,
				current: leaf.id === current,
				messageCount: path.filter((e) => e.type === "message").length,
			});
		}
		return out.reverse();
	}

	/** Every entry of the file with its place in the tree, and the current leaf (rpc `get_tree`). */
	tree(): { entries: TreeEntry[]; leafId: string | null } {
		const loaded = this.loadOwnFile();
		if (!loaded) return { entries: [], leafId: null };
		const entries = loaded.entries.map((e): TreeEntry => {
			const out: TreeEntry = { id: e.id, parentId: e.parentId, type: e.type, timestamp: e.timestamp };
			if (e.type === "message") {
				out.role = e.message.role;
				out.text = messageText(e.message).slice(0, 200);
			}
			return out;
		});
		return { entries, leafId: loaded.leafId };
	}

	/** Continues on the branch ending at `leafId`. */
	switchBranch(leafId: string): void {
		const loaded = this.loadOwnFile();
		const entry = loaded?.entries.find((e) => e.id === leafId);
		if (!entry) throw new Error(`No branch ${leafId} in this session`);
		// A sub-agent's side branch is its transcript, not a conversation to continue.
		if (entry.type === "subagent") throw new Error(`${leafId} is a message of sub-agent ${entry.agentId}, not a branch of this session`);
		if (ASIDE_KINDS.has(entry.type)) throw new Error(`${leafId} is not a branch of this session`);
		this.moveTo(leafId);
	}

	private moveTo(entryId: string | null): void {
		const log = this.deps.log();
		if (!log) throw new Error("Rewind needs a session file");
		log.branchFrom(entryId);
		this.openRun = undefined;
		this.deps.adoptBranch(loadSession(log.path));
	}

	private loadOwnFile(): LoadedSession | undefined {
		const log = this.deps.log();
		if (!log) return undefined;
		try {
			return loadSession(log.path);
		} catch {
			// Not written yet: a session with no entries has no prompts to go back to.
			return undefined;
		}
	}

	private async locate(entryId: string, need: "code"): Promise<{ opened: OpenedCheckpoints; records: CheckpointRecord[]; index: number }> {
		const opened = await this.deps.checkpoints.opened();
		if (!opened) throw new Error(`Cannot restore ${need}: checkpoints are off for this session`);
		const loaded = this.loadOwnFile();
		const points = loaded ? pointsOf(loaded.branch, opened.engine.kind, wholeCheckpoints(loaded.entries)) : [];
		const withCheckpoint = points.filter((p) => p.checkpoint);
		const index = withCheckpoint.findIndex((p) => p.entryId === entryId);
		if (index < 0) throw new Error(`Cannot restore ${need}: the prompt ${entryId} has no checkpoint`);
		return { opened, records: withCheckpoint.map((p) => p.checkpoint as CheckpointRecord), index };
	}

	private serial<T>(work: () => Promise<T>): Promise<T> {
		const next = this.chain.then(work, work);
		this.chain = next.catch((error: unknown) => {
			this.deps.notify("warning", `Checkpoint failed: ${error instanceof Error ? error.message : String(error)}`);
		});
		return next.catch(() => undefined as T);
	}
}

const isUserMessage = (e: SessionEntry): e is EntryOf<"message"> & { message: Extract<AgentMessage, { role: "user" }> } =>
	e.type === "message" && e.message.role === "user";

/** The point as the engine gives it: an edits-only one comes with its snapshot's end. */
function promptPoint(opened: OpenedCheckpoints): Promise<PromptPoint> {
	return opened.engine.promptSnapshot?.() ?? opened.engine.snapshot().then((id) => ({ id }));
}

/** Checkpoint entry id → its id covering everything, for the checkpoints made whole after they were written. */
export function wholeCheckpoints(entries: readonly SessionEntry[]): ReadonlyMap<string, string> {
	const whole = new Map<string, string>();
	for (const entry of entries) if (entry.type === "checkpoint_whole" && entry.parentId !== null) whole.set(entry.parentId, entry.snapshot);
	return whole;
}

/**
 * The prompts of a branch in order. A prompt has a checkpoint when its parent entry is a `before`
 * checkpoint of the engine in use; the run's `after` is the first one before the next such prompt.
 * `whole` replaces the snapshot of checkpoints made whole later (`wholeCheckpoints`).
 */
export function pointsOf(
	branch: readonly SessionEntry[],
	engine: "git" | "files" | undefined,
	whole: ReadonlyMap<string, string> = new Map(),
): RewindPoint[] {
	const points: RewindPoint[] = [];
	let lastWithCheckpoint: RewindPoint | undefined;
	const byId = new Map(branch.map((e) => [e.id, e]));
	const snapshotOf = (entry: EntryOf<"checkpoint">) => whole.get(entry.id) ?? entry.snapshot;
	for (const entry of branch) {
		if (entry.type === "checkpoint" && entry.when === "after" && entry.engine === engine) {
			if (lastWithCheckpoint?.checkpoint && !lastWithCheckpoint.checkpoint.after) lastWithCheckpoint.checkpoint.after = snapshotOf(entry);
			continue;
		}
		if (!isUserMessage(entry)) continue;
		const parent = entry.parentId ? byId.get(entry.parentId) : undefined;
		const point: RewindPoint = { entryId: entry.id, text: messageText(entry.message), timestamp: entry.timestamp, changes: [] };
		if (parent?.type === "checkpoint" && parent.when === "before" && parent.engine === engine) {
			point.checkpoint = { entryId: entry.id, before: snapshotOf(parent) };
			if (coversEditsOnly(point.checkpoint.before)) point.editsOnly = true;
			lastWithCheckpoint = point;
		}
		points.push(point);
	}
	return points;
}

function pathTo(byId: Map<string, SessionEntry>, leafId: string): SessionEntry[] {
	const path: SessionEntry[] = [];
	const seen = new Set<string>();
	let id: string | null = leafId;
	while (id !== null && !seen.has(id)) {
		seen.add(id);
		const entry = byId.get(id);
		if (!entry) break;
		path.push(entry);
		id = entry.parentId;
	}
	return path.reverse();
}
