// Runs a terminal app in a real tmux pane through `script`, which logs every byte the app writes.
// Gives the benchmarks the screen (capture-pane), keys (send-keys), and the app's CPU and RSS (/proc).
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, statSync } from "node:fs";

let counter = 0;
const CLOCK_TICKS = 100; // USER_HZ on Linux

// A private tmux server (its own socket, no user config) that stays up between panes. On the shared
// default server, a pane started just as the previous one was killed could meet a server on its way
// out ("server exited unexpectedly") and fail the run.
const SOCKET = `rudder-bench-${process.pid}`;
let serverUp = false;

export function tmux(...args) {
	return execFileSync("tmux", ["-L", SOCKET, "-f", "/dev/null", ...args], {
		encoding: "utf8",
		stdio: ["ignore", "pipe", "pipe"],
	});
}

function ensureServer() {
	if (serverUp) return;
	tmux("start-server", ";", "set-option", "-g", "exit-empty", "off");
	serverUp = true;
	process.once("exit", () => {
		try {
			tmux("kill-server");
		} catch {
			// already gone
		}
		// tmux leaves its socket file behind.
		rmSync(`${process.env.TMUX_TMPDIR || "/tmp"}/tmux-${process.getuid()}/${SOCKET}`, { force: true });
	});
}

/** Runs a tmux command, retrying a failure to reach the server a few times before giving up. */
function tmuxRetrying(...args) {
	for (let attempt = 1; ; attempt++) {
		try {
			return tmux(...args);
		} catch (error) {
			const reason = String(error.stderr ?? error.message);
			if (attempt >= 4 || !/server exited|no server running|error connecting|lost server/i.test(reason)) throw error;
			serverUp = false;
			Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100 * attempt);
			try {
				ensureServer();
			} catch {
				// the next attempt reports it
			}
		}
	}
}

/**
 * Starts `command` (a shell string) in a detached 120×40 pane. `CI` is removed from its environment
 * (Ink draws no live frames under CI). Returns a handle.
 */
export function startPane({ command, env = {}, cwd = process.cwd(), cols = 120, rows = 40, logFile, timingFile }) {
	const name = `rbench${process.pid}_${counter++}`;
	const exports = Object.entries(env)
		.map(([k, v]) => `${k}=${shellQuote(v)}`)
		.join(" ");
	const inner = `cd ${shellQuote(cwd)} && exec env -u CI ${exports} ${command}`;
	// `-T`: script also logs when each chunk it read from the app arrived (delay and byte count per line).
	const timing = timingFile ? ` -T ${shellQuote(timingFile)}` : "";
	const full = logFile ? `script -qfec ${shellQuote(inner)}${timing} ${shellQuote(logFile)}` : inner;
	ensureServer();
	tmuxRetrying("new-session", "-d", "-s", name, "-x", String(cols), "-y", String(rows), full);
	const started = performance.now();
	return {
		name,
		started,
		capture: () => {
			try {
				return tmux("capture-pane", "-p", "-t", name);
			} catch {
				throw new Error(`the pane running \`${command}\` is gone (the app exited)`);
			}
		},
		keys: (...keys) => tmux("send-keys", "-t", name, ...keys),
		literal: (text) => tmux("send-keys", "-t", name, "-l", text),
		appPid: () => findApp(Number(tmux("list-panes", "-t", name, "-F", "#{pane_pid}").trim())),
		rootPid: () => findRoot(Number(tmux("list-panes", "-t", name, "-F", "#{pane_pid}").trim())),
		kill: () => {
			// `script` can outlive its pane (and keep the app alive on its own pty): the whole tree goes.
			let tree = [];
			try {
				tree = descendants(Number(tmux("list-panes", "-t", name, "-F", "#{pane_pid}").trim()));
			} catch {
				// pane already gone
			}
			try {
				tmux("kill-session", "-t", name);
			} catch {
				// already gone
			}
			for (const pid of tree) {
				try {
					process.kill(pid, "SIGKILL");
				} catch {
					// exited
				}
			}
		},
	};
}

/** The deepest `node` process under the pane (script → sh → node). */
function findApp(panePid) {
	let pid = panePid;
	for (let depth = 0; depth < 6; depth++) {
		const comm = readProc(pid, "comm").trim();
		if (comm === "node" || comm.startsWith("MainThread")) return pid;
		const kids = children(pid);
		if (kids.length === 0) return pid;
		pid = kids[0];
	}
	return pid;
}

const LAUNCHERS = new Set(["sh", "bash", "dash", "script", "env"]);

/** The app's own first process: below the pane's shell and `script`, whatever it is named. */
function findRoot(panePid) {
	let pid = panePid;
	for (let depth = 0; depth < 6; depth++) {
		if (!LAUNCHERS.has(readProc(pid, "comm").trim())) return pid;
		const kids = children(pid);
		if (kids.length === 0) return pid;
		pid = kids[0];
	}
	return pid;
}

/** `pid` and every process under it. */
export function descendants(pid) {
	const all = [pid];
	for (let i = 0; i < all.length; i++) all.push(...children(all[i]));
	return all;
}

function children(pid) {
	try {
		const tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
		return tasks ? tasks.split(/\s+/).map(Number) : [];
	} catch {
		return [];
	}
}

function readProc(pid, file) {
	try {
		return readFileSync(`/proc/${pid}/${file}`, "utf8");
	} catch {
		return "";
	}
}

/**
 * CPU seconds of a process tree: each live process's user+system time plus that of its children that
 * have exited (cutime, cstime), so a helper process that came and went still counts once.
 */
export function treeCpuSeconds(rootPid) {
	let ticks = 0;
	for (const pid of descendants(rootPid)) {
		const stat = readProc(pid, "stat");
		if (!stat) continue;
		const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
	}
	return ticks / CLOCK_TICKS;
}

/** Resident memory of a process tree (MiB). */
export function treeRssMiB(rootPid) {
	return descendants(rootPid).reduce((sum, pid) => sum + (rssMiB(pid) || 0), 0);
}

export function rssMiB(pid) {
	const m = /VmRSS:\s+(\d+) kB/.exec(readProc(pid, "status"));
	return m ? Number(m[1]) / 1024 : NaN;
}

export function fileSize(path) {
	try {
		return statSync(path).size;
	} catch {
		return 0;
	}
}

/** Polls `predicate(screen)` every `everyMs` until true; returns ms waited, or throws after `timeoutMs`. */
export async function waitForScreen(pane, predicate, { timeoutMs = 20_000, everyMs = 2 } = {}) {
	const t0 = performance.now();
	for (;;) {
		const screen = pane.capture();
		if (predicate(screen)) return performance.now() - t0;
		if (performance.now() - t0 > timeoutMs) {
			throw new Error(`timed out waiting for the screen; last screen:\n${screen}`);
		}
		await new Promise((r) => setTimeout(r, everyMs));
	}
}

export function shellQuote(s) {
	return `'${String(s).replace(/'/g, `'\\''`)}'`;
}

export const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
