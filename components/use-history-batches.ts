// What <Static> prints. Items appended since the last render go out as one batch (one Ink node and one
// write for a frame's worth of closed blocks, and no copy of the whole history per frame). A reprint
// (Ctrl+L, or a change of terminal width) clears the terminal and prints the recent history again,
// wrapped to the current width, through a fresh <Static>: printed text cannot be re-wrapped in place.
import { useCallback, useMemo, useRef, useState } from "react";
import type { HistoryBatch } from "./History.js";
import type { HistoryItem } from "./session-view.js";

/** Items printed again by a reprint; older ones stay in the session file. */
export const REPRINT_ITEMS = 200;

/** The batch a reprint starts its fresh <Static> with: the last `limit` items, and a word on the rest. */
export function reprintBatches(history: readonly HistoryItem[], limit = REPRINT_ITEMS): HistoryBatch[] {
	if (history.length === 0) return [];
	const start = Math.max(0, history.length - limit);
	const items = history.slice(start);
	if (start > 0) {
		// id -1: not in the session view's history, only on screen.
		items.unshift({
			kind: "notice",
			id: -1,
			level: "info",
			text: `… ${start} earlier items are not shown again (/export writes them all)`,
		});
	}
	return [{ id: start, items }];
}

const CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H";

interface Writers {
	/** Straight to the terminal. */
	raw(data: string): void;
	/** Through Ink: erases the live region, writes, and draws the last frame again. */
	aboveLiveRegion(data: string): void;
}

export function useHistoryBatches(history: readonly HistoryItem[], write: Writers) {
	const [epoch, setEpoch] = useState(0);
	const printed = useRef({ list: [] as HistoryBatch[], length: 0, epoch: 0 });
	const length = history.length;
	// A new array only when a batch was added or a reprint began, so History skips re-rendering otherwise.
	const batches = useMemo(() => {
		const p = printed.current;
		if (p.epoch !== epoch) {
			p.epoch = epoch;
			p.list = reprintBatches(history);
		} else if (length > p.length) {
			p.list = [...p.list, { id: p.length, items: history.slice(p.length) }];
		}
		p.length = length;
		return p.list;
	}, [history, length, epoch]);
	const { raw, aboveLiveRegion } = write;
	/** `redraw` (Ctrl+L) clears even an empty screen; a resize only re-wraps what is printed. */
	const reprint = useCallback(
		(reason: "redraw" | "resize") => {
			if (history.length > 0) {
				// Cleared directly: Ink's own write would draw its last frame again first, wrapped for the old
				// width. The fresh <Static> then makes Ink write the history and a whole new frame.
				raw(CLEAR_SCREEN);
				setEpoch((n) => n + 1);
			} else if (reason === "redraw") aboveLiveRegion(CLEAR_SCREEN);
		},
		[history, raw, aboveLiveRegion],
	);
	return { batches, epoch, reprint };
}
