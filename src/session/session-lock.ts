// One process per session file: a lock file next to it (`<file>.lock`, created exclusively, holding the
// owner's pid and host). Two processes appending to one file would interleave their turns, and the next
// request would carry tool results without their calls. A lock whose process is gone (killed) is stale
// and taken over; a lock from another host is honoured, since its pid cannot be checked from here.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";

export class SessionLockedError extends Error {
	constructor(
		readonly path: string,
		readonly pid: number,
		readonly host: string,
	) {
		const where = host === hostname() ? `pid ${pid}` : `pid ${pid} on ${host}`;
		super(`${path} is open in another rudder (${where}); close that one, or fork the session to continue in a copy (--fork)`);
		this.name = "SessionLockedError";
	}
}

export interface SessionLock {
	readonly path: string;
	release(): void;
}

interface LockOwner {
	pid: number;
	host: string;
}

/** Takes the lock of `sessionFile`, or throws `SessionLockedError` naming the process that holds it. */
export function lockSessionFile(sessionFile: string): SessionLock {
	const path = `${sessionFile}.lock`;
	for (let attempt = 0; attempt < 3; attempt++) {
		if (tryCreate(path)) return held(path);
		const owner = readOwner(path);
		if (owner && isAlive(owner)) throw new SessionLockedError(sessionFile, owner.pid, owner.host);
		// Stale (its process is gone) or unreadable (torn by a crash between create and write): take it over.
		try {
			unlinkSync(path);
		} catch {
			// Another process took it over first; the next attempt sees its lock.
		}
	}
	const owner = readOwner(path);
	throw new SessionLockedError(sessionFile, owner?.pid ?? 0, owner?.host ?? hostname());
}

function tryCreate(path: string): boolean {
	let fd: number;
	try {
		fd = openSync(path, "wx", 0o600);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
		throw error;
	}
	try {
		writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname() }));
	} finally {
		closeSync(fd);
	}
	return true;
}

function readOwner(path: string): LockOwner | undefined {
	try {
		const value = JSON.parse(readFileSync(path, "utf8"));
		if (Number.isInteger(value?.pid) && typeof value?.host === "string") return value;
	} catch {
		// Missing or torn.
	}
	return undefined;
}

function isAlive(owner: LockOwner): boolean {
	if (owner.host !== hostname()) return true;
	try {
		process.kill(owner.pid, 0);
		return true;
	} catch (error) {
		// EPERM: the process exists but is not ours to signal.
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/** Held until `release()`, or until this process exits normally. */
function held(path: string): SessionLock {
	let released = false;
	const release = () => {
		if (released) return;
		released = true;
		process.off("exit", release);
		try {
			unlinkSync(path);
		} catch {
			// Already gone.
		}
	};
	process.on("exit", release);
	return { path, release };
}
