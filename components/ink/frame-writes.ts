// Ink writes one frame as several writes to stdout: the synchronized-output start marker, the erase
// and the frame, the end marker (with <Static> output also an erase and the static text between).
// Each is a write(2) to the terminal. Held back from the start marker to the end marker, they leave
// as one writev: the same bytes in the same order, a third of the system calls.

/** Ink's synchronized-output markers (ink/build/write-synchronized.js). */
const FRAME_START = "\x1b[?2026h";
const FRAME_END = "\x1b[?2026l";

type Write = NodeJS.WriteStream["write"];

/** Coalesces each of Ink's frames on `stdout` into one write; call the returned function to stop. */
export function installFrameWrites(stdout: NodeJS.WriteStream): () => void {
	const write = stdout.write;
	let holding = false;
	const release = () => {
		if (!holding) return;
		holding = false;
		stdout.uncork();
	};
	stdout.write = ((data: string | Uint8Array, ...rest: any[]) => {
		const text = typeof data === "string" ? data : undefined;
		if (!holding && text?.startsWith(FRAME_START)) {
			holding = true;
			stdout.cork();
			// A frame whose end marker never comes (Ink threw mid-frame) still leaves this tick.
			process.nextTick(release);
		}
		const ok = (write as (...args: unknown[]) => boolean).call(stdout, data, ...rest);
		if (holding && text?.endsWith(FRAME_END)) release();
		return ok;
	}) as Write;
	return () => {
		release();
		stdout.write = write;
	};
}
