// Which shell runs `bash` commands, the one place tool and `!cmd` processes are spawned, and how a
// command's whole process group is stopped.
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { Readable } from "node:stream";
import { trackProcessGroup } from "./process-registry.js";

/** How a process is started: what a sandbox makes of `shell -c command`. */
export interface Launch {
	file: string;
	args: string[];
	/** A file the process reads on its descriptor 3 (bwrap's `--seccomp 3` program), opened for each start. */
	fd3File?: string;
	/**
	 * Called once the process exited: what the sandbox saw (a limit that ended it, a planted git folder
	 * it moved aside), as lines for the result. Never derived from what the command printed.
	 */
	finish?: (exit: { code: number | null; signal: NodeJS.Signals | null }) => Promise<string[]> | string[];
}

/** Turns `file args` into a (sandboxed) launch; `callId` names the tool call it is for. */
export type WrapSpawn = (file: string, args: string[], cwd: string, callId?: string) => Launch;

export interface ShellCommand {
	shell: string;
	command: string;
	cwd: string;
	env?: NodeJS.ProcessEnv;
	/** Turns the launch into a sandboxed one (see sandbox.ts). */
	wrap?: WrapSpawn;
	/** The tool call the command is for, passed to `wrap`. */
	callId?: string;
}

/** What `wrap` makes of `shell -c command`, or that as is. */
export function shellLaunch({ shell, command, cwd, wrap, callId }: ShellCommand): Launch {
	return wrap?.(shell, ["-c", command], cwd, callId) ?? { file: shell, args: ["-c", command] };
}

/**
 * Starts `shell -c command` (or the given launch of it) as the leader of its own process group (one
 * signal to the group stops everything it started), registered so that the group is killed when
 * Rudder exits.
 */
export function spawnShellCommand(command: ShellCommand, launch = shellLaunch(command)): ChildProcessByStdio<null, Readable, Readable> {
	// Opened for each start, so each reads the file from its beginning; closed here once the child has it.
	const fd3 = launch.fd3File === undefined ? undefined : openSync(launch.fd3File, "r");
	try {
		const stdio: ("ignore" | "pipe" | number)[] = fd3 === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", "pipe", "pipe", fd3];
		const child = spawn(launch.file, launch.args, { cwd: command.cwd, env: command.env ?? process.env, detached: true, stdio });
		if (child.pid !== undefined) trackProcessGroup(child.pid);
		return child as ChildProcessByStdio<null, Readable, Readable>;
	} finally {
		if (fd3 !== undefined) closeSync(fd3);
	}
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
