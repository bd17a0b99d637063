import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { whenInputRests } from "../../src/modes/input-rest.js";

describe("whenInputRests (MCP servers start between keystrokes, not under one)", () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	const keys = () => new EventEmitter() as EventEmitter & { on(e: "readable", l: () => void): unknown };

	it("does not run while keys arrive, and runs once they have rested", () => {
		const input = keys();
		const work = vi.fn();
		whenInputRests(input, work, { restMs: 150, maxWaitMs: 2000, now: Date.now });
		// A key right after the first frame, then one every 100 ms: the work must not land under any of them.
		for (let i = 0; i < 8; i++) {
			vi.advanceTimersByTime(i === 0 ? 5 : 100);
			input.emit("readable");
			expect(work).not.toHaveBeenCalled();
		}
		vi.advanceTimersByTime(149);
		expect(work).not.toHaveBeenCalled();
		vi.advanceTimersByTime(1);
		expect(work).toHaveBeenCalledTimes(1);
		expect(input.listenerCount("readable")).toBe(0);
		input.emit("readable");
		vi.advanceTimersByTime(1000);
		expect(work).toHaveBeenCalledTimes(1);
	});

	it("runs after the rest when no key comes, and by maxWaitMs however fast the keys come", () => {
		const quiet = vi.fn();
		whenInputRests(keys(), quiet, { restMs: 150, maxWaitMs: 2000, now: Date.now });
		vi.advanceTimersByTime(150);
		expect(quiet).toHaveBeenCalledTimes(1);

		const input = keys();
		const busy = vi.fn();
		whenInputRests(input, busy, { restMs: 150, maxWaitMs: 2000, now: Date.now });
		for (let t = 50; t < 2000; t += 50) {
			vi.advanceTimersByTime(50);
			input.emit("readable");
		}
		expect(busy).not.toHaveBeenCalled();
		vi.advanceTimersByTime(50);
		expect(busy).toHaveBeenCalledTimes(1);
	});

	it("runs nothing once cancelled (the app quit first)", () => {
		const input = keys();
		const work = vi.fn();
		const cancel = whenInputRests(input, work, { restMs: 150 });
		cancel();
		vi.advanceTimersByTime(5000);
		expect(work).not.toHaveBeenCalled();
		expect(input.listenerCount("readable")).toBe(0);
	});
});

describe("whenInputRests on a real stream", () => {
	it("only listens: the app's reader still gets every key", async () => {
		const stdin = new PassThrough();
		const read: string[] = [];
		// Ink reads its stdin this way ('readable', then read() until null).
		stdin.on("readable", () => {
			for (let chunk: Buffer | null = stdin.read(); chunk !== null; chunk = stdin.read()) read.push(chunk.toString());
		});
		const work = vi.fn();
		whenInputRests(stdin, work, { restMs: 30 });
		for (const key of ["a", "b", "\r"]) {
			stdin.write(key);
			await new Promise((r) => setTimeout(r, 5));
		}
		expect(read.join("")).toBe("ab\r");
		expect(work).not.toHaveBeenCalled();
		await new Promise((r) => setTimeout(r, 60));
		expect(work).toHaveBeenCalledTimes(1);
		stdin.write("c");
		await new Promise((r) => setTimeout(r, 5));
		expect(read.join("")).toBe("ab\rc");
	});
});
