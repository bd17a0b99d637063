// Which shell runs `bash` commands, the one place tool and `!cmd` processes are spawned, and how a
// command's whole process group is stopped.
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { Readable } from "node:stream";
import { trackProcessGroup } from "./process-registry.js";

export interface ShellCommand {
	shell: string;
	command: string;
	cwd: string;
	env?: NodeJS.ProcessEnv;
	/** Turns the launch into a sandboxed one (see sandbox.ts). */
	wrap?: (file: string, args: string[], cwd: string) => { file: string; args: string[] };
}

/**
 * Starts `shell -c command` as the leader of its own process group (one signal to the group stops
 * everything it started), registered so that the group is killed when Rudder exits.
 */
export function spawnShellCommand({ shell, command, cwd, env, wrap }: ShellCommand): ChildProcessByStdio<null, Readable, Readable> {
	const launch = wrap?.(shell, ["-c", command], cwd) ?? { file: shell, args: ["-c", command] };
	const child = spawn(launch.file, launch.args, { cwd, env: env ?? process.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
	if (child.pid !== undefined) trackProcessGroup(child.pid);
	return child;
}

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
