// Runs in the "patched-ink" project only (vitest.config.ts). With maxFps 0 (the app's setting) Ink
// draws every commit at once and sets no timer: each of its throttles' timers was a wake-up of the
// process per frame while a reply streamed.
import { EventEmitter } from "node:events";
import { render, Text } from "ink";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// Ink writes live frames only outside CI (is-in-ci, read when Ink loads); .ci/run sets CI=true.
vi.hoisted(() => {
	process.env.CI = "false";
});

class Terminal extends EventEmitter {
	isTTY = true;
	columns = 40;
	rows = 10;
	writes: string[] = [];
	write(data: string | Uint8Array): boolean {
		this.writes.push(typeof data === "string" ? data : Buffer.from(data).toString());
		return true;
	}
}

function mount(maxFps: number) {
	const stdout = new Terminal();
	const app = render(<Text>frame 0</Text>, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stderr: new Terminal() as unknown as NodeJS.WriteStream,
		patchConsole: false,
		exitOnCtrlC: false,
		maxFps,
	});
	return { stdout, app };
}

describe("Ink's render throttle, patched", () => {
	beforeEach(() => {
		vi.useFakeTimers({ toFake: ["setTimeout", "setInterval", "setImmediate", "Date"] });
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it("with maxFps 0 writes every frame in the commit's own turn, leaving no timer behind", () => {
		const { stdout, app } = mount(0);
		for (let i = 1; i <= 3; i++) app.rerender(<Text>frame {i}</Text>);
		const shown = stdout.writes.join("");
		for (let i = 0; i <= 3; i++) expect(shown).toContain(`frame ${i}`);
		expect(vi.getTimerCount()).toBe(0);
		app.unmount();
	});

	it("keeps Ink's throttle for any other maxFps (frames inside its window wait for a timer)", () => {
		const { stdout, app } = mount(30);
		for (let i = 1; i <= 3; i++) app.rerender(<Text>frame {i}</Text>);
		expect(stdout.writes.join("")).not.toContain("frame 3");
		expect(vi.getTimerCount()).toBeGreaterThan(0);
		vi.advanceTimersByTime(100);
		expect(stdout.writes.join("")).toContain("frame 3");
		app.unmount();
	});
});
