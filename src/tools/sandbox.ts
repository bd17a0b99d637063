// Where a `bash` command runs: in a sandbox that can write only the workspace and a private temp
// folder, with no network, or as is. Linux uses bubblewrap (`bwrap`); macOS would use sandbox-exec
// behind the same interface (the seam is here, the profile is not written yet).
//
// bwrap always makes a new user namespace and drops every capability, also when Rudder runs as root
// (containers, CI): root without capabilities cannot unmount a cover or remount `/` writable. A
// seccomp filter (seccomp.ts) refuses mounts, ptrace, keyrings, TIOCSTI and new namespaces; limits
// (sandbox-limits.ts) bound processes, memory, file size and CPU time; after each command the guard
// (sandbox-guard.ts) moves aside git folders and protected entries the command planted.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findOnPath } from "./find-on-path.js";
import { makePidsCgroup, type PidsCgroup } from "./pids-cgroup.js";
import { checkAfterCommand, PROTECTED_NAMES, snapshotProtected } from "./sandbox-guard.js";
import { DEFAULT_SANDBOX_LIMITS, limitedCommand, limitNote, type SandboxLimits } from "./sandbox-limits.js";
import { seccompArch, seccompProgram } from "./seccomp.js";
import { type SharedNetns, startSharedNetns } from "./shared-netns.js";
import type { Launch } from "./shell.js";

export { findOnPath } from "./find-on-path.js";

/** Wraps one process start: `file args` becomes the sandboxed launch of it. */
export interface CommandSandbox {
	/** "bwrap", "sandbox-exec". */
	readonly name: string;
	/** `callId` keys what the sandbox saw during the command (see `evidence`). */
	wrap(file: string, args: readonly string[], cwd: string, callId?: string): Launch;
	/**
	 * What the sandbox itself observed of the call's command hitting its walls (connections refused or
	 * unroutable in its empty network), taken once; undefined when nothing. Never the command's output.
	 */
	evidence(callId: string): string | undefined;
	/** Removes the private temp folder. */
	dispose(): void;
}

export interface SandboxSpec {
	/** Folders the command may write (the workspace); everything else is read-only. */
	writable: readonly string[];
	/** May the command reach the network (the host's, loopback included)? */
	network: boolean;
	/** Files or folders hidden from the command (covered with an empty read-only file or folder). */
	hidden?: readonly string[];
	/**
	 * Rudder's own folders (config with auth.json, data with sessions and checkpoints, cache): each is
	 * covered whole by an empty read-only tmpfs, so a file renamed into place inside (a new auth.json
	 * from /login) is not uncovered.
	 */
	hiddenFolders?: readonly string[];
	/**
	 * More paths to hide, asked at every command's start (what the deny rules name on disk now), by
	 * real path: each is covered with an empty read-only file or folder.
	 */
	hide?: () => readonly string[];
	/** Resource limits per command; default DEFAULT_SANDBOX_LIMITS. */
	limits?: SandboxLimits;
	/**
	 * Who starts the commands when not this process (tests drop root to nobody around each launch):
	 * the holder of the shared network namespace starts as them too, and bwrap shows their ids.
	 */
	runAs?: { uid: number; gid: number; as: (launch: { file: string; args: string[] }) => { file: string; args: string[] } };
}

/** Builds a sandbox for this platform, or undefined when none is available (a notice says so). */
export type SandboxFactory = (spec: SandboxSpec) => CommandSandbox | undefined;

/** The real path, or undefined when it does not resolve. */
function realOrUndefined(path: string): string | undefined {
	try {
		return realpathSync(path);
	} catch {
		return undefined;
	}
}

/**
 * bwrap's arguments for one command. Order matters: later mounts cover earlier ones, so the root is
 * bound read-only first, then every writable folder (parents before the folders inside them), then —
 * after all of them, so an `--add-dir ..` cannot cover them — every protected entry of every writable
 * folder read-only again, at its real path (a `.rudder` that is a link is protected at its target; the
 * guard watches the link). Rudder's folders and hidden paths come last. `/run` is an empty tmpfs: a
 * read-only mount does not stop a connect() to a socket there (docker.sock, the D-Bus buses, agents).
 */
export function bwrapArguments(
	spec: SandboxSpec,
	folders: SandboxFolders,
	file: string,
	args: readonly string[],
	cwd: string,
	probe?: string,
): string[] {
	const out = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", folders.temp, "/tmp", "--tmpfs", "/run"];
	// With the network on, name resolution may live there (systemd-resolved's resolv.conf).
	if (spec.network) out.push("--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve");
	const writable = spec.writable.map(realOrUndefined).filter((w): w is string => w !== undefined);
	writable.sort((a, b) => a.length - b.length);
	for (const folder of writable) out.push("--bind", folder, folder);
	const covered = new Set<string>();
	for (const folder of writable) {
		for (const name of PROTECTED_NAMES) {
			const real = realOrUndefined(join(folder, name));
			// Outside every writable folder it is read-only already (and may not exist in the sandbox's view).
			if (!real || covered.has(real) || !writable.some((w) => isUnder(w, real))) continue;
			covered.add(real);
			out.push("--ro-bind", real, real);
		}
	}
	// Outermost first; one inside another already hidden is hidden with it (`$RUDDER_HOME/data`).
	const hiddenFolders = (spec.hiddenFolders ?? []).map(realOrUndefined).filter((f): f is string => f !== undefined);
	hiddenFolders.sort((a, b) => a.length - b.length);
	const hidden: string[] = [];
	for (const real of hiddenFolders) {
		if (writable.some((w) => isUnder(real, w)) || isOwn(real) || hidden.some((h) => isUnder(h, real))) continue;
		hidden.push(real);
		out.push("--perms", "0500", "--tmpfs", real, "--remount-ro", real);
	}
	for (const path of [...(spec.hidden ?? []), ...(spec.hide?.() ?? [])]) {
		const kind = statSync(path, { throwIfNoEntry: false });
		// The sandbox's /tmp and /run are its own: the host's files there are not visible to cover.
		if (!kind || (isOwn(path) && !writable.some((w) => isUnder(w, path))) || hidden.some((h) => isUnder(h, path))) continue;
		out.push("--ro-bind", kind.isDirectory() ? folders.emptyDir : folders.empty, path);
	}
	out.push("--unshare-user", "--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc");
	out.push("--new-session", "--die-with-parent");
	if (folders.sharedNet) {
		// Joined to the session's namespace as root of its user namespace: show the user's own ids.
		out.push("--uid", String(spec.runAs?.uid ?? process.getuid?.() ?? 0), "--gid", String(spec.runAs?.gid ?? process.getgid?.() ?? 0));
	} else if (!spec.network) out.push("--unshare-net");
	if (folders.seccomp) out.push("--seccomp", "3");
	const command = folders.limited ? limitedCommand(spec.limits ?? DEFAULT_SANDBOX_LIMITS, file, args, probe) : [file, ...args];
	out.push("--setenv", "TMPDIR", "/tmp", "--chdir", cwd, "--", ...command);
	return out;
}

/** Host folders behind the sandbox: its /tmp, and an empty file and folder laid over hidden ones. */
export interface SandboxFolders {
	temp: string;
	empty: string;
	emptyDir: string;
	/** The file of the seccomp program bwrap reads on descriptor 3; none where there is no table for this machine. */
	seccomp?: string;
	/** Start the command under the resource limits (default true). */
	limited?: boolean;
	/** The command joins the session's shared network namespace (shared-netns.ts) instead of an empty one of its own. */
	sharedNet?: boolean;
}

function isUnder(folder: string, path: string): boolean {
	return folder === "/" || path === folder || path.startsWith(`${folder}/`);
}

/** The sandbox's /tmp and /run are its own: host paths there are not what the command sees. */
function isOwn(path: string): boolean {
	return isUnder("/tmp", path) || isUnder("/run", path);
}

/** A private folder (0700) per sandbox. */
export function makeSandboxFolders(): SandboxFolders & { root: string } {
	const arch = seccompArch();
	const root = mkdtempSync(join(tmpdir(), "rudder-sandbox-"));
	const temp = join(root, "tmp");
	const empty = join(root, "empty");
	const emptyDir = join(root, "empty-dir");
	mkdirSync(temp, { mode: 0o700 });
	mkdirSync(emptyDir, { mode: 0o500 });
	writeFileSync(empty, "", { mode: 0o400 });
	let seccomp: string | undefined;
	if (arch) {
		seccomp = join(root, "seccomp.bpf");
		writeFileSync(seccomp, seccompProgram(arch), { mode: 0o400 });
	}
	return { root, temp, empty, emptyDir, seccomp, limited: true };
}

/**
 * The folders are made by the first command, not with the sandbox (the session asks for one at start
 * to say whether commands are sandboxed), and removed by `dispose` or, when the process ends another
 * way (a signal, `process.exit`), by its "exit" handler: a closed terminal left one in /tmp per launch.
 */
export function createBwrapSandbox(spec: SandboxSpec, bwrap: string): CommandSandbox {
	const limits = spec.limits ?? DEFAULT_SANDBOX_LIMITS;
	let folders: (SandboxFolders & { root: string }) | undefined;
	let pids: PidsCgroup | undefined;
	let netns: SharedNetns | undefined;
	const seen = new Map<string, string>();
	/** The nested git entries the last command left (see sandbox-guard.ts). */
	let gits: Map<string, number> | undefined;
	const remove = () => {
		if (!folders) return;
		process.off("exit", remove);
		try {
			rmSync(folders.root, { recursive: true, force: true });
		} catch {
			// Exiting or done with it; a folder we cannot remove is left to the system's temp cleaning.
		}
		pids?.remove();
		netns?.stop();
		folders = undefined;
		pids = undefined;
		netns = undefined;
	};
	const made = () => {
		if (!folders) {
			folders = makeSandboxFolders();
			// As root RLIMIT_NPROC does not hold: a pids cgroup does, where one can be made.
			pids = makePidsCgroup(limits.processes);
			// Without network, one namespace with loopback for all commands: a background server is reachable.
			netns = spec.network ? undefined : startSharedNetns(spec.runAs?.as);
			folders.sharedNet = netns !== undefined;
			process.on("exit", remove);
		}
		return folders;
	};
	return {
		name: "bwrap",
		wrap: (file, args, cwd, callId) => {
			const box = made();
			const probe = spec.network ? undefined : join(box.temp, `.rudder-net-${process.pid}-${++probes}`);
			const inside = probe ? `/tmp/${probe.slice(box.temp.length + 1)}` : undefined;
			const sandboxed = { file: bwrap, args: bwrapArguments(spec, box, file, args, cwd, inside) };
			const launch = netns ? netns.wrap(sandboxed.file, sandboxed.args) : sandboxed;
			const outer = pids ? pids.wrap(launch.file, launch.args) : launch;
			const before = snapshotProtected(spec.writable, gits);
			const refusedBefore = pids?.refusals() ?? 0;
			return {
				...outer,
				fd3File: box.seccomp,
				finish: async (exit) => {
					const checked = await checkAfterCommand(before);
					gits = checked.gits;
					const notes = checked.notes;
					const limit = limitNote(limits, exit);
					if (limit) notes.unshift(limit);
					if (pids && pids.refusals() > refusedBefore)
						notes.unshift(`the sandbox's process limit (${limits.processes} processes; sandbox.limits.processes) refused new processes`);
					if (probe) {
						const net = readNetProbe(probe);
						if (net && callId) seen.set(callId, net);
					}
					return notes;
				},
			};
		},
		evidence(callId) {
			const text = seen.get(callId);
			seen.delete(callId);
			return text;
		},
		dispose: remove,
	};
}

let probes = 0;

/** One counter of a /proc/net/snmp copy ("Ip", "OutNoRoutes"); 0 when absent. */
function snmpValue(snmp: string, proto: string, field: string): number {
	const rows = snmp.split("\n").filter((line) => line.startsWith(`${proto}:`));
	if (rows.length < 2) return 0;
	const names = rows[0].split(/\s+/);
	const values = rows[1].split(/\s+/);
	return Number(values[names.indexOf(field)] ?? 0) || 0;
}

/**
 * "… 2 connections found no route …" from the probe's counters, or undefined when none failed. `before`:
 * the counters when the command started (the namespace is shared with the session's other commands).
 */
export function netEvidence(snmp: string, before = ""): string | undefined {
	const grew = (proto: string, field: string) => snmpValue(snmp, proto, field) - snmpValue(before, proto, field);
	const noRoute = grew("Ip", "OutNoRoutes");
	const refused = grew("Tcp", "AttemptFails");
	if (noRoute <= 0 && refused <= 0) return undefined;
	return `inside the sandbox, which has no network, ${noRoute} packet(s) found no route and ${refused} connection(s) were refused`;
}

function readNetProbe(path: string): string | undefined {
	try {
		let before = "";
		try {
			before = readFileSync(`${path}.before`, "utf8");
		} catch {
			// No copy from the start: the counters are the command's own (a namespace of its own).
		}
		return netEvidence(readFileSync(path, "utf8"), before);
	} catch {
		return undefined;
	} finally {
		rmSync(path, { force: true });
		rmSync(`${path}.before`, { force: true });
	}
}

/** The seam for macOS: sandbox-exec with a generated profile. Not written yet, so no sandbox there. */
export const sandboxExecFactory: SandboxFactory = () => undefined;

/** The sandbox this machine offers: bwrap on Linux when on PATH; none elsewhere for now. */
export function platformSandbox(spec: SandboxSpec, platform = process.platform, path = process.env.PATH): CommandSandbox | undefined {
	if (platform === "linux") {
		const bwrap = findOnPath("bwrap", path);
		return bwrap ? createBwrapSandbox(spec, bwrap) : undefined;
	}
	if (platform === "darwin") return sandboxExecFactory(spec);
	return undefined;
}
