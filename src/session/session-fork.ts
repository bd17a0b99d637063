// Forks in pi's sense, over the session file's entry tree: the user messages of the current branch a
// fork can start from, and the part of the branch a fork from one of them keeps (everything before
// it; the message's own text goes back to the user to edit and send again). Pure over a loaded file.
import type { SessionEntry } from "./session-format.js";
import type { LoadedSession } from "./session-load.js";
import { messageText } from "./session-messages.js";

export interface ForkPoint {
	entryId: string;
	text: string;
}

type UserEntry = Extract<SessionEntry, { type: "message" }> & { message: { role: "user" } };

function isUserEntry(entry: SessionEntry): entry is UserEntry {
	return entry.type === "message" && entry.message.role === "user";
}

/** The user messages on the current branch, oldest first (compacted ones included: the file has them). */
export function forkPoints(loaded: LoadedSession): ForkPoint[] {
	return loaded.branch.filter(isUserEntry).map((e) => ({ entryId: e.id, text: messageText(e.message) }));
}

/**
 * What a fork from the user message `entryId` holds: the branch's entries before it, as a loaded
 * session whose leaf is the last of them. Throws one line when the id names no user message on the branch.
 */
export function forkBefore(loaded: LoadedSession, entryId: string): { text: string; kept: LoadedSession } {
	const at = loaded.branch.findIndex((e) => e.id === entryId);
	const entry = loaded.branch[at];
	if (!entry || !isUserEntry(entry)) throw new Error(`No user message with entry id "${entryId}" on the current branch`);
	const entries = loaded.branch.slice(0, at);
	return { text: messageText(entry.message), kept: { ...loaded, entries, branch: entries, leafId: entries.at(-1)?.id ?? null } };
}

/** The current branch alone, for a copy of the session at its current position (pi's `clone`). */
export function currentBranch(loaded: LoadedSession): LoadedSession {
	return { ...loaded, entries: loaded.branch };
}
