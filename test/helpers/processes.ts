import { readFileSync } from "node:fs";

/**
 * Whether `pid` still runs. A killed child's zombie still answers `kill(pid, 0)` until it is reaped,
 * and in some containers PID 1 never reaps; a zombie runs nothing, so it counts as gone.
 */
export function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
	} catch {
		return true;
	}
}
