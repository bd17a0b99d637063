import { describe, expect, it } from "vitest";
import { lastStatusRows, SHELL_LIVE_ROWS, shellLiveLines, shellStatusRows, statusRows } from "../../../src/tui/status/LiveStatus.js";
import { displayWidth } from "../../../src/tui/text/text-width.js";
import { spinnerFrame } from "../../../src/tui/transcript/PendingTools.js";

const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");
const hints = { working: " · Esc stops", shell: " · Esc stops" };

describe("the status lines", () => {
	it("turn the spinner with the clock, say what the run does, and fit the width", () => {
		const props = { working: true, phase: { kind: "running" } as const, shells: new Map(), columns: 80, hints };
		expect(statusRows(props, 0).map(strip)).toEqual([`${spinnerFrame(0)} working · Esc stops`]);
		expect(statusRows(props, 100).map(strip)).toEqual([`${spinnerFrame(100)} working · Esc stops`]);
		expect(spinnerFrame(100)).not.toBe(spinnerFrame(0));
		const shells = new Map([[1, { command: "npm test\x1b[2J", startedAt: 0 }]]);
		const narrow = statusRows({ ...props, shells, columns: 12 }, 3500).map(strip);
		expect(narrow).toEqual([`${spinnerFrame(3500)} working ·…`, `${spinnerFrame(3500)} $ npm tes…`]);
		for (const row of narrow) expect(displayWidth(row)).toBeLessThanOrEqual(12);
		expect(statusRows({ ...props, working: false }, 0)).toEqual([]);
	});

	it("are built once per spinner glyph while only the spinner moves, and again whenever seconds show", () => {
		const rowsAt = lastStatusRows();
		const props = { working: true, phase: { kind: "running" } as const, shells: new Map(), columns: 80, hints };
		const first = rowsAt(props, 1000);
		// The same glyph: the same rows, not built again.
		expect(rowsAt(props, 1099)).toBe(first);
		expect(rowsAt(props, 1100).map(strip)).toEqual([`${spinnerFrame(1100)} working · Esc stops`]);
		expect(rowsAt({ ...props, columns: 10 }, 1100).map(strip)).toEqual(statusRows({ ...props, columns: 10 }, 1100).map(strip));
		// A retry's countdown moves within one glyph's 100 ms.
		const retrying = { kind: "retrying", attempt: 2, maxAttempts: 4, delayMs: 1050, until: 2050, reason: "429" } as const;
		const wait = { ...props, phase: retrying };
		expect(rowsAt(wait, 1000).map(strip)[0]).toContain("retrying in 2 s");
		expect(rowsAt(wait, 1060).map(strip)[0]).toContain("retrying in 1 s");
		// A running `!cmd`'s seconds too (its Map is the view's own, changed in place).
		const shells = new Map([[1, { command: "make", startedAt: 50 }]]);
		const withShell = { ...props, shells };
		expect(rowsAt(withShell, 1020).map(strip)[1]).toContain("· 0s");
		expect(rowsAt(withShell, 1060).map(strip)[1]).toContain("· 1s");
		shells.clear();
		expect(rowsAt(withShell, 1070).map(strip)).toEqual([`${spinnerFrame(1070)} working · Esc stops`]);
	});
});

describe("a running !cmd's live output", () => {
	it("shows its last lines as a terminal would: a carriage return starts the line over; control text is made visible", () => {
		const output = `${Array.from({ length: 8 }, (_, i) => `line ${i}`).join("\n")}\nprogress 10%\rprogress 50%\r\nbell\x07 \x1b[2Jdone\n`;
		const lines = shellLiveLines({ command: "make", startedAt: 0, output });
		expect(lines).toHaveLength(SHELL_LIVE_ROWS);
		expect(lines.slice(-2)[0]).toBe("progress 50%");
		expect(lines.at(-1)).not.toMatch(/[\x07\x1b]/);
		expect(lines.at(-1)).toContain("done");
		const shells = new Map([
			[1, { command: "make", startedAt: 0, output }],
			[2, { command: "sleep 9", startedAt: 0 }],
		]);
		expect(shellStatusRows(shells)).toBe(2 + SHELL_LIVE_ROWS);
	});
});
