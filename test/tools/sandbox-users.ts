// Who sandboxed commands run as in the sandbox tests: CI (and this machine) run as root, where the
// sandbox must hold without root's capabilities, and users run Rudder as themselves. As root every
// case runs twice: as root, and dropped to nobody with setpriv around the whole bwrap launch (as if
// an ordinary user had started Rudder). As anyone else, once, as that user.
import { execFileSync } from "node:child_process";
import { accessSync, chownSync, constants, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { CommandSandbox } from "../../src/tools/sandbox.js";
import type { Launch, WrapSpawn } from "../../src/tools/shell.js";

export interface SandboxUser {
	name: "root" | "user";
	uid: number;
	gid: number;
	/** The launch as this user starts it. */
	as(launch: Launch): Launch;
}

const NOBODY = 65534;

export function sandboxUsers(): SandboxUser[] {
	const uid = process.getuid?.() ?? 0;
	const gid = process.getgid?.() ?? 0;
	if (uid !== 0) return [{ name: "user", uid, gid, as: (launch) => launch }];
	const setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => exists(p)) ?? "setpriv";
	return [
		{ name: "root", uid: 0, gid: 0, as: (launch) => launch },
		{
			name: "user",
			uid: NOBODY,
			gid: NOBODY,
			as: (launch) => ({
				...launch,
				file: setpriv,
				args: [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--", launch.file, ...launch.args],
			}),
		},
	];
}

function exists(path: string): boolean {
	try {
		statSync(path);
		return true;
	} catch {
		return false;
	}
}

/**
 * The bash tool's launch hook for `box`, started as `user`. The sandbox's own folder (its /tmp, the
 * empty covers) is made by this root process; a user's Rudder would own it, so it is given to the user.
 */
export function wrapAs(box: CommandSandbox, user: SandboxUser): WrapSpawn {
	const given = new Set<string>();
	return (file, args, cwd, callId) => {
		const launch = box.wrap(file, args, cwd, callId);
		const at = launch.args.findIndex((arg, i) => arg === "/tmp" && launch.args[i - 2] === "--bind");
		const root = at > 0 ? dirname(launch.args[at - 1]) : undefined;
		if (root && !given.has(root)) {
			given.add(root);
			giveTo(user, root);
		}
		return user.as(launch);
	};
}

/** Every folder above `path` lets others pass (o+x): else nobody cannot reach a folder made for it. */
function passable(path: string): boolean {
	for (let folder = path; ; folder = dirname(folder)) {
		try {
			if ((statSync(folder).mode & 0o001) === 0) return false;
		} catch {
			return false;
		}
		if (folder === dirname(folder)) return true;
	}
}

/**
 * A temp folder the user owns and can reach: under TMPDIR when others can pass into it, else under
 * /var/tmp (a TMPDIR in /root is closed to nobody). `notUnderTmp`: for a folder outside the
 * workspace, which must not be under /tmp (the sandbox has its own). Remove it with `removeUserFolder`.
 */
export function userFolder(user: SandboxUser, prefix: string, notUnderTmp = false): string {
	const bases = notUnderTmp
		? [homedir(), "/var/tmp"].filter((f) => f !== "/tmp" && !f.startsWith("/tmp/"))
		: [tmpdir(), "/var/tmp", "/tmp"];
	const base = bases.find((folder) => passable(folder) && writable(folder)) ?? bases[0];
	const folder = mkdtempSync(join(base, prefix));
	chownSync(folder, user.uid, user.gid);
	return folder;
}

function writable(folder: string): boolean {
	try {
		accessSync(folder, constants.W_OK);
		return true;
	} catch {
		return false;
	}
}

/** Gives `path` and everything in it to the user (files the test wrote as root). */
export function giveTo(user: SandboxUser, path: string): void {
	if (user.uid === (process.getuid?.() ?? 0)) return;
	execFileSync("chown", ["-R", `${user.uid}:${user.gid}`, path]);
}

export function removeUserFolder(folder: string | undefined): void {
	if (folder) rmSync(folder, { recursive: true, force: true });
}

/** For a check that nothing of a test was left: the entries of a folder. */
export const entries = (folder: string) => readdirSync(folder);

/**
 * For the run as another user: the sandbox makes its own folder under TMPDIR, which that user must be
 * able to reach (a TMPDIR under /root is not). Points TMPDIR at a passable folder for the describe.
 */
export function usePassableTmpdir(user: SandboxUser): void {
	let before: string | undefined;
	beforeAll(() => {
		before = process.env.TMPDIR;
		if (user.uid === (process.getuid?.() ?? 0) || passable(tmpdir())) return;
		process.env.TMPDIR = ["/var/tmp", "/tmp"].find((folder) => passable(folder) && writable(folder)) ?? tmpdir();
	});
	afterAll(() => {
		if (before === undefined) delete process.env.TMPDIR;
		else process.env.TMPDIR = before;
	});
}
