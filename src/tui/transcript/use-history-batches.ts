// What <Static> prints. Items appended since the last render go out as one batch (one Ink node and one
// write for a frame's worth of closed blocks, and no copy of the whole history per frame). A reprint
// (Ctrl+L) gives the app a clean screen and prints the recent history again, wrapped to the current
// width, through a fresh <Static>. The clean screen is made by scrolling what is on it up into the
// scrollback, never by erasing: the scrollback holds what the user ran before Rudder (`\x1b[3J` wiped
// it, and `\x1b[2J` alone would still lose the lines on screen). The cost: the history printed before
// stays in the scrollback too, above the reprint. A change of width reprints as well, once the width
// has settled and no run is active (useRewrapOnWidthChange in src/tui/app/app-hooks.ts): the rows we
// printed were wrapped at the old width, and the terminal's re-wrap breaks them mid-word. Until then
// the reflow guard (src/tui/ink/reflow-guard.ts) erases what the terminal re-wrapped of the live region.
import { useCallback, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { RegionHistory } from "../ink/index.js";
import { batchText, type HistoryBatch } from "./History.js";
import type { RenderHints } from "./render/hints.js";
import type { HistoryItem } from "./session-view.js";

/** Items printed again by a reprint; older ones stay in the session file. */
export const REPRINT_ITEMS = 200;

/** The batch a reprint starts its fresh <Static> with: the last `limit` items, and a word on the rest. */
export function reprintBatches(history: readonly HistoryItem[], limit = REPRINT_ITEMS, from = 0): HistoryBatch[] {
	if (history.length <= from) return [];
	const start = Math.max(from, history.length - limit);
	const items = history.slice(start);
	if (start > from) {
		// id -1: not in the session view's history, only on screen.
		items.unshift({
			kind: "notice",
			id: -1,
			level: "info",
			text: `… ${start - from} earlier items are not shown again (/export writes them all)`,
		});
	}
	return [{ id: start, items }];
}

/**
 * Line feeds from the bottom row push every row on screen into the scrollback, leaving it blank; then
 * the cursor goes home for Ink to draw from the top.
 */
export const scrollScreenOff = (rows: number): string => `\x1b[${Math.max(1, rows)};1H${"\n".repeat(Math.max(1, rows))}\x1b[H`;

interface Writers {
	/** Straight to the terminal. */
	raw(data: string): void;
	/** Through Ink: erases the live region, writes, and draws the last frame again. */
	aboveLiveRegion(data: string): void;
	/** The terminal's height now. */
	rows(): number;
}

/**
 * Where the live frame writer prints history without React (src/tui/ink/live-region.ts), and how
 * History prints it: the same text at the same width.
 */
export interface HistoryPrinter {
	region: RegionHistory;
	columns: number;
	hints?: RenderHints;
	/** The first item a reprint prints (the current session's first: a new session starts a clean screen). */
	from: number;
	/**
	 * False when an App render would change more on screen than the tail, the status line and the new
	 * history (a running tool's row shows its elapsed time): then new history is left to React.
	 */
	writable(): boolean;
}

export function useHistoryBatches(history: readonly HistoryItem[], write: Writers, printer?: HistoryPrinter) {
	const [epoch, setEpoch] = useState(0);
	const printed = useRef({ list: [] as HistoryBatch[], length: 0, epoch: 0 });
	const region = printer?.region;
	const from = printer?.from ?? 0;
	// Items the writer could not print re-render the App.
	useSyncExternalStore(region?.react.subscribe ?? noSubscribe, region?.react.get ?? zero);
	const length = history.length;
	// A new array only when a batch was added or a reprint began, so History skips re-rendering otherwise.
	const batches = useMemo(() => {
		const p = printed.current;
		if (p.epoch !== epoch) {
			p.epoch = epoch;
			p.list = reprintBatches(history, REPRINT_ITEMS, from);
		} else if (length > p.length) {
			// Items the writer printed already are on screen: the batch starts after them.
			const from = Math.max(p.length, region?.printed ?? 0);
			if (length > from) p.list = [...p.list, { id: from, items: history.slice(from) }];
		}
		p.length = length;
		if (region) region.printed = length;
		return p.list;
	}, [history, length, epoch, region, from]);
	if (printer) {
		const { columns, hints } = printer;
		printer.region.pending = () => {
			const from = printer.region.printed;
			if (history.length <= from) return undefined;
			if (!printer.writable()) return { text: undefined, columns, to: history.length };
			return { text: batchText(history.slice(from), columns, hints), columns, to: history.length };
		};
	}
	const { raw, aboveLiveRegion, rows } = write;
	/** Ctrl+L: a clean screen with the history printed again (a clean screen even when it is empty). */
	const reprint = useCallback(() => {
		if (history.length > 0) {
			// Scrolled off directly: Ink's own write would draw its last frame again first. The fresh
			// <Static> then makes Ink write the history and a whole new frame.
			raw(scrollScreenOff(rows()));
			setEpoch((n) => n + 1);
		} else aboveLiveRegion(scrollScreenOff(rows()));
	}, [history, raw, aboveLiveRegion, rows]);
	return { batches, epoch, reprint };
}

const noSubscribe = () => () => {};
const zero = () => 0;
