// The process limit of a sandbox started by root. Linux does not apply RLIMIT_NPROC to root (uid 0
// keeps it in the sandbox's user namespace, so that files it writes keep their owner), so a fork bomb
// would be bounded only by the host. Root can make a pids cgroup instead: one per sandbox, under the
// cgroup Rudder runs in (v1 `pids` hierarchy, or v2 where `pids` can be enabled), joined by a small
// shell before it execs bwrap, so that nothing the command starts is outside it.
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface PidsCgroup {
	/** The cgroup's folder. */
	path: string;
	/** Times a fork was refused because the cgroup was full (`pids.events` "max"). */
	refusals(): number;
	/** `file args` started inside the cgroup. */
	wrap(file: string, args: readonly string[]): { file: string; args: string[] };
	/** Removes the cgroup (only once it is empty; a process left behind keeps it). */
	remove(): void;
}

/** Where this process's pids cgroup is, from /proc/self/cgroup: v1's `pids` line, else v2's `0::`. */
export function pidsCgroupParent(procCgroup: string, root = "/sys/fs/cgroup"): { path: string; v2: boolean } | undefined {
	const lines = procCgroup.split("\n").map((line) => line.split(":"));
	const v1 = lines.find((parts) => parts.length >= 3 && parts[1].split(",").includes("pids"));
	if (v1) return { path: join(root, "pids", parts(v1)), v2: false };
	const v2 = lines.find((parts) => parts.length >= 3 && parts[0] === "0" && parts[1] === "");
	if (v2) return { path: join(root, parts(v2)), v2: true };
	return undefined;
}

function parts(line: string[]): string {
	return line.slice(2).join(":");
}

let serial = 0;

/** A new pids cgroup limited to `max`, or undefined where it cannot be made (not root, no writable hierarchy). */
export function makePidsCgroup(max: number, sh = "/bin/sh"): PidsCgroup | undefined {
	if (process.getuid?.() !== 0) return undefined;
	let parent: { path: string; v2: boolean } | undefined;
	try {
		parent = pidsCgroupParent(readFileSync("/proc/self/cgroup", "utf8"));
	} catch {
		return undefined;
	}
	if (!parent) return undefined;
	removeStale(parent.path);
	const path = join(parent.path, `rudder-sandbox-${process.pid}-${++serial}`);
	try {
		if (parent.v2) writeFileSync(join(parent.path, "cgroup.subtree_control"), "+pids");
		mkdirSync(path);
	} catch {
		return undefined;
	}
	try {
		writeFileSync(join(path, "pids.max"), String(max));
	} catch {
		rmdirSync(path);
		return undefined;
	}
	return {
		path,
		refusals() {
			try {
				const match = /^max (\d+)/m.exec(readFileSync(join(path, "pids.events"), "utf8"));
				return match ? Number(match[1]) : 0;
			} catch {
				return 0;
			}
		},
		// A launch dropped to another user (setpriv around it) cannot join, and is bound by RLIMIT_NPROC instead.
		wrap: (file, args) => ({
			file: sh,
			args: ["-c", '{ echo $$ > "$0"; } 2>/dev/null; exec "$@"', join(path, "cgroup.procs"), file, ...args],
		}),
		remove() {
			removeSoon(path, 25);
		},
	};
}

/** rmdir, tried again for a moment while the last processes of the sandbox are still going away (a sandbox is disposed once). */
function removeSoon(path: string, tries: number): void {
	for (let left = tries; ; left--) {
		try {
			rmdirSync(path);
			return;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EBUSY" || left <= 0) return;
			Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
		}
	}
}

/** Cgroups left by Rudder processes that are gone (killed before they could remove theirs). */
function removeStale(parent: string): void {
	let names: string[];
	try {
		names = readdirSync(parent).filter((name) => name.startsWith("rudder-sandbox-"));
	} catch {
		return;
	}
	for (const name of names) {
		const pid = Number(name.split("-")[2]);
		if (pid !== process.pid && !alive(pid)) removeSoon(join(parent, name), 0);
	}
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}
