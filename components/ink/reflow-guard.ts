// Narrowing the terminal re-wraps the live frame already on screen: a line of 90 cells becomes two
// rows at 60 columns. Ink then erases as many rows as it wrote, not as many as are now on screen, and
// the top of the old frame stays behind as a duplicate. This guard remembers the last frame and, on a
// narrowing resize (before Ink's own handler), erases the extra rows the re-wrap created.
// What no erase can reach: a terminal that keeps its screen height while re-wrapping (tmux) pushes the
// screen's top rows into the scrollback. Printed history there is fine; when the live frame sits in
// those rows (a short conversation, the frame near the top of the screen), its first rows stay behind.
import { displayWidth } from "../text-width.js";

/** Ink's erase prefix (line erase, cursor up, column 1) and synchronized-output markers. */
const FRAME_PREFIX = /^(?:\x1b\[2K|\x1b\[1A|\x1b\[G|\x1b\[\?2026[hl]|\x1b\[\?25[lh])+/;
const SGR = /\x1b\[[0-9;:]*m/g;

/** Rows the frame gains when lines written at any width are re-wrapped at `columns`. */
export function extraRowsAfterReflow(frame: string, columns: number): number {
	if (columns <= 0) return 0;
	let extra = 0;
	for (const line of frame.split("\n")) {
		const width = displayWidth(line.replace(SGR, ""));
		if (width > columns) extra += Math.ceil(width / columns) - 1;
	}
	return extra;
}

/** What may follow the frame in the same write: the synchronized-output end marker, cursor show/hide. */
const FRAME_SUFFIXES = ["\x1b[?2026l", "\x1b[?25h", "\x1b[?25l"];

/**
 * The frame part of one write by Ink (what follows the erase of the previous frame), or undefined for
 * a write of control sequences only (sync markers, cursor show/hide). Static output is written before
 * the live frame, so the last frame seen is the live region. Called on every write: the end is
 * stripped with `endsWith`, as a regex anchored at the end would try at every escape of the frame.
 */
export function frameOfWrite(data: string): string | undefined {
	const prefix = FRAME_PREFIX.exec(data);
	const start = prefix ? prefix[0].length : 0;
	let end = data.length;
	for (let i = 0; i < FRAME_SUFFIXES.length && end > start; i++) {
		const suffix = FRAME_SUFFIXES[i];
		if (end - suffix.length >= start && data.endsWith(suffix, end)) {
			end -= suffix.length;
			i = -1;
		}
	}
	return end > start ? data.slice(start, end) : undefined;
}

/** Watches `stdout` for Ink's frames; call the returned function to stop. */
export function installReflowGuard(stdout: NodeJS.WriteStream): () => void {
	let lastFrame = "";
	let columns = stdout.columns;
	const write = stdout.write.bind(stdout);
	stdout.write = ((data: string | Uint8Array, ...rest: any[]) => {
		if (typeof data === "string") {
			const frame = frameOfWrite(data);
			if (frame !== undefined) lastFrame = frame;
		}
		return write(data, ...rest);
	}) as typeof stdout.write;
	const onResize = () => {
		const next = stdout.columns;
		if (next < columns) {
			const extra = extraRowsAfterReflow(lastFrame, next);
			if (extra > 0) write("\x1b[2K\x1b[1A".repeat(extra));
		}
		columns = next;
	};
	// Registered before Ink renders, so it runs before Ink's own resize handler erases the frame.
	stdout.prependListener("resize", onResize);
	return () => {
		stdout.off("resize", onResize);
		stdout.write = write as typeof stdout.write;
	};
}
