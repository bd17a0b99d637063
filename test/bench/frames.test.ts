// Frame counting from `script`'s logs: synchronized-update blocks when present, else write bursts from
// the timing log, offset past the byte log's header line.
import { describe, expect, it } from "vitest";
// @ts-expect-error the bench is plain JavaScript run by node without a build
import { countBursts, countFrames, logHeaderLength, parseTiming } from "../../bench/lib/frames.mjs";

type Chunk = { atMs: number; start: number; end: number };

describe("frame counting", () => {
	it("parses the timing log into chunks with times and byte offsets after the header", () => {
		const chunks = parseTiming("0.010000 5\n0.001000 3\n0.020000 10\n", 7);
		expect(chunks.map((c: Chunk) => [Math.round(c.atMs), c.start, c.end])).toEqual([
			[10, 7, 12],
			[11, 12, 15],
			[31, 15, 25],
		]);
	});

	it("chunks closer than 2 ms are one burst; only chunks starting in the range count", () => {
		const chunks = parseTiming("0.010 5\n0.0005 3\n0.020 10\n0.0015 4\n0.003 1\n");
		expect(countBursts(chunks, 0, 100)).toBe(3);
		expect(countBursts(chunks, 8, 100)).toBe(2);
	});

	it("takes synchronized-update blocks when the app brackets frames with them", () => {
		const text = "\x1b[?2026hA\x1b[?2026l\x1b[?2026hB\x1b[?2026l";
		const chunks = parseTiming("0.1 10\n0.1 10\n0.1 10\n");
		expect(countFrames(text, chunks, 0, 30)).toMatchObject({ frames: 2, method: "sync", bursts: 3 });
		expect(countFrames("AB", chunks, 0, 30)).toMatchObject({ frames: 3, method: "bursts", sync: 0 });
	});

	it("finds the header script writes with a timing log, and none without", () => {
		const log = Buffer.from('Script started on 2026-12-01 [COMMAND="x"]\n\x1b[?1049habc');
		expect(log.subarray(logHeaderLength(log)).toString()).toBe("\x1b[?1049habc");
		expect(logHeaderLength(Buffer.from("plain output"))).toBe(0);
	});
});
