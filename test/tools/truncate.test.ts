import { describe, expect, it } from "vitest";
import { formatSize, truncateHead, truncateLine, truncateTail } from "../../src/tools/truncate.js";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

describe("truncateHead", () => {
	it("keeps text under both caps unchanged", () => {
		const r = truncateHead("a\nb", { maxLines: 5, maxBytes: 100 });
		expect(r).toMatchObject({ content: "a\nb", truncated: false, truncatedBy: null, totalLines: 2 });
	});
	it("keeps the first lines when the line cap is hit", () => {
		const r = truncateHead(lines(10), { maxLines: 3, maxBytes: 1000 });
		expect(r).toMatchObject({ content: "line 1\nline 2\nline 3", truncated: true, truncatedBy: "lines", outputLines: 3, totalLines: 10 });
	});
	it("keeps whole lines only when the byte cap is hit", () => {
		const r = truncateHead(lines(10), { maxLines: 100, maxBytes: 15 });
		expect(r.content).toBe("line 1\nline 2");
		expect(r).toMatchObject({ truncatedBy: "bytes", outputBytes: 13 });
	});
	it("flags a first line over the byte cap", () => {
		const r = truncateHead(`${"x".repeat(50)}\nshort`, { maxBytes: 10 });
		expect(r).toMatchObject({ content: "", firstLineExceedsLimit: true, truncated: true });
	});
});

describe("truncateTail", () => {
	it("keeps the last lines when the line cap is hit", () => {
		const r = truncateTail(lines(10), { maxLines: 2, maxBytes: 1000 });
		expect(r).toMatchObject({ content: "line 9\nline 10", truncatedBy: "lines", outputLines: 2, totalLines: 10 });
	});
	it("keeps whole lines from the end when the byte cap is hit", () => {
		const r = truncateTail(lines(10), { maxLines: 100, maxBytes: 15 });
		expect(r).toMatchObject({ content: "line 9\nline 10", truncatedBy: "bytes", outputLines: 2, outputBytes: 14, lastLinePartial: false });
	});
	it("keeps the end of a single line over the byte cap without splitting a character", () => {
		const r = truncateTail(`start${"é".repeat(20)}`, { maxBytes: 7 });
		expect(r.lastLinePartial).toBe(true);
		expect(r.content).toBe("ééé");
	});
});

describe("truncateLine and formatSize", () => {
	it("cuts long lines and says how long they were", () => {
		expect(truncateLine("abcdef", 3)).toEqual({ text: "abc... [line truncated, 6 chars]", wasTruncated: true });
		expect(truncateLine("abc", 3)).toEqual({ text: "abc", wasTruncated: false });
	});
	it("formats sizes", () => {
		expect([formatSize(10), formatSize(2048), formatSize(3 * 1024 * 1024)]).toEqual(["10B", "2.0KB", "3.0MB"]);
	});
});
