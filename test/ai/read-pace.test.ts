import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { post } from "../../src/ai/providers/http-post.js";
import { gridPace, paceReadsBy, type ReadPace, readPace } from "../../src/ai/read-pace.js";
import { createFrameClock } from "../../src/tui/frame/frame-clock.js";
import { manualTimers } from "../helpers/manual-timers.js";

describe("gridPace: the reads' own boundaries", () => {
	it("keeps a grid: a call within an interval gets its end, not a full interval from the call", () => {
		const time = manualTimers();
		const pace = gridPace({ frameMs: 50, ...time });
		const fired: number[] = [];
		pace.nextFrame(() => fired.push(time.now()));
		time.advance(50);
		// The read at the boundary took 3 ms; data came 20 ms later: both resume on the grid.
		time.advance(3);
		pace.nextFrame(() => fired.push(time.now()));
		time.advance(60);
		time.advance(20);
		pace.nextFrame(() => fired.push(time.now()));
		time.advance(50);
		expect(fired).toEqual([1050, 1100, 1150]);
	});

	it("starts a new grid after a quiet interval, and a cancelled boundary never runs", () => {
		const time = manualTimers();
		const pace = gridPace({ frameMs: 50, ...time });
		const fired: number[] = [];
		pace.nextFrame(() => fired.push(time.now()));
		time.advance(200);
		const cancel = pace.nextFrame(() => fired.push(-1));
		cancel();
		time.advance(7);
		pace.nextFrame(() => fired.push(time.now()));
		time.advance(100);
		// 1200 started an interval (quiet since 1050); 1207 is inside it and gets its end.
		expect(fired).toEqual([1050, 1250]);
	});
});

describe("gridPace against the frame clock", () => {
	it("gives a lone reader the boundaries the frame clock gave it (print, json and rpc read as before)", () => {
		// Reads of random lengths after random waits for data, the loop held up now and then.
		let seed = 7;
		const random = () => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return seed / 2 ** 31;
		};
		const steps = Array.from({ length: 300 }, () => ({ wait: Math.floor(random() * 90), stall: random() < 0.05 ? 70 : 0 }));
		const run = (make: (time: ReturnType<typeof manualTimers>) => ReadPace) => {
			const time = manualTimers();
			const pace = make(time);
			const fired: number[] = [];
			for (const { wait, stall } of steps) {
				time.advance(wait);
				pace.nextFrame(() => fired.push(time.now()));
				time.stall(stall);
				// To the boundary, so the next read (after its wait for data) may fall inside the interval.
				const count = fired.length;
				while (fired.length === count) time.advance(1);
			}
			return fired;
		};
		const grid = run((time) => gridPace({ frameMs: 50, ...time }));
		expect(grid).toHaveLength(steps.length);
		expect(grid).toEqual(run((time) => createFrameClock({ frameMs: 50, ...time })));
	});
});

describe("the read pace a request follows", () => {
	let restore: (() => void) | undefined;
	afterEach(() => {
		restore?.();
		restore = undefined;
	});

	it("is the one put in place when the request starts, and the one before it once restored", async () => {
		const before = readPace();
		let asked = 0;
		const counting: ReadPace = {
			nextFrame(fn) {
				asked++;
				const timer = setTimeout(fn, 1);
				return () => clearTimeout(timer);
			},
		};
		const server = createServer((_request, response) => {
			response.writeHead(200);
			let n = 0;
			const write = () => {
				if (n++ === 20) return response.end();
				response.write(`chunk ${n}\n`);
				setTimeout(write, 2);
			};
			write();
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		try {
			restore = paceReadsBy(counting);
			expect(readPace()).toBe(counting);
			const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
			const response = await post(url, {}, "{}", new AbortController().signal);
			let text = "";
			for await (const chunk of response.body) text += chunk;
			expect(text.split("\n").filter(Boolean)).toHaveLength(20);
			expect(asked).toBeGreaterThan(0);
			restore();
			restore = undefined;
			expect(readPace()).toBe(before);
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});
});
