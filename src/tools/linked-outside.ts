// Symlinks met while grep, find and ls walk a folder: one whose target lies where a read would ask
// (outside the workspace, in ask, auto-edit and plan modes) is skipped and counted, so that a repo
// shipping `notes -> ~/.ssh/id_ed25519` cannot have its target searched or listed without the prompt
// `read` of the same link gets. The session passes the gate's verdict as one check per tool.
import { realpath } from "node:fs/promises";

/** False when a read of `realTarget` (the link's target, symlinks resolved) would ask. */
export type LinkCheck = (realTarget: string) => boolean;

/** Whether the link at `absolutePath` may be followed; a dangling link leads nowhere and is kept. */
export async function linkAllowed(check: LinkCheck, absolutePath: string): Promise<boolean> {
	const target = await realpath(absolutePath).catch(() => undefined);
	return target === undefined || check(target);
}

/** The note under a result that skipped links. */
export function linkedNote(count: number): string | undefined {
	if (count === 0) return undefined;
	return `${count} linked ${count === 1 ? "entry" : "entries"} outside the workspace skipped (read one by its path to be asked)`;
}
