// Which shell runs `bash` commands, and how a command's whole process group is stopped.
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** bash when it can be found (the model writes bash), else $SHELL, else sh. */
export function findShell(explicit?: string): string {
	if (explicit) return explicit;
	for (const candidate of ["/bin/bash", "/usr/bin/bash"]) if (existsSync(candidate)) return candidate;
	for (const folder of (process.env.PATH ?? "").split(delimiter)) {
		if (folder && existsSync(join(folder, "bash"))) return join(folder, "bash");
	}
	return process.env.SHELL || "sh";
}

/**
 * Sends SIGTERM to every process in the group led by `pid`, then SIGKILL after `graceMs` to whatever
 * is left. The command runs detached as its own group leader, so a negative pid reaches its children
 * (`sleep 100 &`, a dev server) too, and nothing outlives the tool.
 */
export function killProcessGroup(pid: number, graceMs: number): void {
	if (!signalGroup(pid, "SIGTERM")) return;
	setTimeout(() => {
		signalGroup(pid, "SIGKILL");
	}, graceMs);
}

/** False when the group no longer exists. */
function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false;
	}
}
