import { describe, expect, it } from "vitest";
import { extraRowsAfterReflow, frameOfWrite } from "../../../components/ink/reflow-guard.js";

describe("reflow guard", () => {
	it("counts the rows a frame gains when re-wrapped narrower, ignoring styles, counting wide chars", () => {
		const frame = `\x1b[1m› \x1b[22m${"a".repeat(70)}\n\x1b[2m${"b".repeat(130)}\x1b[22m\nshort`;
		expect(extraRowsAfterReflow(frame, 100)).toBe(1);
		expect(extraRowsAfterReflow(frame, 60)).toBe(1 + 2);
		expect(extraRowsAfterReflow("日本語".repeat(10), 20)).toBe(2);
		expect(extraRowsAfterReflow(frame, 200)).toBe(0);
	});

	it("takes the frame out of Ink's writes and ignores control-only writes", () => {
		expect(frameOfWrite("\x1b[2K\x1b[1A\x1b[2K\x1b[Gline one\nline two")).toBe("line one\nline two");
		expect(frameOfWrite("first frame")).toBe("first frame");
		expect(frameOfWrite("\x1b[?2026h")).toBeUndefined();
		expect(frameOfWrite("\x1b[?25h")).toBeUndefined();
		expect(frameOfWrite("\x1b[2K\x1b[1A\x1b[2K\x1b[G")).toBeUndefined();
		// The end of a write: markers and cursor sequences after the frame, in any order, are not the frame.
		expect(frameOfWrite("\x1b[?2026h\x1b[2K\x1b[Gframe\n\x1b[?25h\x1b[?2026l")).toBe("frame\n");
		expect(frameOfWrite("\x1b[2K\x1b[Ga\x1b[?2026l\x1b[?25lb\x1b[?25l")).toBe("a\x1b[?2026l\x1b[?25lb");
		expect(frameOfWrite("\x1b[?2026h\x1b[?25l\x1b[?2026l")).toBeUndefined();
	});
});
