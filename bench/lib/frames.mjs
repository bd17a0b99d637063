// Counting the frames an app drew from what `script` logged: the bytes, and the timing log (one line
// per chunk read from the app's pty: seconds since the previous chunk, then its byte count).

/** The gap (ms) that separates two write bursts; an app's frame arrives as one write, frames come further apart. */
export const BURST_GAP_MS = 2;

const SYNC_BEGIN = /\x1b\[\?2026h/g;

/**
 * With a timing log, `script` starts the byte log with a "Script started on …" line even when quiet; the
 * timing log's byte counts start after it.
 */
export function logHeaderLength(log) {
	const head = log.subarray(0, 18).toString("latin1");
	return head === "Script started on " ? log.indexOf(10) + 1 : 0;
}

/** Timing log text → [{atMs, start, end}] chunks, as byte offsets into the log (after its `header`). */
export function parseTiming(text, header = 0) {
	const chunks = [];
	let at = 0;
	let offset = header;
	for (const line of text.split("\n")) {
		const m = /^(\d+(?:\.\d+)?) (\d+)$/.exec(line.trim());
		if (!m) continue;
		at += Number(m[1]) * 1000;
		const bytes = Number(m[2]);
		chunks.push({ atMs: at, start: offset, end: offset + bytes });
		offset += bytes;
	}
	return chunks;
}

/**
 * Write bursts among the chunks that start in [from, to): chunks less than `gapMs` apart are one burst
 * (a large frame is read in several chunks).
 */
export function countBursts(chunks, from, to, gapMs = BURST_GAP_MS) {
	let bursts = 0;
	let last = Number.NEGATIVE_INFINITY;
	for (const c of chunks) {
		if (c.start < from || c.start >= to) continue;
		if (c.atMs - last >= gapMs) bursts++;
		last = c.atMs;
	}
	return bursts;
}

/** Synchronized-update blocks (ESC[?2026h … ESC[?2026l) in a stretch of output, as latin1 text. */
export function countSyncBlocks(text) {
	return (text.match(SYNC_BEGIN) ?? []).length;
}

/**
 * Frames drawn: synchronized-update blocks when the app brackets its frames with them, else write
 * bursts. Returns both counts and which one it took.
 */
export function countFrames(text, chunks, from, to) {
	const sync = countSyncBlocks(text);
	const bursts = countBursts(chunks, from, to);
	return { frames: sync > 0 ? sync : bursts, sync, bursts, method: sync > 0 ? "sync" : "bursts" };
}
