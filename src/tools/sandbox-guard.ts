// What the sandbox checks after each command, for what mounts cannot stop: entries git or Rudder will
// act on later, outside the sandbox. A command may write the workspace, so it could plant a nested
// repository (`git init` + `core.fsmonitor`, which the user's next `git status` there would run), a
// `.git` or `.rudder` where there was none, or swap a protected link (`.rudder -> elsewhere`) for a
// real folder. After the command such an entry is moved aside to `<name>.rudder-quarantine-<n>`
// (a link that was there is put back), and the result says so. Detection is by change time, which a
// command cannot set back (utimes sets the others).
import { type Dirent, lstatSync, readdirSync, readlinkSync, renameSync, type Stats, symlinkSync } from "node:fs";
import { lstat, readdir, readFile } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** Entries of every writable folder that stay read-only in the sandbox and are watched here. */
export const PROTECTED_NAMES = [".git", ".rudder", ".claude", ".mcp.json"] as const;

/** What in a git folder makes git run or read something a command could choose. */
const GIT_CONTROL = ["config", "config.worktree", "commondir", "hooks", "info", "info/attributes"];

/** Folders the nested-repository walk does not enter. */
const NOT_WALKED = new Set(["node_modules"]);

/** Entries the walk looks at per command before it stops (the result says so). */
export const GUARD_WALK_LIMIT = 50_000;

/** Timestamps are kept at the kernel's tick: a change a little before the recorded start still counts. */
const CLOCK_SLACK_MS = 20;

interface Identity {
	kind: "absent" | "link" | "dir" | "file";
	ino?: number;
	target?: string;
}

export interface ProtectedSnapshot {
	roots: readonly string[];
	/** By absolute path of each protected entry of each root. */
	entries: Map<string, Identity>;
	/** The nested `.git` entries there were before the command (path → inode). */
	gits: Map<string, number>;
	/** When the command started (ms since the epoch). */
	started: number;
}

function identity(path: string): Identity {
	let stat: Stats;
	try {
		stat = lstatSync(path);
	} catch {
		return { kind: "absent" };
	}
	if (stat.isSymbolicLink()) return { kind: "link", ino: stat.ino, target: readlinkSync(path) };
	return { kind: stat.isDirectory() ? "dir" : "file", ino: stat.ino };
}

const same = (a: Identity, b: Identity) => a.kind === b.kind && a.ino === b.ino && a.target === b.target;

/**
 * Taken just before the command starts. `gits`: the nested git entries the last check found (the
 * sandbox keeps them from one command to the next), else they are looked for now.
 */
export function snapshotProtected(roots: readonly string[], gits?: Map<string, number>, now = Date.now()): ProtectedSnapshot {
	const entries = new Map<string, Identity>();
	for (const root of roots) for (const name of PROTECTED_NAMES) entries.set(join(root, name), identity(join(root, name)));
	return { roots, entries, gits: gits ?? findGits(roots, { left: GUARD_WALK_LIMIT, cut: false }), started: now };
}

/** `path` moved aside to the first free `<path>.rudder-quarantine-<n>`; that name. */
function quarantine(path: string): string {
	for (let n = 1; ; n++) {
		const aside = `${path}.rudder-quarantine-${n}`;
		try {
			lstatSync(aside);
		} catch {
			renameSync(path, aside);
			return aside;
		}
	}
}

/** Lines for the result (each entry moved aside, and why), and the nested git entries that remain. */
export async function checkAfterCommand(
	before: ProtectedSnapshot,
	limit = GUARD_WALK_LIMIT,
): Promise<{ notes: string[]; gits: Map<string, number> }> {
	const notes: string[] = [];
	const moved = (path: string, aside: string, why: string) =>
		notes.push(`Rudder moved ${path} aside to ${aside}: ${why}. Check it before you rename it back; git and Rudder ignore it there.`);
	for (const [path, was] of before.entries) {
		const now = identity(path);
		if (same(was, now) || now.kind === "absent") continue;
		try {
			const aside = quarantine(path);
			if (was.kind === "link" && was.target !== undefined) symlinkSync(was.target, path);
			moved(path, aside, was.kind === "absent" ? "the sandboxed command created it" : "the sandboxed command replaced it");
		} catch (error) {
			notes.push(`Rudder could not move aside ${path}, which the sandboxed command changed: ${(error as Error).message}`);
		}
	}
	const budget = { left: limit, cut: false };
	const since = before.started - CLOCK_SLACK_MS;
	const gits = findGits(before.roots, budget);
	for (const [path, ino] of gits) {
		if (before.gits.get(path) === ino && !(await changedGit(path, since))) continue;
		try {
			moved(path, quarantine(path), "the sandboxed command made or changed this git folder, whose config and hooks git would run");
			gits.delete(path);
		} catch (error) {
			notes.push(`Rudder could not move aside ${path}, a git folder the sandboxed command changed: ${(error as Error).message}`);
		}
	}
	if (budget.cut) notes.push(`Rudder checked only the first ${limit} entries of the workspace for git folders the command planted.`);
	return { notes, gits };
}

/**
 * The `.git` entries (folders, files, links) below the roots, except each root's own (read-only in
 * the sandbox, and a new one there is a protected entry), by path → inode. node_modules is not entered.
 */
export function findGits(roots: readonly string[], budget: { left: number; cut: boolean }): Map<string, number> {
	const found = new Map<string, number>();
	const visit = (folder: string, root: string) => {
		let entries: Dirent[];
		try {
			entries = readdirSync(folder, { withFileTypes: true });
		} catch {
			return;
		}
		for (const entry of entries) {
			if (--budget.left < 0) {
				budget.cut = true;
				return;
			}
			const path = join(folder, entry.name);
			if (entry.name === ".git") {
				const ino = roots.includes(folder) ? undefined : lstatSync(path, { throwIfNoEntry: false })?.ino;
				if (ino !== undefined) found.set(path, ino);
				continue;
			}
			if (!entry.isDirectory() || NOT_WALKED.has(entry.name)) continue;
			if (folder === root && PROTECTED_NAMES.includes(entry.name as never)) continue;
			visit(path, root);
		}
	};
	for (const root of roots) visit(root, root);
	return found;
}

async function changedSince(path: string, since: number): Promise<boolean> {
	const stat = await lstat(path).catch(() => undefined);
	return stat !== undefined && stat.ctimeMs >= since;
}

/** What git would read through an existing `.git` (folder, or file naming one) changed since `since`. */
async function changedGit(path: string, since: number): Promise<boolean> {
	const stat = await lstat(path).catch(() => undefined);
	if (!stat) return false;
	if (stat.isSymbolicLink()) return true;
	let gitDir = path;
	if (stat.isFile()) {
		if (stat.ctimeMs >= since) return true;
		// `gitdir: <path>`: a worktree or submodule; its folder inside the workspace is watched too.
		const text = await readFile(path, "utf8").catch(() => "");
		const named = /^gitdir:\s*(.+)$/m.exec(text)?.[1]?.trim();
		if (!named) return false;
		gitDir = isAbsolute(named) ? named : resolve(dirname(path), named);
	} else if (!stat.isDirectory()) return false;
	for (const part of GIT_CONTROL) if (await changedSince(join(gitDir, part), since)) return true;
	const hooks = await readdir(join(gitDir, "hooks")).catch(() => [] as string[]);
	for (const hook of hooks) if (await changedSince(join(gitDir, "hooks", hook), since)) return true;
	return false;
}
