// One finished item of the transcript, as printed once into <Static>: a single <Text> holding the
// item already styled and wrapped (render/history-item.ts), so Ink has one node to lay out and no
// line wider than the terminal to wrap.
import { Text } from "ink";
import type React from "react";
import { renderHistoryItem } from "./render/history-item.js";
import type { HistoryItem } from "./session-view.js";

export function HistoryItemView({ item, columns }: { item: HistoryItem; columns: number }): React.ReactElement {
	return <Text>{renderHistoryItem(item, columns)}</Text>;
}
