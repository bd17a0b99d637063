// How a rewind writes and deletes files in the workspace: never through a symlink. A command may have
// replaced a folder by a link since the snapshot (`dist -> ~/.ssh`, `build -> .git/hooks`); a plain
// `writeFile(join(workspace, path))` would follow it out of the workspace or into `.git`. Each folder
// of the path is opened in turn without following links (pinned-open.ts), the file itself is opened
// with O_NOFOLLOW, and a path that became a link anywhere is skipped and reported instead.
import { constants } from "node:fs";
import { lstat, open, rmdir, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { canPinFolders, openFolderPinned } from "../../tools/pinned-open.js";

const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW, O_NONBLOCK } = constants;

/** Why a path was not restored: "… is a symbolic link now". */
export type SkipReason = string;

/** Folders a restore never writes into, even when a snapshot names them: what git and Rudder obey. */
const NEVER_WRITTEN = new Set([".git", ".rudder"]);

function refused(path: string): SkipReason | undefined {
	const first = path.split("/")[0];
	return NEVER_WRITTEN.has(first) ? `${path} is inside ${first}, which a rewind never writes` : undefined;
}

/** Runs `work` with the folder of `root/path` held without links on the way; a link on the way is a skip. */
async function inFolder(
	root: string,
	path: string,
	create: boolean,
	work: (entry: string) => Promise<SkipReason | undefined>,
): Promise<SkipReason | undefined> {
	const no = refused(path);
	if (no) return no;
	if (!canPinFolders()) return work(join(root, path));
	let folder: Awaited<ReturnType<typeof openFolderPinned>>;
	try {
		folder = await openFolderPinned(dirname(join(root, path)), path, { create, verb: "restore" });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return create ? `${path}: ${(error as Error).message}` : undefined;
		return `${path} was skipped: ${(error as Error).message.replace(/^Cannot restore [^:]*: /, "")}`;
	}
	try {
		return await work(`/proc/self/fd/${folder.fd}/${basename(path)}`);
	} finally {
		await folder.close();
	}
}

const linkNow = (path: string) => `${path} was skipped: it is a symbolic link now, which a rewind does not follow`;

/** Writes `content` with `mode` to `root/path` (real `root`); a reason when it was skipped. */
export function restoreFile(root: string, path: string, content: Buffer, mode: number): Promise<SkipReason | undefined> {
	return inFolder(root, path, true, async (entry) => {
		const now = await lstat(entry).catch(() => undefined);
		if (now?.isSymbolicLink()) return linkNow(path);
		if (now && !now.isFile()) return `${path} was skipped: it is not a regular file now`;
		// A file with other names (hard links, maybe outside the workspace) is replaced, not written
		// through: each name in the workspace is restored on its own.
		if (now && now.nlink > 1) await unlink(entry);
		const handle = await open(entry, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK, 0o600).catch((error) => {
			if ((error as NodeJS.ErrnoException).code === "ELOOP") return undefined;
			throw error;
		});
		if (!handle) return linkNow(path);
		try {
			await handle.writeFile(content);
			await handle.chmod(mode & 0o7777);
		} finally {
			await handle.close();
		}
		return undefined;
	});
}

/** Deletes the file `root/path`, and then the folders that held only it when `emptyParents`. */
export async function removeFile(root: string, path: string, emptyParents = false): Promise<SkipReason | undefined> {
	const skipped = await inFolder(root, path, false, async (entry) => {
		const now = await lstat(entry).catch(() => undefined);
		if (!now) return undefined;
		if (now.isSymbolicLink()) return linkNow(path);
		if (now.isDirectory()) return `${path} was skipped: it is a folder now`;
		await unlink(entry);
		return undefined;
	});
	if (skipped || !emptyParents) return skipped;
	for (let folder = dirname(path); folder !== "." && folder !== "/" && folder !== ""; folder = dirname(folder)) {
		const kept = await inFolder(root, folder, false, async (entry) => {
			const now = await lstat(entry).catch(() => undefined);
			if (!now?.isDirectory()) return "stop";
			return rmdir(entry).then(
				() => undefined,
				() => "stop",
			);
		});
		if (kept) break;
	}
	return undefined;
}
