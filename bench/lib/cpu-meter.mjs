// CPU time of an app's process tree over a window. /proc's utime/stime come in clock ticks (10 ms), too
// coarse for a 500-token reply that costs a few tens of milliseconds, and miss a thread that exited
// mid-window. A cgroup's CPU accounting is in nanoseconds and counts every task that was ever in it:
// threads, children forked later (they inherit it) and ones that have exited. So the tree is moved into
// a cgroup of its own (v1 `cpuacct` or v2 `cpu.stat`) when this machine lets us create one, and read
// from /proc otherwise; `method` says which.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const V1 = "/sys/fs/cgroup/cpuacct";
const V2 = "/sys/fs/cgroup";
let counter = 0;

/** The controller this machine offers: {dir, read(dir) → ns}, or undefined. */
function controller() {
	if (existsSync(join(V1, "cpuacct.usage"))) return { root: V1, read: (dir) => Number(readFileSync(join(dir, "cpuacct.usage"), "utf8")) };
	if (existsSync(join(V2, "cgroup.controllers"))) {
		return {
			root: V2,
			read: (dir) => 1000 * Number(/usage_usec (\d+)/.exec(readFileSync(join(dir, "cpu.stat"), "utf8"))?.[1] ?? Number.NaN),
		};
	}
	return undefined;
}

/**
 * A meter for the tree under `rootPid` (its current processes are given by `pids()`, the root first).
 * `seconds()` is monotonic CPU time since an arbitrary origin; `close()` gives the tasks back to the
 * parent cgroup and removes ours. `fallback(pid)` is the /proc reading used when no cgroup can be made.
 */
export function cpuMeter(pids, fallback) {
	const c = controller();
	if (c) {
		const dir = join(c.root, `rudder-bench-${process.pid}-${counter++}`);
		try {
			mkdirSync(dir);
			const [root, ...rest] = pids();
			writeFileSync(join(dir, "cgroup.procs"), String(root));
			for (const pid of rest) {
				try {
					writeFileSync(join(dir, "cgroup.procs"), String(pid));
				} catch (error) {
					// A short-lived child (a `git` or `which` an app runs) may exit between listing and moving.
					if (error.code !== "ESRCH") throw error;
				}
			}
			if (Number.isFinite(c.read(dir))) {
				return {
					method: "cgroup",
					seconds: () => c.read(dir) / 1e9,
					close: () => release(c.root, dir),
				};
			}
		} catch {
			release(c.root, dir);
		}
	}
	const root = pids()[0];
	return { method: "proc", seconds: () => fallback(root), close: () => {} };
}

function release(root, dir) {
	try {
		const left = readFileSync(join(dir, "cgroup.procs"), "utf8").trim().split(/\s+/).filter(Boolean);
		for (const pid of left) {
			try {
				writeFileSync(join(root, "cgroup.procs"), pid);
			} catch {
				// exited meanwhile
			}
		}
		// A task just killed leaves the cgroup once it is reaped.
		for (let attempt = 0; ; attempt++) {
			try {
				rmdirSync(dir);
				return;
			} catch (error) {
				if (attempt >= 20 || error.code !== "EBUSY") throw error;
				Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
			}
		}
	} catch {
		// never created, or already gone
	}
}
