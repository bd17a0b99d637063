import { describe, expect, it } from "vitest";
import { statusRows } from "../../components/LiveStatus.js";
import { spinnerFrame } from "../../components/PendingTools.js";
import { displayWidth } from "../../components/text-width.js";

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
});
