// The live region must stay shorter than the terminal: once Ink's previous frame is as tall as the
// screen it clears the terminal and replays all of history on every frame (docs/ink.md §3). So each
// part gets a row budget, and the streaming tail gets what is left.

export interface LiveParts {
	rows: number;
	inputRows: number;
	menuRows: number;
	queueRows: number;
	toolRows: number;
	/** Status lines such as "writing tool call" or the working spinner. */
	statusRows: number;
}

/** Rows never used: one so the frame stays strictly below `rows`, one for the cursor line Ink leaves. */
export const SAFETY_ROWS = 2;
export const FOOTER_ROWS = 1;
export const MAX_INPUT_ROWS = 8;
export const MAX_QUEUE_ROWS = 3;
export const MAX_TOOL_ROWS = 8;

/** Rows left for the streaming message's tail (0 on a tiny terminal). */
export function tailBudget(p: LiveParts): number {
	const used = SAFETY_ROWS + FOOTER_ROWS + p.inputRows + p.menuRows + p.queueRows + p.toolRows + p.statusRows;
	return Math.max(0, p.rows - used);
}
