// One network namespace for all of a session's sandboxed commands (without network): only loopback,
// up, and nothing else. A background server started in the sandbox is then reachable from the
// session's later sandboxed commands, while the host's network (its loopback included) stays out of
// reach. A holder process keeps the namespace: `unshare --user --map-root-user --net`, which brings
// `lo` up and sleeps; each command joins it with `nsenter --user --net` before bwrap starts (bwrap
// then makes its own user namespace inside, drops every capability, and sets the seccomp filter that
// refuses setns). The holder is a process group of its own in the registry, so exit, SIGTERM and
// SIGHUP end it with the commands. Where it cannot be made (no unshare, nsenter or ip, user
// namespaces off) each command gets an empty namespace of its own, as before.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { findOnPath } from "./find-on-path.js";
import { trackProcessGroup } from "./process-registry.js";
import { killProcessGroup } from "./shell.js";

export interface SharedNetns {
	readonly pid: number;
	/** `file args` started inside the namespace (and its user namespace). */
	wrap(file: string, args: readonly string[]): { file: string; args: string[] };
	/** Ends the holder (the namespace goes with the last process in it). */
	stop(): void;
}

/** How long the holder may take to bring `lo` up. */
const READY_MS = 3000;

function sleepSync(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The holder's command line once it is ready: `ip` has brought lo up and the shell exec'd the sleep. */
function ready(pid: number): boolean | undefined {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("sleep\0");
	} catch {
		return undefined;
	}
}

/**
 * Starts the holder; undefined when it cannot be made. `as` adapts the holder's launch (tests start
 * it as the user the commands run as).
 */
export function startSharedNetns(
	as: (launch: { file: string; args: string[] }) => { file: string; args: string[] } = (l) => l,
	path = process.env.PATH,
): SharedNetns | undefined {
	const unshare = findOnPath("unshare", path);
	const nsenter = findOnPath("nsenter", path);
	const ip = findOnPath("ip", path);
	if (!unshare || !nsenter || !ip) return undefined;
	const launch = as({
		file: unshare,
		args: ["--user", "--map-root-user", "--net", "/bin/sh", "-c", `"$0" link set lo up && exec sleep infinity`, ip],
	});
	let child: ReturnType<typeof spawn>;
	try {
		child = spawn(launch.file, launch.args, { detached: true, stdio: "ignore" });
	} catch {
		return undefined;
	}
	child.on("error", () => undefined);
	const pid = child.pid;
	if (pid === undefined) return undefined;
	trackProcessGroup(pid);
	child.unref();
	const deadline = Date.now() + READY_MS;
	let state = ready(pid);
	while (state === false && Date.now() < deadline) {
		sleepSync(10);
		state = ready(pid);
	}
	if (state !== true) {
		killProcessGroup(pid, 0);
		return undefined;
	}
	return {
		pid,
		wrap: (file, args) => ({
			file: nsenter,
			args: ["--preserve-credentials", `--user=/proc/${pid}/ns/user`, `--net=/proc/${pid}/ns/net`, "--", file, ...args],
		}),
		stop: () => killProcessGroup(pid, 0),
	};
}
