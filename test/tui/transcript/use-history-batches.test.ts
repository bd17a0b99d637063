import { describe, expect, it } from "vitest";
import type { HistoryItem } from "../../../src/tui/transcript/session-view.js";
import { REPRINT_ITEMS, reprintBatches } from "../../../src/tui/transcript/use-history-batches.js";

const items = (n: number): HistoryItem[] => Array.from({ length: n }, (_, i) => ({ kind: "user", id: i + 1, text: `q${i}` }));

describe("reprintBatches", () => {
	it("prints nothing for an empty history and everything when it is short", () => {
		expect(reprintBatches([])).toEqual([]);
		expect(reprintBatches(items(3))).toEqual([{ id: 0, items: items(3) }]);
	});

	it("prints the last items of a long history, after a line saying how many are left out", () => {
		const [batch] = reprintBatches(items(REPRINT_ITEMS + 5));
		expect(batch.id).toBe(5);
		expect(batch.items).toHaveLength(REPRINT_ITEMS + 1);
		expect(batch.items[0]).toEqual({
			kind: "notice",
			id: -1,
			level: "info",
			text: "… 5 earlier items are not shown again (/export writes them all)",
		});
		expect(batch.items[1]).toMatchObject({ text: "q5" });
		expect(batch.items.at(-1)).toMatchObject({ text: `q${REPRINT_ITEMS + 4}` });
	});
});
