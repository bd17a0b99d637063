// afterFirstReply: once, only after a run, only when idle long enough; and over a real session, without
// taking the notices the session keeps for the UI.
import { EventEmitter } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fauxAssistantMessage, fauxText } from "../../src/ai/index.js";
import { afterFirstReply, FIRST_REPLY_IDLE_MS } from "../../src/cli/first-reply.js";
import { createAgentSession } from "../../src/session/assemble.js";
import type { RunPhase, SessionEvent } from "../../src/session/types.js";
import { createFixture, type Fixture } from "../session/session-fixture.js";

function fakeSession() {
	const listeners = new Set<(phase: RunPhase) => void>();
	return {
		watchPhases(listener: (phase: RunPhase) => void) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		phase(phase: RunPhase) {
			for (const l of [...listeners]) l(phase);
		},
		listeners,
	};
}

/** A fake session watched by afterFirstReply, its first run just ended. */
function afterOneRun() {
	const session = fakeSession();
	const callback = vi.fn();
	const stop = afterFirstReply(session, callback);
	session.phase({ kind: "running" });
	session.phase({ kind: "idle" });
	return { session, callback, stop };
}

describe("afterFirstReply", () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it("calls back once, when the session has been idle for a while after its first run, and unsubscribes", () => {
		const { session, callback } = afterOneRun();
		vi.advanceTimersByTime(FIRST_REPLY_IDLE_MS - 1);
		expect(callback).not.toHaveBeenCalled();
		vi.advanceTimersByTime(1);
		expect(callback).toHaveBeenCalledTimes(1);
		expect(session.listeners.size).toBe(0);
		session.phase({ kind: "running" });
		session.phase({ kind: "idle" });
		vi.advanceTimersByTime(FIRST_REPLY_IDLE_MS * 2);
		expect(callback).toHaveBeenCalledTimes(1);
	});

	it("waits for a run: an idle phase before any prompt is not a reply", () => {
		const session = fakeSession();
		const callback = vi.fn();
		afterFirstReply(session, callback);
		session.phase({ kind: "idle" });
		vi.advanceTimersByTime(FIRST_REPLY_IDLE_MS * 3);
		expect(callback).not.toHaveBeenCalled();
	});

	it("a run that starts during the wait postpones it to the next idle", () => {
		const { session, callback } = afterOneRun();
		vi.advanceTimersByTime(FIRST_REPLY_IDLE_MS / 2);
		session.phase({ kind: "running" });
		vi.advanceTimersByTime(FIRST_REPLY_IDLE_MS * 3);
		expect(callback).not.toHaveBeenCalled();
		session.phase({ kind: "idle" });
		vi.advanceTimersByTime(FIRST_REPLY_IDLE_MS);
		expect(callback).toHaveBeenCalledTimes(1);
	});

	it("fires before a next prompt sent 1.4 s after the reply: a quick conversation still writes the reply stage", () => {
		const session = fakeSession();
		const callback = vi.fn();
		afterFirstReply(session, callback, { input: new EventEmitter() });
		session.phase({ kind: "running" });
		session.phase({ kind: "idle" });
		vi.advanceTimersByTime(1400);
		expect(callback).toHaveBeenCalledTimes(1);
		session.phase({ kind: "running" });
	});

	it("with the terminal's input, waits until the keys rest, however long the typing goes on; a run cancels the wait", () => {
		const session = fakeSession();
		const input = new EventEmitter();
		const callback = vi.fn();
		afterFirstReply(session, callback, { input });
		session.phase({ kind: "running" });
		session.phase({ kind: "idle" });
		vi.advanceTimersByTime(FIRST_REPLY_IDLE_MS);
		// A key every 100 ms for 5 s: never a rest.
		for (let i = 0; i < 50; i++) {
			input.emit("readable");
			vi.advanceTimersByTime(100);
		}
		expect(callback).not.toHaveBeenCalled();
		// Enter sends the prompt: its run cancels the wait, the next idle starts it again.
		session.phase({ kind: "running" });
		vi.advanceTimersByTime(FIRST_REPLY_IDLE_MS * 4);
		expect(callback).not.toHaveBeenCalled();
		expect(input.listenerCount("readable")).toBe(0);
		session.phase({ kind: "idle" });
		vi.advanceTimersByTime(FIRST_REPLY_IDLE_MS * 2);
		expect(callback).toHaveBeenCalledTimes(1);
		expect(input.listenerCount("readable")).toBe(0);
	});

	it("never calls back once stopped (the session ended first)", () => {
		const { session, callback, stop } = afterOneRun();
		stop();
		vi.advanceTimersByTime(FIRST_REPLY_IDLE_MS * 2);
		expect(callback).not.toHaveBeenCalled();
		expect(session.listeners.size).toBe(0);
	});
});

describe("afterFirstReply over a real session", () => {
	let fx: Fixture | undefined;
	let disposeLater: { dispose(): Promise<void> } | undefined;
	afterEach(async () => {
		await disposeLater?.dispose();
		await fx?.cleanup();
		fx = undefined;
	});

	it("leaves the notices from before the first subscriber to that subscriber, and fires after a real reply", async () => {
		fx = await createFixture();
		// A session nobody subscribed to yet, as main.ts holds it before the mode runs.
		const session = await createAgentSession({
			cwd: fx.cwd,
			env: fx.env,
			model: fx.faux.getModel(),
			tools: [],
			sessionMode: { kind: "none" },
		});
		disposeLater = session;
		session.notify("warning", "kept for the app");
		let fired = 0;
		afterFirstReply(session, () => fired++, { idleMs: 50 });
		// The app subscribes after the watcher was installed (main.ts installs it before the mode runs).
		const seen: SessionEvent[] = [];
		session.subscribe((event) => seen.push(event));
		await new Promise((r) => setTimeout(r, 0));
		expect(seen).toContainEqual(expect.objectContaining({ type: "notice", text: "kept for the app" }));
		fx.faux.setResponses([fauxAssistantMessage([fauxText("done")])]);
		await session.prompt("hi");
		await session.waitForIdle();
		for (let i = 0; i < 40 && fired === 0; i++) await new Promise((r) => setTimeout(r, 25));
		expect(fired).toBe(1);
	});
});
