import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { installFrameWrites } from "../../../components/ink/frame-writes.js";

/** A stream that records each chunk the underlying write receives (one entry per writev too). */
function recordingStream() {
	const calls: string[][] = [];
	const stream = new Writable({
		write(chunk, _enc, done) {
			calls.push([String(chunk)]);
			done();
		},
		writev(chunks, done) {
			calls.push(chunks.map((c) => String(c.chunk)));
			done();
		},
	}) as unknown as NodeJS.WriteStream;
	return { stream, calls };
}

describe("frame writes", () => {
	it("hands one of Ink's frames to the terminal in one write, the same bytes in the same order", () => {
		const { stream, calls } = recordingStream();
		const stop = installFrameWrites(stream);
		stream.write("\x1b[?2026h");
		stream.write("\x1b[2K\x1b[1A\x1b[Gframe");
		stream.write("\x1b[?2026l");
		stream.write("later");
		stop();
		expect(calls).toEqual([["\x1b[?2026h", "\x1b[2K\x1b[1A\x1b[Gframe", "\x1b[?2026l"], ["later"]]);
	});

	it("lets a frame without its end marker out by the next tick", async () => {
		const { stream, calls } = recordingStream();
		const stop = installFrameWrites(stream);
		stream.write("\x1b[?2026h");
		stream.write("half a frame");
		expect(calls).toEqual([]);
		await new Promise((r) => process.nextTick(r));
		expect(calls.flat()).toEqual(["\x1b[?2026h", "half a frame"]);
		stop();
	});
});
