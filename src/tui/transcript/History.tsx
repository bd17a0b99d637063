// Finished items, written once above the live region. React.memo is a requirement, not an optimisation:
// with React 19 an unmemoised <Static> is marked dirty whenever its parent renders, and a dirty static
// node forces an immediate full frame that skips Ink's frame limit (docs/ink.md §4: 1,748 frames vs 451).
// `columns` is the width new items are wrapped to; printed items are printed again through a fresh
// <Static> by Ctrl+L and once a new width settles (use-history-batches.ts).
import { Static, Text } from "ink";
import React from "react";
import type { RenderHints } from "./render/hints.js";
import { renderHistoryItem } from "./render/history-item.js";
import type { HistoryItem } from "./session-view.js";

/** Items that became final between two renders; `id` is the index of the first one. */
export interface HistoryBatch {
	id: number;
	items: readonly HistoryItem[];
}

let lastBatch: { first: HistoryItem; last: HistoryItem; count: number; columns: number; hints?: RenderHints; text: string } | undefined;

/**
 * What <Static> prints for a batch: each item styled and wrapped (render/history-item.ts). Remembers
 * its last answer: the live frame writer may have rendered the same batch for a frame it then left to
 * React (live-region.ts), and items never change once in history.
 */
export function batchText(items: readonly HistoryItem[], columns: number, hints?: RenderHints): string {
	const first = items[0];
	const last = items.at(-1);
	const b = lastBatch;
	if (b && first && b.first === first && b.last === last && b.count === items.length && b.columns === columns && b.hints === hints)
		return b.text;
	const text = items.map((item) => renderHistoryItem(item, columns, hints)).join("\n");
	lastBatch = first && last ? { first, last, count: items.length, columns, hints, text } : undefined;
	return text;
}

export const History = React.memo(function History({
	items,
	columns,
	hints,
}: {
	items: readonly HistoryBatch[];
	columns: number;
	/** Key hints in collapsed items; keep the object stable, or every render re-prints nothing but costs a frame. */
	hints?: RenderHints;
}) {
	return (
		<Static items={items as HistoryBatch[]}>
			{(batch) => (
				// One <Text> per batch: each item is already styled and wrapped (render/history-item.ts), so
				// Ink has one node to lay out and no line wider than the terminal to wrap.
				<Text key={batch.id}>{batchText(batch.items, columns, hints)}</Text>
			)}
		</Static>
	);
});
