// Narrowing the terminal re-wraps the live frame already on screen: a line of 90 cells becomes two
// rows at 60 columns. Ink then erases as many rows as it wrote, not as many as are now on screen, and
// the top of the old frame stays behind as a duplicate. This guard remembers the last frame and, on a
// narrowing resize (before Ink's own handler), erases the extra rows the re-wrap created.
// What no erase can reach: a terminal that keeps its screen height while re-wrapping (tmux) pushes the
// screen's top rows into the scrollback. Printed history there is fine; when the live frame sits in
// those rows (a short conversation, the frame near the top of the screen), its first rows stay behind.
import { displayWidth } from "../text/text-width.js";

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
 * the live frame, so the last frame seen is the live region. Called on writes from the newest back
 * (`frameWatch`): the end is stripped with `endsWith`, as a regex anchored at the end would try at
 * every escape of the frame.
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

/** Ink's writes as the guard reads them: kept as they come, their last frame found only when asked. */
export interface FrameWatch {
	/** Each string written to the terminal, in order (src/tui/ink/frame-writes.ts calls it). */
	seen(data: string): void;
	/** The frame part (`frameOfWrite`) of the last write that had one; "" before any. */
	lastFrame(): string;
}

/** Writes kept before their last frame is looked for: three a frame, so a few frames' worth. */
const KEPT_WRITES = 12;

/**
 * What an eager `frameOfWrite` of every write would leave as the last frame, found on a resize (or
 * every KEPT_WRITES writes) from the newest write back: per write only a push, where the regex and the
 * slice of each write's frame were needed only when the terminal narrows.
 */
export function frameWatch(): FrameWatch {
	let last = "";
	const writes: string[] = [];
	const settle = () => {
		for (let i = writes.length - 1; i >= 0; i--) {
			const frame = frameOfWrite(writes[i]);
			if (frame !== undefined) {
				last = frame;
				break;
			}
		}
		writes.length = 0;
	};
	return {
		seen(data) {
			if (writes.push(data) >= KEPT_WRITES) settle();
		},
		lastFrame() {
			settle();
			return last;
		},
	};
}

/**
 * Erases what a narrowing resize re-wraps, from the frames `frames` saw; call the returned function to
 * stop. The guard adds no wrapper of its own around `stdout.write`: the frame writer, which sees each of
 * Ink's writes anyway, hands them to `frames`.
 */
export function installReflowGuard(stdout: NodeJS.WriteStream, frames: FrameWatch): () => void {
	let columns = stdout.columns;
	const onResize = () => {
		const next = stdout.columns;
		if (next < columns) {
			const extra = extraRowsAfterReflow(frames.lastFrame(), next);
			if (extra > 0) stdout.write("\x1b[2K\x1b[1A".repeat(extra));
		}
		columns = next;
	};
	// Registered before Ink renders, so it runs before Ink's own resize handler erases the frame.
	stdout.prependListener("resize", onResize);
	return () => {
		stdout.off("resize", onResize);
	};
}
