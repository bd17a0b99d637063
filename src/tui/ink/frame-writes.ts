// Ink writes one frame as several writes to stdout: the synchronized-output start marker, the erase
// and the frame, the end marker (with <Static> output also an erase and the static text between).
// Each would be a write(2) to the terminal, and each a trip through Node's Writable (write, onwrite,
// afterWrite on the next tick; corked: a buffer, uncork, clearBuffer, _writev). They are held here
// from the start marker to the end marker as strings and leave as one string, the same bytes in the
// same order: on a terminal whose stream has nothing queued, straight to its descriptor with one
// write(2) (tty.WriteStream's handle writes synchronously, blocking, on Linux: the same system call
// the stream would make); otherwise through the stream. Measured at 5,000 tokens at 200 tok/s: the
// frame's write went from ~7% of the reply's CPU (5% of it Node's stream machinery) to the system
// call alone (docs/ink.md §1).
import { writeSync } from "node:fs";

/** Ink's synchronized-output markers (ink/build/write-synchronized.js). */
const FRAME_START = "\x1b[?2026h";
const FRAME_END = "\x1b[?2026l";

type Write = NodeJS.WriteStream["write"];

const SETTLED = Promise.resolve();

/** Writes `text` to the terminal itself, or returns false for the stream to write it (in order). */
export type DirectWrite = (text: string) => boolean;

/**
 * Coalesces each of Ink's frames on `stdout` into one write; call the returned function to stop.
 * `seen` gets every string written, in order (the reflow guard's `FrameWatch`): one wrapper around
 * `stdout.write` for both, where the guard's own was one more call and rest array per write.
 */
export function installFrameWrites(
	stdout: NodeJS.WriteStream,
	direct: DirectWrite | undefined = directWrite(stdout),
	seen?: (data: string) => void,
): () => void {
	const write = stdout.write;
	/** Node's Writable.write(chunk, encoding, callback): an argument left out and an undefined one are the same to it. */
	const pass = (data: string | Uint8Array, encoding?: unknown, callback?: unknown) =>
		encoding === undefined && callback === undefined
			? (write as (data: unknown) => boolean).call(stdout, data)
			: (write as (...args: unknown[]) => boolean).call(stdout, data, encoding, callback);
	/** The frame's writes so far, from its start marker on. */
	let held: string[] | undefined;
	const release = () => {
		if (!held) return;
		const text = held.length === 1 ? held[0] : held.join("");
		held = undefined;
		if (!direct?.(text)) pass(text);
	};
	stdout.write = ((data: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
		const text = typeof data === "string";
		if (text) seen?.(data);
		const plain = text && encoding === undefined && callback === undefined;
		if (held) {
			if (plain) {
				held.push(data);
				if (data.endsWith(FRAME_END)) release();
				return true;
			}
			// Bytes, an encoding or a callback (not Ink's): what the frame wrote so far goes first, then this.
			release();
			return pass(data, encoding, callback);
		}
		if (plain && data.startsWith(FRAME_START)) {
			held = [data];
			// A frame whose end marker never comes (Ink threw mid-frame) still leaves this tick, at its
			// microtask checkpoint; anything written until then joins it, in order. A promise reaction,
			// not process.nextTick: that one also ran a round of processTicksAndRejections per frame
			// (in-process ~3 µs a turn, against ~0.2 µs).
			SETTLED.then(release);
			return true;
		}
		return pass(data, encoding, callback);
	}) as Write;
	return () => {
		release();
		stdout.write = write;
	};
}

/**
 * One write(2) of a frame to the terminal's descriptor, when that keeps the order of bytes: only while
 * the stream holds nothing (not corked, nothing queued) and is open. A partial write's rest, and any
 * failure (a non-blocking descriptor's EAGAIN; EPIPE or EIO once the terminal is gone), is the
 * stream's: it writes or reports it as it would have, and from then on every frame goes through it.
 */
export function directWrite(stdout: NodeJS.WriteStream, write: typeof writeSync = writeSync): DirectWrite | undefined {
	const fd = (stdout as { fd?: unknown }).fd;
	if (!stdout.isTTY || typeof fd !== "number") return undefined;
	let failed = false;
	return (text) => {
		if (failed || stdout.writableLength !== 0 || stdout.writableCorked !== 0 || stdout.destroyed || stdout.writableEnded) return false;
		let bytes: Buffer | undefined;
		let done = 0;
		try {
			done = write(fd, text);
			if (done === Buffer.byteLength(text)) return true;
			bytes = Buffer.from(text);
			while (done < bytes.length) done += write(fd, bytes, done);
			return true;
		} catch {
			failed = true;
			if (done === 0) return false;
			// Part of it is on the terminal: the stream writes the rest.
			stdout.write((bytes ?? Buffer.from(text)).subarray(done));
			return true;
		}
	};
}
