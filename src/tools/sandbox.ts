// Where a `bash` command runs: in a sandbox that can write only the workspace and a private temp
// folder, with no network, or as is. Linux uses bubblewrap (`bwrap`); macOS would use sandbox-exec
// behind the same interface (the seam is here, the profile is not written yet).
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/** Wraps one process start: `file args` becomes the sandboxed launch of it. */
export interface CommandSandbox {
	/** "bwrap", "sandbox-exec". */
	readonly name: string;
	wrap(file: string, args: readonly string[], cwd: string): { file: string; args: string[] };
	/** Removes the private temp folder. */
	dispose(): void;
}

export interface SandboxSpec {
	/** Folders the command may write (the workspace); everything else is read-only. */
	writable: readonly string[];
	/** May the command reach the network (the host's, loopback included)? */
	network: boolean;
	/** Files or folders hidden from the command (Rudder's own keys). */
	hidden?: readonly string[];
	/**
	 * More paths to hide, asked at every command's start (what the deny rules name on disk now), by
	 * real path: each is covered with an empty read-only file or folder.
	 */
	hide?: () => readonly string[];
}

/** Builds a sandbox for this platform, or undefined when none is available (a notice says so). */
export type SandboxFactory = (spec: SandboxSpec) => CommandSandbox | undefined;

/** The first `name` on PATH. */
export function findOnPath(name: string, path = process.env.PATH ?? ""): string | undefined {
	for (const folder of path.split(delimiter)) {
		if (folder && existsSync(join(folder, name))) return join(folder, name);
	}
	return undefined;
}

/**
 * Folders of a workspace that stay read-only inside it: what runs on a commit (`.git/hooks`) and what
 * Rudder itself obeys (`.rudder/settings.json`, its commands), which the gate also never lets a write
 * or edit change without asking.
 */
const READ_ONLY_IN_WORKSPACE = [".git", ".rudder"];

/**
 * bwrap's arguments for one command. Order matters: later mounts cover earlier ones, so the root is
 * bound read-only first, then the workspace writable, then each workspace's `.git` and `.rudder`
 * read-only again. `/run` is an empty tmpfs: a read-only mount does not stop a connect() to a socket
 * there (docker.sock, the D-Bus buses, agents), and each would run things outside the sandbox.
 */
export function bwrapArguments(spec: SandboxSpec, folders: SandboxFolders, file: string, args: readonly string[], cwd: string): string[] {
	const out = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", folders.temp, "/tmp", "--tmpfs", "/run"];
	// With the network on, name resolution may live there (systemd-resolved's resolv.conf).
	if (spec.network) out.push("--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve");
	for (const folder of spec.writable) {
		if (!existsSync(folder)) continue;
		out.push("--bind", folder, folder);
		for (const name of READ_ONLY_IN_WORKSPACE) {
			const inner = join(folder, name);
			if (existsSync(inner)) out.push("--ro-bind", inner, inner);
		}
	}
	for (const path of [...(spec.hidden ?? []), ...(spec.hide?.() ?? [])]) {
		const kind = statSync(path, { throwIfNoEntry: false });
		// The sandbox's /tmp and /run are its own: the host's files there are not visible to cover.
		const own = isUnder("/tmp", path) || isUnder("/run", path);
		if (!kind || (own && !spec.writable.some((w) => isUnder(w, path)))) continue;
		out.push("--ro-bind", kind.isDirectory() ? folders.emptyDir : folders.empty, path);
	}
	out.push("--unshare-pid", "--unshare-ipc", "--die-with-parent");
	if (!spec.network) out.push("--unshare-net");
	out.push("--setenv", "TMPDIR", "/tmp", "--chdir", cwd, "--", file, ...args);
	return out;
}

/** Host folders behind the sandbox: its /tmp, and an empty file and folder laid over hidden ones. */
export interface SandboxFolders {
	temp: string;
	empty: string;
	emptyDir: string;
}

function isUnder(folder: string, path: string): boolean {
	return path === folder || path.startsWith(`${folder}/`);
}

/** A private folder (0700) per sandbox. */
export function makeSandboxFolders(): SandboxFolders & { root: string } {
	const root = mkdtempSync(join(tmpdir(), "rudder-sandbox-"));
	const temp = join(root, "tmp");
	const empty = join(root, "empty");
	const emptyDir = join(root, "empty-dir");
	mkdirSync(temp, { mode: 0o700 });
	mkdirSync(emptyDir, { mode: 0o500 });
	writeFileSync(empty, "", { mode: 0o400 });
	return { root, temp, empty, emptyDir };
}

/**
 * The folders are made by the first command, not with the sandbox (the session asks for one at start
 * to say whether commands are sandboxed), and removed by `dispose` or, when the process ends another
 * way (a signal, `process.exit`), by its "exit" handler: a closed terminal left one in /tmp per launch.
 */
export function createBwrapSandbox(spec: SandboxSpec, bwrap: string): CommandSandbox {
	let folders: (SandboxFolders & { root: string }) | undefined;
	const remove = () => {
		if (!folders) return;
		process.off("exit", remove);
		try {
			rmSync(folders.root, { recursive: true, force: true });
		} catch {
			// Exiting or done with it; a folder we cannot remove is left to the system's temp cleaning.
		}
		folders = undefined;
	};
	const made = () => {
		if (!folders) {
			folders = makeSandboxFolders();
			process.on("exit", remove);
		}
		return folders;
	};
	return {
		name: "bwrap",
		wrap: (file, args, cwd) => ({ file: bwrap, args: bwrapArguments(spec, made(), file, args, cwd) }),
		dispose: remove,
	};
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

/** Output that suggests the sandbox, not the command, caused a failure (a write or a connection refused). */
export function looksLikeSandboxDenial(output: string): boolean {
	return /read-only file system|permission denied|operation not permitted|network is unreachable|could not resolve host|temporary failure in name resolution|name or service not known|connection refused|EROFS|EACCES|EPERM|ENETUNREACH|ECONNREFUSED|ENOTFOUND|EAI_AGAIN/i.test(
		output,
	);
}
