// Every process group a tool or `!cmd` starts, so that none outlives Rudder. Commands run detached (a
// group of their own, so Esc or a timeout can stop everything they started), which also means that a
// signal to Rudder does not reach them: without this registry a SIGTERM or SIGHUP left `bash` and its
// children running under PID 1. A group stays registered after its shell exits, since `server &` keeps
// running in it, until no process of the group is left.
//
// The last resort is the process's "exit" event (it also runs after an uncaught exception): SIGKILL to
// every group still alive. The CLI's signal handlers first give them SIGTERM and a grace period.

const live = new Set<number>();
let exitHookInstalled = false;
let pruneTimer: NodeJS.Timeout | undefined;

/** Between polls while waiting for groups to go. */
const POLL_MS = 20;
/** How often dead groups are forgotten, so a freed group id reused by someone else is never signalled. */
const PRUNE_MS = 5_000;

function groupExists(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch {
		// ESRCH: nothing left. EPERM: the id now belongs to someone else's group, so not ours any more.
		return false;
	}
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pgid, signal);
	} catch {
		// Already gone.
	}
}

function prune(): void {
	for (const pgid of live) if (!groupExists(pgid)) live.delete(pgid);
	if (live.size === 0 && pruneTimer) {
		clearInterval(pruneTimer);
		pruneTimer = undefined;
	}
}

/** Registers the group led by `pid` (a child spawned with `detached: true`). */
export function trackProcessGroup(pid: number): void {
	prune();
	live.add(pid);
	if (!pruneTimer) {
		pruneTimer = setInterval(prune, PRUNE_MS);
		pruneTimer.unref();
	}
	if (!exitHookInstalled) {
		exitHookInstalled = true;
		process.on("exit", () => killProcessGroupsNow("SIGKILL"));
	}
}

/** Group ids that still have a process in them. */
export function liveProcessGroups(): number[] {
	prune();
	return [...live];
}

/** Sends `signal` to every live group at once (synchronous: safe in an "exit" handler). */
export function killProcessGroupsNow(signal: NodeJS.Signals): void {
	for (const pgid of live) signalGroup(pgid, signal);
	if (signal === "SIGKILL") live.clear();
}

/**
 * SIGTERM to every group, then SIGKILL to whatever is left after `graceMs`. Resolves once every group
 * is gone or was killed.
 */
export async function terminateProcessGroups(graceMs: number): Promise<void> {
	prune();
	if (live.size === 0) return;
	killProcessGroupsNow("SIGTERM");
	const deadline = Date.now() + graceMs;
	while (Date.now() < deadline) {
		prune();
		if (live.size === 0) return;
		await new Promise((resolve) => setTimeout(resolve, POLL_MS));
	}
	killProcessGroupsNow("SIGKILL");
}
