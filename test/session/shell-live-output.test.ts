// A running `!cmd`'s output shown live: the end of it, secrets redacted, at most one update per
// SHELL_OUTPUT_MS; and the real thing, a command that prints, waits on a fifo, prints: its first line
// reaches the session's listeners before the command ends.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { processSecrets, REDACTED } from "../../src/safety/secrets.js";
import { SHELL_OUTPUT_MS, SHELL_TAIL_CHARS, ShellLiveOutput } from "../../src/session/shell-live-output.js";
import type { SessionEvent } from "../../src/session/types.js";
import { UserShells } from "../../src/session/user-shells.js";

let dirs: string[] = [];
afterEach(() => {
	vi.useRealTimers();
	for (const d of dirs) rmSync(d, { recursive: true, force: true });
	dirs = [];
});

describe("ShellLiveOutput", () => {
	it("sends the first output at once, then at most one update per interval carrying the latest", () => {
		vi.useFakeTimers();
		const sent: string[] = [];
		let now = 1000;
		const live = new ShellLiveOutput(
			(tail) => sent.push(tail),
			() => now,
		);
		live.add("one\n");
		expect(sent).toEqual(["one\n"]);
		now += 10;
		live.add("two\n");
		live.add("three\n");
		expect(sent).toHaveLength(1);
		now += SHELL_OUTPUT_MS;
		vi.advanceTimersByTime(SHELL_OUTPUT_MS);
		expect(sent).toEqual(["one\n", "one\ntwo\nthree\n"]);
		// Stopped: a pending update is dropped (the final block replaces the live lines).
		now += 1;
		live.add("four\n");
		live.stop();
		vi.advanceTimersByTime(SHELL_OUTPUT_MS * 2);
		expect(sent).toHaveLength(2);
	});

	it("keeps only the end, cut at a line start, and redacts secrets", () => {
		const secret = "sk-live-secret-123456789";
		processSecrets.add(secret);
		const sent: string[] = [];
		const live = new ShellLiveOutput((tail) => sent.push(tail));
		live.add(`${"x".repeat(SHELL_TAIL_CHARS)}\nkey ${secret}\n`);
		expect(sent[0]).toBe(`key ${REDACTED}\n`);
	});
});

describe("!cmd output while it runs", () => {
	it("reaches the listeners before the command ends (a fifo holds it between its two lines)", { timeout: 30_000 }, async () => {
		const dir = mkdtempSync(join(tmpdir(), "rudder-shell-live-"));
		dirs.push(dir);
		const fifo = join(dir, "gate");
		execFileSync("mkfifo", [fifo]);
		const events: SessionEvent[] = [];
		let sawFirst: () => void = () => {};
		const firstShown = new Promise<void>((resolve) => {
			sawFirst = resolve;
		});
		const shells = new UserShells({
			cwd: dir,
			emit: (event) => {
				events.push(event);
				if (event.type === "user_shell_output" && event.tail.includes("first line")) sawFirst();
			},
			busy: () => false,
			append: () => {},
			untrackedChangesMayStart: () => Promise.resolve(),
		});
		const running = shells.run(`echo first line; read go < ${fifo}; echo second line`, true);
		await firstShown;
		// Still running: no end event yet, and the second line not printed.
		expect(events.some((e) => e.type === "user_shell")).toBe(false);
		// Opening the fifo for writing releases the command (a writer of our own, not the test's thread).
		const writer = spawn("sh", ["-c", `echo go > ${fifo}`], { stdio: "ignore" });
		const writerDone = new Promise((r) => writer.once("close", r));
		const result = await running;
		await writerDone;
		expect(result.output).toBe("first line\nsecond line");
		const end = events.at(-1);
		expect(end).toMatchObject({ type: "user_shell", output: "first line\nsecond line" });
	});
});
