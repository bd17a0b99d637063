// Resource limits of a sandboxed command: set in the sandbox, just before the command starts, as hard
// limits (a process without capabilities cannot raise them again), by bash's `ulimit` in the one shell
// that starts the command. The process count is RLIMIT_NPROC, which Linux does not apply to root: as
// root a pids cgroup holds it where one can be made (see pids-cgroup.ts).
import { findOnPath } from "./find-on-path.js";

export interface SandboxLimits {
	/** Processes and threads the command may have at once (RLIMIT_NPROC, or a pids cgroup as root). */
	processes: number;
	/** Memory each process may allocate, in MiB (RLIMIT_DATA: heap and private writable mappings). */
	memoryMiB: number;
	/** Largest file a process may write, in MiB (RLIMIT_FSIZE). */
	fileSizeMiB: number;
	/** CPU time each process may use, in seconds (RLIMIT_CPU). */
	cpuSeconds: number;
}

/**
 * Generous for builds and test suites (a vitest or cargo run stays far below), tight enough that a
 * fork bomb or a runaway allocation stops long before the machine does.
 */
export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
	processes: 1024,
	memoryMiB: 4096,
	fileSizeMiB: 2048,
	cpuSeconds: 3600,
});

/**
 * `file args` started by one bash inside the sandbox: it sets the limits (hard, and the CPU time's soft
 * one a second below it so SIGXCPU comes first), runs the command as its child, and then — where
 * `probe` names a file — copies the network namespace's counters there (and, before the command, to
 * `<probe>.before`) with builtins only (no process more to start per command). A limit that cannot be set stops the start (exit 125) rather than run
 * the command without it.
 */
export function limitedCommand(
	limits: SandboxLimits,
	file: string,
	args: readonly string[],
	probe?: string,
	path = process.env.PATH,
): string[] {
	const bash = findOnPath("bash", path) ?? "/bin/bash";
	// bash counts -d and -f in KiB.
	const set = [
		`ulimit -u ${limits.processes} -d ${limits.memoryMiB * 1024} -f ${limits.fileSizeMiB * 1024} -c 0`,
		`ulimit -S -t ${limits.cpuSeconds}`,
		`ulimit -H -t ${limits.cpuSeconds + 1}`,
	].join(" && ");
	// The namespace may be shared with the session's other commands: its counters before the command too.
	const copyTo = (to: string) => `{ while IFS= read -r line; do printf '%s\\n' "$line"; done < /proc/net/snmp > '${to}'; } 2>/dev/null; `;
	const before = probe ? copyTo(`${probe}.before`) : "";
	const after = probe ? `; ${copyTo(probe).trimEnd()}` : ";";
	return [bash, "-c", `{ ${set}; } || exit 125; ${before}"$@"; s=$?${after} exit $s`, "rudder-sandbox", file, ...args];
}

/**
 * The result line when a limit ended the command, from its exit status (a signal, or a shell's
 * 128 + signal), never from its output. A failed allocation ends a process in many ways; the
 * signals it usually ends with get a line that says what the limit is.
 */
export function limitNote(limits: SandboxLimits, exit: { code: number | null; signal: NodeJS.Signals | null }): string | undefined {
	const signal = exit.signal ?? (exit.code !== null && exit.code > 128 ? SIGNAL_BY_NUMBER[exit.code - 128] : undefined);
	if (signal === "SIGXCPU") return `killed: the sandbox's CPU time limit (${limits.cpuSeconds} s per process; sandbox.limits.cpuSeconds)`;
	if (signal === "SIGXFSZ") return `killed: the sandbox's file size limit (${limits.fileSizeMiB} MiB per file; sandbox.limits.fileSizeMiB)`;
	if (signal && OUT_OF_MEMORY_SIGNALS.has(signal))
		return `ended by ${signal}: if it ran out of memory, that is the sandbox's memory limit (${limits.memoryMiB} MiB per process; sandbox.limits.memoryMiB)`;
	return undefined;
}

const SIGNAL_BY_NUMBER: Record<number, NodeJS.Signals> = {
	5: "SIGTRAP",
	6: "SIGABRT",
	7: "SIGBUS",
	9: "SIGKILL",
	11: "SIGSEGV",
	24: "SIGXCPU",
	25: "SIGXFSZ",
};

/** How runtimes end when an allocation fails: V8 aborts or traps, C programs crash on a null pointer. */
const OUT_OF_MEMORY_SIGNALS = new Set<NodeJS.Signals>(["SIGABRT", "SIGTRAP", "SIGSEGV", "SIGBUS"]);
