// Finished items, written once above the live region. React.memo is a requirement, not an optimisation:
// with React 19 an unmemoised <Static> is marked dirty whenever its parent renders, and a dirty static
// node forces an immediate full frame that skips Ink's frame limit (STACK.md §2.5: 1,748 frames vs 451).
// `columns` is the width new items are wrapped to; items already printed stay as they were.
import { Static } from "ink";
import React from "react";
import { HistoryItemView } from "./HistoryItemView.js";
import type { HistoryItem } from "./session-view.js";

export const History = React.memo(function History({ items, columns }: { items: readonly HistoryItem[]; columns: number }) {
	return <Static items={items as HistoryItem[]}>{(item) => <HistoryItemView key={item.id} item={item} columns={columns} />}</Static>;
});
