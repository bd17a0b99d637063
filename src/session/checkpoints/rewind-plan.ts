// What a rewind would do, from the checkpoints of a session: each prompt has a snapshot taken before
// it was sent (`before`) and one when its run ended (`after`). What the run changed is before → after;
// what changed outside Rudder is after → the next prompt's before (the user's own edits between
// prompts), and after the last run → now.
import { shownPath } from "./shown-path.js";
import type { CheckpointEngine, FileChange } from "./types.js";

export interface CheckpointRecord {
	/** The session-log id of the user message this checkpoint precedes. */
	entryId: string;
	before: string;
	/** Absent while the run is going, or when the process died during it. */
	after?: string;
}

export interface RewindPreview {
	/** What restoring the code would change in the workspace as it is now. */
	changes: FileChange[];
	/** Paths among those that were changed outside Rudder since the checkpoint: named before anything is overwritten. */
	changedOutside: string[];
}

/** Files the run after this checkpoint changed (bash included with the git engine); `now` snapshots a run still going. */
export async function changedByRun(engine: CheckpointEngine, record: CheckpointRecord, now: () => Promise<string>): Promise<FileChange[]> {
	return engine.changes(record.before, record.after ?? (await now()));
}

/** What restoring to before `records[index]` would do, and which of those files someone else changed. */
export async function previewRewind(engine: CheckpointEngine, records: readonly CheckpointRecord[], index: number): Promise<RewindPreview> {
	const target = records[index];
	if (!target) throw new Error(`No checkpoint at ${index}`);
	const changes = await engine.preview(target.before);
	const touched = new Set(changes.map((c) => c.path));
	const outside = new Set<string>();
	const gaps: [string, string | undefined][] = [];
	for (let i = index; i < records.length; i++) {
		const after = records[i].after;
		if (after) gaps.push([after, records[i + 1]?.before]);
	}
	for (const [from, to] of gaps) {
		const end = to ?? (await engine.snapshot());
		for (const change of await engine.changes(from, end)) if (touched.has(change.path)) outside.add(change.path);
	}
	return { changes, changedOutside: [...outside].sort() };
}

/** `+12 −3 src/a.ts` lines for a menu. */
export function formatChange(change: FileChange): string {
	const path = shownPath(change.path);
	if (change.binary) return `${change.status === "added" ? "+" : change.status === "deleted" ? "−" : "~"} ${path} (binary)`;
	return `+${change.added} −${change.removed} ${path}`;
}
