// Transient status and what Esc closes first: the Ctrl+C quit hint is a status line for the 2 s it
// holds, never a history line; Esc while a reply streams closes the open picker before it stops the run.
import { describe, expect, it, vi } from "vitest";
import { QUIT_WINDOW_MS } from "../../../src/tui/keys/key-map.js";
import { mountApp } from "./mount-app.js";

const CTRL_C = "\x03";
const ESC = "\x1b";

describe("App status line", () => {
	it("Ctrl+C on an empty idle input says 'again to quit' for 2 s as a status line, then it is gone (not in the history)", async () => {
		const { frame, type, onExit } = await mountApp();
		const shownAt = Date.now();
		await type(CTRL_C);
		expect(frame()).toContain("Press Ctrl+C again to quit");
		// The frame holds the printed history too (ink-testing-library draws <Static> output into it):
		// a history line would stay; the status line goes once the window has passed.
		await vi.waitFor(() => expect(frame()).not.toContain("again to quit"), { timeout: QUIT_WINDOW_MS + 3000, interval: 50 });
		expect(Date.now() - shownAt).toBeGreaterThanOrEqual(QUIT_WINDOW_MS - 50);
		expect(onExit).not.toHaveBeenCalled();
		// The window is over: the next Ctrl+C arms again rather than quitting.
		await type(CTRL_C);
		expect(onExit).not.toHaveBeenCalled();
		expect(frame()).toContain("Press Ctrl+C again to quit");
		await type(CTRL_C);
		expect(onExit).toHaveBeenCalledWith(0);
	});

	it("Esc while a reply streams closes the open picker first; only the next Esc stops the run", async () => {
		const { session, frame, type } = await mountApp();
		await type("go");
		await type("\r");
		expect(session.getState().isStreaming).toBe(true);
		await type("/model");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Pick a model"));
		await type(ESC);
		await vi.waitFor(() => expect(frame()).not.toContain("Pick a model"));
		expect(session.calls.some((c) => c.method === "abort")).toBe(false);
		expect(session.getState().isStreaming).toBe(true);
		await type(ESC);
		expect(session.calls.some((c) => c.method === "abort")).toBe(true);
	});
});
