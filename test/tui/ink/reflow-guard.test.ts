import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { installFrameWrites } from "../../../src/tui/ink/frame-writes.js";
import { extraRowsAfterReflow, frameOfWrite, frameWatch, installReflowGuard } from "../../../src/tui/ink/reflow-guard.js";

/** Writes as Ink makes them: sync markers, cursor show/hide, erases, frames, <Static> output. */
const WRITES = [
	"\x1b[?2026h",
	"\x1b[?2026l",
	"\x1b[?25l",
	"\x1b[2K\x1b[1A\x1b[2K\x1b[G",
	"\x1b[2K\x1b[1A\x1b[2K\x1b[Gframe a\nrow two\n",
	"\x1b[2K\x1b[Gframe b\n\x1b[?25h",
	"history line\n",
	"plain frame",
];

/** A stand-in terminal: a width, resize events, and what was written to it. */
function fakeTerminal(columns: number) {
	const written: string[] = [];
	const stream = Object.assign(new EventEmitter(), {
		columns,
		isTTY: true,
		write(data: string) {
			written.push(data);
			return true;
		},
	}) as unknown as NodeJS.WriteStream;
	return { stream, written };
}

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

	it("finds, when asked, the frame an eager frameOfWrite of every write would have left last", () => {
		let seed = 17;
		const random = (n: number) => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return seed % n;
		};
		for (let run = 0; run < 200; run++) {
			const watch = frameWatch();
			let eager = "";
			const count = random(60);
			for (let i = 0; i < count; i++) {
				const data = `${WRITES[random(WRITES.length)]}${random(3) === 0 ? `#${i}` : ""}`;
				watch.seen(data);
				eager = frameOfWrite(data) ?? eager;
				if (random(8) === 0) expect(watch.lastFrame()).toBe(eager);
			}
			expect(watch.lastFrame()).toBe(eager);
		}
	});

	it("erases the rows a narrowing resize re-wraps, from the writes the frame writer hands it", () => {
		const { stream, written } = fakeTerminal(100);
		const frames = frameWatch();
		const stopWrites = installFrameWrites(stream, undefined, frames.seen);
		const stopGuard = installReflowGuard(stream, frames);
		stream.write("\x1b[?2026h");
		stream.write(`\x1b[2K\x1b[G${"a".repeat(90)}\nshort\n`);
		stream.write("\x1b[?2026l");
		// Control-only writes after the frame leave it the last frame.
		stream.write("\x1b[?25h");
		written.length = 0;
		Object.assign(stream, { columns: 60 });
		stream.emit("resize");
		expect(written).toEqual(["\x1b[2K\x1b[1A"]);
		// Wider again: nothing to erase.
		Object.assign(stream, { columns: 120 });
		stream.emit("resize");
		expect(written).toEqual(["\x1b[2K\x1b[1A"]);
		stopGuard();
		stopWrites();
		expect(stream.listenerCount("resize")).toBe(0);
	});
});
