// One run of ripgrep whose stdout is a NUL-separated list of paths (`--files`, `--files-with-matches`
// with `--null`), read as the pipe delivers it: each chunk's whole paths are handed on at once, so the
// caller's work on them overlaps ripgrep's walk, and no copy of the whole listing is ever made (a
// 70,000-file listing is 3.5 MB; joined and split at the end it cost the caller its longest pause).
// Its log (stderr: `--debug` names the links it passed over) goes to a file read once at the end.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { type FileHandle, open, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Receives a chunk's paths, in no particular order. */
export type PathsHandler = (batch: string[]) => void;

/** How a run ended: ripgrep's stderr (its `--debug` log), or undefined when it could not run or failed. */
export type RipgrepOutcome = { log: string } | undefined;

/**
 * Splits a NUL-separated byte stream into paths, a chunk at a time. A path (or a character of it) cut
 * between two chunks waits for the next one; each chunk is decoded once, in one piece.
 */
export class NulSplitter {
	/** The bytes after the last NUL so far: the start of a path. */
	private rest: Buffer | undefined;
	/** Whether any path was handed on. */
	any = false;

	constructor(private readonly onPaths: PathsHandler) {}

	push(chunk: Buffer): void {
		const first = chunk.indexOf(0);
		if (first === -1) {
			this.rest = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
			return;
		}
		const last = chunk.lastIndexOf(0);
		const batch = first < last ? chunk.toString("utf8", first + 1, last).split("\0") : [];
		const head = this.rest ? Buffer.concat([this.rest, chunk.subarray(0, first)]).toString("utf8") : chunk.toString("utf8", 0, first);
		if (head !== "") batch.push(head);
		// A copy: the chunk itself is not kept alive for its last few bytes.
		this.rest = last + 1 < chunk.length ? Buffer.from(chunk.subarray(last + 1)) : undefined;
		if (batch.length === 0) return;
		this.any = true;
		this.onPaths(batch);
	}
}

/**
 * Runs `rg args` in `cwd`, handing its listed paths to `onPaths` as they come. Resolves with the log
 * when ripgrep listed (exit 0), found nothing (1) or listed with some folders unreadable (2 with output:
 * the Node walk skips those too); undefined when it could not run or failed otherwise (a pattern it
 * cannot parse). Rejects when `signal` aborts it.
 */
export async function runRipgrep(
	rg: string,
	args: string[],
	cwd: string,
	onPaths: PathsHandler,
	signal?: AbortSignal,
): Promise<RipgrepOutcome> {
	const log = await LogFile.open();
	try {
		return await new Promise<RipgrepOutcome>((resolve, reject) => {
			const child = spawn(rg, args, { cwd, stdio: ["ignore", "pipe", log?.fd ?? "pipe"], signal });
			const paths = new NulSplitter(onPaths);
			const err: Buffer[] = [];
			child.stdout?.on("data", (chunk: Buffer) => paths.push(chunk));
			child.stdout?.on("error", () => undefined);
			child.stderr?.on("data", (chunk: Buffer) => err.push(chunk));
			child.stderr?.on("error", () => undefined);
			child.on("error", (error) => {
				if (signal?.aborted) reject(error);
				else resolve(undefined);
			});
			child.on("close", (code) => {
				if (signal?.aborted) return reject(new Error("Operation aborted"));
				const listed = code === 0 || code === 1 || (code === 2 && paths.any);
				if (!listed) return resolve(undefined);
				if (!log) return resolve({ log: Buffer.concat(err).toString("utf8") });
				log.text().then((text) => resolve({ log: text }), reject);
			});
		});
	} finally {
		await log?.close();
	}
}

/**
 * A file ripgrep writes its log to, removed as soon as it is open (only the two descriptors keep it).
 * Not a pipe: `--debug` writes each log line in pieces, unbuffered, ~5,000 writes for the 70,000-file
 * benchmark tree, and a pipe woke this process for each (~2,900 reads a run, a tenth of find's time
 * under load). Undefined when no such file can be made: the log comes through a pipe then.
 */
class LogFile {
	private constructor(private readonly handle: FileHandle) {}

	static async open(): Promise<LogFile | undefined> {
		const path = join(tmpdir(), `rudder-rg-${process.pid}-${randomUUID()}.log`);
		const handle = await open(path, "wx+", 0o600).catch(() => undefined);
		if (!handle) return undefined;
		await unlink(path).catch(() => undefined);
		return new LogFile(handle);
	}

	get fd(): number {
		return this.handle.fd;
	}

	/** What was written, from the start (ripgrep moved the shared offset to the end). */
	async text(): Promise<string> {
		const { size } = await this.handle.stat();
		const bytes = Buffer.alloc(size);
		const { bytesRead } = await this.handle.read(bytes, 0, size, 0);
		return bytes.toString("utf8", 0, bytesRead);
	}

	close(): Promise<void> {
		return this.handle.close().catch(() => undefined);
	}
}
