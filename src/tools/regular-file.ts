// File tools work on regular files only. A device (/dev/zero never ends), a FIFO (an open blocks until
// a writer comes, and a blocked open holds one of libuv's four pool threads for good) or a socket is
// refused before anything reads it. The open itself is non-blocking and the kind is checked again on
// the open descriptor, so a path swapped for a FIFO between the two checks cannot hang the process.
import { constants, type Stats } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";
import { describeFsError } from "./fs-errors.js";

/** What a non-regular file is, in words for the model ("a FIFO (named pipe)"). */
export function describeFileKind(stats: Stats): string {
	if (stats.isDirectory()) return "a directory";
	if (stats.isFIFO()) return "a FIFO (named pipe)";
	if (stats.isCharacterDevice()) return "a character device";
	if (stats.isBlockDevice()) return "a block device";
	if (stats.isSocket()) return "a socket";
	return "not a regular file";
}

/** The one error for a path that exists but is not a regular file. */
export function notRegularFileError(displayPath: string, stats: Stats, verb = "read"): Error {
	if (stats.isDirectory()) return new Error(`Path is a directory, not a file: ${displayPath}`);
	return new Error(`Cannot ${verb} ${displayPath}: it is ${describeFileKind(stats)}, not a regular file`);
}

/** Stats of `absolutePath` (symlinks followed); throws the one-line error unless it is a regular file. */
export async function statRegularFile(absolutePath: string, displayPath: string, verb = "read"): Promise<Stats> {
	let stats: Stats;
	try {
		stats = await stat(absolutePath);
	} catch (error) {
		throw describeFsError(error, displayPath);
	}
	if (!stats.isFile()) throw notRegularFileError(displayPath, stats, verb);
	return stats;
}

export interface OpenedFile {
	handle: FileHandle;
	/** From the open descriptor, so they describe what is read, not what the path pointed at before. */
	stats: Stats;
}

/** Opens a regular file for reading without ever blocking on a FIFO or device; the caller closes it. */
export async function openRegularFile(absolutePath: string, displayPath: string, verb = "read"): Promise<OpenedFile> {
	await statRegularFile(absolutePath, displayPath, verb);
	let handle: FileHandle;
	try {
		handle = await open(absolutePath, constants.O_RDONLY | constants.O_NONBLOCK);
	} catch (error) {
		throw describeFsError(error, displayPath);
	}
	try {
		const stats = await handle.stat();
		if (!stats.isFile()) throw notRegularFileError(displayPath, stats, verb);
		return { handle, stats };
	} catch (error) {
		await handle.close();
		throw error;
	}
}

/**
 * Reads up to `maxBytes` from the start of an open file with positioned reads. Never more, even if the
 * file grew since it was opened (a log being written), so memory stays bounded.
 */
export async function readHead(handle: FileHandle, maxBytes: number): Promise<Buffer> {
	const buffer = Buffer.allocUnsafe(maxBytes);
	let filled = 0;
	while (filled < maxBytes) {
		const { bytesRead } = await handle.read(buffer, filled, maxBytes - filled, filled);
		if (bytesRead === 0) break;
		filled += bytesRead;
	}
	return buffer.subarray(0, filled);
}
