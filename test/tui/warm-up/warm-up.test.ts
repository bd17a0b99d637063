// The warm-ups run where they should (a rest in typing) and change nothing any later render shows.
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadHighlighter } from "../../../src/tui/markdown/highlight.js";
import { renderMarkdown } from "../../../src/tui/markdown/render-markdown.js";
import { INPUT_PAUSE_MS, prepareForReply, warmReplyRendering, whenInputPauses } from "../../../src/tui/warm-up/warm-up.js";

afterEach(() => vi.useRealTimers());

describe("whenInputPauses", () => {
	it("runs once the keyboard has rested for the pause, each key pushing it back", () => {
		vi.useFakeTimers();
		let lastKey = Date.now();
		const warm = vi.fn();
		whenInputPauses(() => lastKey, warm);
		vi.advanceTimersByTime(INPUT_PAUSE_MS - 50);
		lastKey = Date.now(); // a key
		vi.advanceTimersByTime(INPUT_PAUSE_MS - 1);
		expect(warm).not.toHaveBeenCalled();
		vi.advanceTimersByTime(1);
		expect(warm).toHaveBeenCalledTimes(1);
		vi.advanceTimersByTime(INPUT_PAUSE_MS * 5);
		expect(warm).toHaveBeenCalledTimes(1);
	});

	it("runs at once when the keyboard is already at rest", () => {
		const warm = vi.fn();
		whenInputPauses(() => Date.now() - INPUT_PAUSE_MS, warm);
		expect(warm).toHaveBeenCalledTimes(1);
	});
});

describe("warmReplyRendering", () => {
	it("leaves every later render as it would have been", async () => {
		await loadHighlighter();
		const source = "A **b** `c` [d](https://e.f)\n\n- g\n\n```ts\nconst h = 1;\n```\n\n```py\ni = 2\n```\n";
		const before = renderMarkdown(source, 30);
		warmReplyRendering();
		expect(renderMarkdown(source, 30)).toEqual(before);
		expect(JSON.stringify(before)).toContain("color");
	});
});

describe("prepareForReply", () => {
	const steps = (idle = () => true) => {
		const order: string[] = [];
		let lastKey = Date.now();
		let finishTransport = () => {};
		return {
			order,
			key: () => {
				lastKey = Date.now();
			},
			finishTransport: () => finishTransport(),
			preparation: {
				lastInputAt: () => lastKey,
				loadRendering: async () => void order.push("load"),
				warmRendering: () => void order.push("render"),
				warmTransport: () =>
					new Promise<void>((resolve) => {
						finishTransport = () => {
							order.push("transport");
							resolve();
						};
					}),
				idle,
				collect: () => void order.push("collect"),
			},
		};
	};

	it("collects once, after both warm-ups, at a pause in typing", async () => {
		vi.useFakeTimers();
		const s = steps();
		const done = prepareForReply(s.preparation);
		await vi.advanceTimersByTimeAsync(INPUT_PAUSE_MS);
		expect(s.order).toEqual(["load", "render"]);
		s.finishTransport();
		s.key();
		await vi.advanceTimersByTimeAsync(INPUT_PAUSE_MS - 1);
		expect(s.order).toEqual(["load", "render", "transport"]);
		await vi.advanceTimersByTimeAsync(1);
		await done;
		expect(s.order).toEqual(["load", "render", "transport", "collect"]);
	});

	it("does not collect while a reply runs (an initial prompt)", async () => {
		vi.useFakeTimers();
		const s = steps(() => false);
		const done = prepareForReply(s.preparation);
		s.finishTransport();
		await vi.advanceTimersByTimeAsync(INPUT_PAUSE_MS * 3);
		await done;
		expect(s.order).not.toContain("collect");
	});

	it("still collects when the transport's warm-up fails", async () => {
		vi.useFakeTimers();
		const s = steps();
		const done = prepareForReply({ ...s.preparation, warmTransport: () => Promise.reject(new Error("no provider")) });
		await vi.advanceTimersByTimeAsync(INPUT_PAUSE_MS * 3);
		await done;
		expect(s.order).toEqual(["load", "render", "collect"]);
	});
});
