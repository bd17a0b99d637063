// Opens the file at a real path that was checked earlier (inside the workspace, approved) so that
// nothing swapped in since can lead the open elsewhere: a folder on the way replaced by a symlink to
// `~/.ssh`, or the file itself replaced by one. Each folder of the path is opened in turn, relative to
// the one before, through `/proc/self/fd/<fd>/<name>` (Linux's openat, which Node lacks) with
// O_NOFOLLOW, so a component that has become a symlink makes the open fail instead of being
// followed; missing folders are created the same way. What the caller then writes goes to the opened
// descriptor, which stays the checked file whatever happens to the path afterwards.
import { constants, existsSync, type Stats } from "node:fs";
import { type FileHandle, lstat, mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import { describeFsError } from "./fs-errors.js";
import { realTarget } from "./real-path.js";
import { notRegularFileError } from "./regular-file.js";

const { O_RDONLY, O_RDWR, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_CREAT, O_EXCL } = constants;
/**
 * Linux's O_PATH (not in Node's constants): a folder is held for path lookups only, which needs the
 * same search right as walking the path does, not read permission (a 0711 home folder).
 */
const O_PATH = 0o10000000;
const FOLDER_FLAGS = O_PATH | O_DIRECTORY | O_NOFOLLOW;

/** Whether folders can be opened relative to a descriptor here (Linux with /proc). Checked once. */
let fdPaths: boolean | undefined;
function hasFdPaths(): boolean {
	fdPaths ??= process.platform === "linux" && existsSync("/proc/self/fd");
	return fdPaths;
}

export interface PinnedFile {
	handle: FileHandle;
	/** Of the open descriptor: what is read and written. */
	stats: Stats;
	/** The file did not exist and was created by this open. */
	created: boolean;
}

export interface PinnedOpenOptions {
	/** Create the file (and missing folders) when absent; otherwise a missing file is an error. */
	create: boolean;
	/** "read", "write", "edit": for messages. */
	verb: string;
	/** Open for reading only (read), or for reading and writing (default). */
	readOnly?: boolean;
}

function swapped(verb: string, displayPath: string, what: string): Error {
	return new Error(
		`Cannot ${verb} ${displayPath}: ${what} was replaced by a symbolic link after the path was checked, so it could lead outside what was allowed. Nothing was ${verb === "read" ? "read" : "written"}; check the path and try again.`,
	);
}

/** True for the errors an O_NOFOLLOW open gives when it meets a symlink. */
function isLinkError(error: unknown): boolean {
	const code = (error as NodeJS.ErrnoException).code;
	return code === "ELOOP" || code === "ENOTDIR" || code === "EMLINK";
}

/**
 * Opens `realPath` (read and write, or read only) without following any symlink on the way. `realPath` must be the
 * fully resolved path that was checked (see real-path.ts); the caller closes the handle.
 */
export async function openPinned(realPath: string, displayPath: string, options: PinnedOpenOptions): Promise<PinnedFile> {
	if (!hasFdPaths()) return openChecked(realPath, displayPath, options);
	const name = realPath
		.split("/")
		.filter((p) => p !== "")
		.pop();
	if (name === undefined) throw new Error(`Cannot ${options.verb} ${displayPath}: it is the root folder`);
	const folder = await openFolderPinned(dirname(realPath), displayPath, options);
	try {
		return await openLeaf(`/proc/self/fd/${folder.fd}/${name}`, displayPath, options);
	} finally {
		await folder.close();
	}
}

/** Whether `openFolderPinned` can hold folders by descriptor here (Linux with /proc). */
export const canPinFolders = (): boolean => hasFdPaths();

/**
 * The folder at the real path `realFolder`, held (O_PATH) after opening each folder of the path in turn
 * without following a symlink; missing folders are made when `create`. Its entries are reached as
 * `/proc/self/fd/<fd>/<name>`. Linux only (see `canPinFolders`); the caller closes the handle.
 */
export async function openFolderPinned(realFolder: string, displayPath: string, options: PinnedOpenOptions): Promise<FileHandle> {
	let folder = await open("/", FOLDER_FLAGS);
	try {
		let shown = "";
		for (const part of realFolder.split("/").filter((p) => p !== "")) {
			shown += `/${part}`;
			const next = await openFolder(folder, part, shown, displayPath, options);
			await folder.close();
			folder = next;
		}
		return folder;
	} catch (error) {
		await folder.close();
		throw error;
	}
}

async function openFolder(
	parent: FileHandle,
	name: string,
	shown: string,
	displayPath: string,
	options: PinnedOpenOptions,
): Promise<FileHandle> {
	const path = `/proc/self/fd/${parent.fd}/${name}`;
	for (let attempt = 0; ; attempt++) {
		try {
			return await open(path, FOLDER_FLAGS);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (isLinkError(error)) {
				// A file there is a plain mistake; a link, or a folder again by now, is the swap.
				const kind = await lstat(path).catch(() => undefined);
				if (kind && !kind.isSymbolicLink() && !kind.isDirectory())
					throw new Error(`Cannot ${options.verb} ${displayPath}: ${shown} is not a folder`);
				throw swapped(options.verb, displayPath, `the folder ${shown}`);
			}
			if (code !== "ENOENT" || !options.create || attempt > 0) throw describeFsError(error, displayPath);
			// mkdir does not follow a symlink in the last place: one put there meanwhile makes it fail (EEXIST), and the open above refuses it.
			await mkdir(path).catch((e) => {
				if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw describeFsError(e, displayPath);
			});
		}
	}
}

async function openLeaf(path: string, displayPath: string, options: PinnedOpenOptions): Promise<PinnedFile> {
	const before = await lstat(path).catch((error) => {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw describeFsError(error, displayPath);
	});
	if (before?.isSymbolicLink()) throw swapped(options.verb, displayPath, "the file");
	// A FIFO would block the open until a reader came; a device is not ours to fill.
	if (before && !before.isFile()) throw notRegularFileError(displayPath, before, options.verb);
	if (!before && !options.create) throw new Error(`File not found: ${displayPath}`);
	let handle: FileHandle;
	let created = false;
	try {
		const access = options.readOnly ? O_RDONLY : O_RDWR;
		if (before) handle = await open(path, access | O_NOFOLLOW | O_NONBLOCK);
		else {
			handle = await open(path, access | O_NOFOLLOW | O_NONBLOCK | O_CREAT | O_EXCL, 0o666);
			created = true;
		}
	} catch (error) {
		if (isLinkError(error)) throw swapped(options.verb, displayPath, "the file");
		// Made by someone else between the lstat and the exclusive create: the caller's checks must see it.
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return openLeaf(path, displayPath, { ...options, create: false });
		throw describeFsError(error, displayPath);
	}
	const stats = await handle.stat();
	if (!stats.isFile()) {
		await handle.close();
		throw notRegularFileError(displayPath, stats, options.verb);
	}
	return { handle, stats, created };
}

/**
 * Without descriptor-relative paths (macOS, no /proc): the path must still resolve to the checked
 * one just before the open, and the open follows no symlink in the last place. A swap in the short
 * window between the two is not caught there.
 */
async function openChecked(realPath: string, displayPath: string, options: PinnedOpenOptions): Promise<PinnedFile> {
	if (realTarget(dirname(realPath)) !== dirname(realPath)) throw swapped(options.verb, displayPath, "a folder on the way");
	if (options.create) await mkdir(dirname(realPath), { recursive: true }).catch((e) => Promise.reject(describeFsError(e, displayPath)));
	if (realTarget(dirname(realPath)) !== dirname(realPath)) throw swapped(options.verb, displayPath, "a folder on the way");
	return openLeaf(realPath, displayPath, options);
}
