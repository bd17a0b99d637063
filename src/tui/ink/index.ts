// The one door into the Ink folder: everything outside src/tui/ink/ imports these names from here,
// never a file inside it (test/layers.test.ts checks it), so what relies on Ink's internals stays
// behind one list. patches.ts and startup/patches.ts are not here: the bundle script and the
// patched-Ink tests read them at build time, the app never runs them.
export { type FrameCounts, frameCounts } from "./frame-counts.js";
export { directWrite, installFrameWrites } from "./frame-writes.js";
export { MAX_INPUT_ROWS, MAX_QUEUE_ROWS, MAX_TOOL_ROWS, tailBudget } from "./live-budget.js";
export { partText } from "./live-frame.js";
export { type LiveRegion, liveRegionFor, never, type RegionHistory, usePartKey } from "./live-region.js";
export { frameWatch, installReflowGuard } from "./reflow-guard.js";
export { staticRows } from "./row-cached-output.js";
export { useRawInput } from "./use-raw-input.js";
