// What the sandbox checks after each command, for what mounts cannot stop: entries git or Rudder will
// act on later, outside the sandbox. A command may write the workspace, so it could plant a nested
// repository (`git init` + `core.fsmonitor`, which the user's next `git status` there would run), a
// `.git` or `.rudder` where there was none, or swap a protected link (`.rudder -> elsewhere`) for a
// real folder. After the command such an entry is moved aside to `<name>.rudder-quarantine-<n>`
// (a link that was there is put back), and the result says so. Detection is by change time, which a
// command cannot set back (utimes sets the others).
import { lstatSync, readlinkSync, renameSync, type Stats, symlinkSync } from "node:fs";
import { lstat, readdir, readFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";

/** Entries of every writable folder that stay read-only in the sandbox and are watched here. */
export const PROTECTED_NAMES = [".git", ".rudder", ".claude", ".mcp.json"] as const;

/** What in a git folder makes git run or read something a command could choose. */
const GIT_CONTROL = ["", "config", "config.worktree", "commondir", "hooks", "info", "info/attributes"];

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

/** Taken just before the command starts. */
export function snapshotProtected(roots: readonly string[], now = Date.now()): ProtectedSnapshot {
	const entries = new Map<string, Identity>();
	for (const root of roots) for (const name of PROTECTED_NAMES) entries.set(join(root, name), identity(join(root, name)));
	return { roots, entries, started: now };
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

/** Lines for the result: each entry moved aside, and why. */
export async function checkAfterCommand(before: ProtectedSnapshot, limit = GUARD_WALK_LIMIT): Promise<string[]> {
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
	for (const root of before.roots) await walk(root, root, before, budget, moved, notes);
	if (budget.cut) notes.push(`Rudder checked only the first ${limit} entries of the workspace for git folders the command planted.`);
	return notes;
}

/** Finds `.git` entries below the root's own and moves aside those the command made or changed. */
async function walk(
	root: string,
	folder: string,
	before: ProtectedSnapshot,
	budget: { left: number; cut: boolean },
	moved: (path: string, aside: string, why: string) => void,
	notes: string[],
): Promise<void> {
	let names: { name: string; isDirectory: boolean }[];
	try {
		names = (await readdir(folder, { withFileTypes: true })).map((e) => ({ name: e.name, isDirectory: e.isDirectory() }));
	} catch {
		return;
	}
	for (const { name, isDirectory } of names) {
		if (--budget.left < 0) {
			budget.cut = true;
			return;
		}
		const path = join(folder, name);
		if (name === ".git") {
			// A root's own `.git` is read-only in the sandbox, and a new one there was handled above.
			if (before.roots.includes(folder)) continue;
			if (await changedGit(path, root, before.started - CLOCK_SLACK_MS)) {
				try {
					moved(path, quarantine(path), "the sandboxed command made or changed this git folder, whose config and hooks git would run");
				} catch (error) {
					notes.push(`Rudder could not move aside ${path}, a git folder the sandboxed command changed: ${(error as Error).message}`);
				}
			}
			continue;
		}
		if (isDirectory && !NOT_WALKED.has(name) && !(folder === root && PROTECTED_NAMES.includes(name as never)))
			await walk(root, path, before, budget, moved, notes);
	}
}

async function changedSince(path: string, since: number): Promise<boolean> {
	const stat = await lstat(path).catch(() => undefined);
	return stat !== undefined && stat.ctimeMs >= since;
}

/** The `.git` (folder, or file naming one) or what git would read through it changed since `since`. */
async function changedGit(path: string, root: string, since: number): Promise<boolean> {
	const stat = await lstat(path).catch(() => undefined);
	if (!stat) return false;
	if (stat.ctimeMs >= since) return true;
	let gitDir = path;
	if (stat.isFile()) {
		// `gitdir: <path>`: a worktree or submodule; its folder inside the workspace is watched too.
		const text = await readFile(path, "utf8").catch(() => "");
		const named = /^gitdir:\s*(.+)$/m.exec(text)?.[1]?.trim();
		if (!named) return false;
		gitDir = isAbsolute(named) ? named : resolve(dirname(path), named);
		const rel = relative(root, gitDir);
		if (rel.startsWith("..") || isAbsolute(rel)) return false;
	} else if (!stat.isDirectory()) return false;
	for (const part of GIT_CONTROL) if (await changedSince(join(gitDir, part), since)) return true;
	const hooks = await readdir(join(gitDir, "hooks")).catch(() => [] as string[]);
	for (const hook of hooks) if (await changedSince(join(gitDir, "hooks", hook), since)) return true;
	return false;
}
