// Rudder's own environment as other processes see it. Linux shows a process's initial environment —
// the block the kernel copied at exec, `/proc/<pid>/environ` — to every process of the same user, and
// changing `process.env` does not change that block. A command run outside the sandbox (yolo, or one
// the user let out) could read the keys Rudder was started with from `/proc/$PPID/environ`, whatever
// its own environment holds. This rewrites the block in place, through `/proc/self/mem`, without the
// entries `drop` names; their values stay in `process.env` (first moved to memory setenv owns, so
// nothing Rudder reads points into the block any more), so Rudder works on as before.
//
// Why not re-exec without them: Node 20 has no execve, so a re-exec is a second process whose parent
// stays alive with the whole environment in its own block (docs/tool-guards.md has the numbers).
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";

export type ScrubResult = { removed: string[] } | { error: string };

/** Fields 50 and 51 of /proc/<pid>/stat (proc(5)): where the environment block starts and ends. */
function environBounds(stat: string): { start: number; end: number } | undefined {
	// The command name (field 2) is in parentheses and may hold spaces: count from the last ")".
	const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	const start = Number(fields[50 - 3]);
	const end = Number(fields[51 - 3]);
	return Number.isSafeInteger(start) && Number.isSafeInteger(end) && end > start ? { start, end } : undefined;
}

/** The NUL-terminated `NAME=value` entries of a block (trailing padding left out). */
function entriesOf(block: Buffer): string[] {
	return block
		.toString("latin1")
		.split("\0")
		.filter((e) => e !== "");
}

const nameOf = (entry: string) => entry.slice(0, Math.max(0, entry.indexOf("=")));

/**
 * Removes from this process's `/proc/self/environ` every entry for which `drop(name, value)` holds.
 * Linux only (elsewhere nothing to do). Never throws: a failure is returned, the environment as it was.
 */
export function scrubOwnEnviron(drop: (name: string, value: string) => boolean, procDir = "/proc/self"): ScrubResult {
	if (process.platform !== "linux") return { removed: [] };
	try {
		const block = readFileSync(`${procDir}/environ`);
		const entries = entriesOf(block);
		// Values as the block holds them (latin1 keeps every byte); the test uses process.env's decoding.
		const removed = entries.filter((e) => {
			const name = nameOf(e);
			const value = process.env[name];
			return name !== "" && value !== undefined && drop(name, value);
		});
		if (removed.length === 0) return { removed: [] };
		const bounds = environBounds(readFileSync(`${procDir}/stat`, "utf8"));
		if (!bounds || bounds.end - bounds.start !== block.length) return { error: "the environment block is not where /proc says" };
		// Every variable of the block is set again, so that libc's environ points at copies and not
		// into the block about to change (getenv would otherwise read the rewritten bytes).
		const before = { ...process.env };
		for (const entry of entries) {
			const name = nameOf(entry);
			const value = before[name];
			if (value !== undefined) process.env[name] = value;
		}
		const kept = entries.filter((e) => !removed.includes(e));
		const next = Buffer.alloc(block.length);
		next.write(kept.map((e) => `${e}\0`).join(""), "latin1");
		const fd = openSync(`${procDir}/mem`, "r+");
		try {
			writeSync(fd, next, 0, next.length, bounds.start);
		} finally {
			closeSync(fd);
		}
		const after = entriesOf(readFileSync(`${procDir}/environ`));
		if (removed.some((e) => after.includes(e))) return { error: "the environment block did not change" };
		return { removed: removed.map(nameOf) };
	} catch (error) {
		return { error: error instanceof Error ? error.message : String(error) };
	}
}
