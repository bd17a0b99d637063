// Runs in the "patched-ink" project only (vitest.config.ts). The live frame writer
// (src/tui/ink/live-frame.ts) draws frames in which only the streaming tail moved without React;
// here two Apps stream the same random markdown-ish replies (wide characters, emoji, code fences,
// lists, thinking, very long words, tools starting and ending, resizes mid-stream) on two terminals,
// one with the writer and one where React draws every frame, and every frame must reach the terminal
// as the same bytes.
import { EventEmitter } from "node:events";
import fc from "fast-check";
import { render } from "ink";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../../../../src/tui/app/App.js";
import { FRAME_MS } from "../../../../src/tui/app/use-session.js";
import { forgetInk, type InkInstance, inkFor } from "../../../../src/tui/ink/ink-instances.js";
import { openInputHistory } from "../../../../src/tui/input/input-history.js";
import { FakeSession } from "../../app/fake-session.js";

// Ink writes live frames only outside CI (is-in-ci, read when Ink loads). Colours on (chalk reads
// FORCE_COLOR when it loads), as in a terminal: the rows the writer builds are styled, as users see them.
vi.hoisted(() => {
	process.env.CI = "false";
	process.env.FORCE_COLOR = "3";
});
// The writer draws a frame when the tick comes; React renders it a moment later (its scheduler). The
// spinner is the one thing on screen that depends on that moment, so it stands still here: frames are
// compared for what they show, not for the millisecond they were taken. (statusRows turns it alike
// for both: test/tui/status/LiveStatus.test.ts.)
vi.mock("../../../../src/tui/transcript/PendingTools.js", async (original) => ({
	...(await original<typeof import("../../../../src/tui/transcript/PendingTools.js")>()),
	spinnerFrame: () => "⠿",
}));

/**
 * A running tool's spinner turns with the App's busy tick, inside PendingTools (the mock above reaches
 * only LiveStatus): a tail frame the writer draws at the tick and the busy tick's render a millisecond
 * later are two frames, where React drawing both in one render writes one. Frames are compared for what
 * they show, so every spinner glyph stands still here too.
 */
const stillSpinners = (frame: string): string => frame.replace(/[\u2800-\u28ff]/g, "⠿");

class Terminal extends EventEmitter {
	isTTY = true;
	written = "";
	/** Writes, in order (debug mode: each is a whole frame). */
	writes: string[] = [];
	constructor(
		public columns: number,
		public rows: number,
	) {
		super();
	}
	write(data: string | Uint8Array): boolean {
		const text = typeof data === "string" ? data : Buffer.from(data).toString();
		this.written += text;
		this.writes.push(text);
		return true;
	}
	/**
	 * Debug-mode frames written since the last call, a frame written again right after itself counted
	 * once: React prints new <Static> output in two commits (the batch, then <Static> emptied), and
	 * debug mode writes the whole screen for each; the writer prints it in one frame.
	 */
	takeFrames(): string[] {
		const frames: string[] = [];
		for (const frame of this.writes.map(stillSpinners)) {
			if (frame !== this.previous) frames.push(frame);
			this.previous = frame;
		}
		this.writes = [];
		this.written = "";
		return frames;
	}
	private previous: string | undefined;
	/** What was written since the last call. */
	take(): string {
		const out = this.written;
		this.written = "";
		return out;
	}
}

class Keyboard extends EventEmitter {
	isTTY = true;
	setRawMode() {}
	setEncoding() {}
	ref() {}
	unref() {}
	read() {
		return null;
	}
}

const settle = async () => {
	for (let i = 0; i < 4; i++) await new Promise((r) => setImmediate(r));
};

/** The App on a fake terminal; `debug` is Ink's mode that writes every frame it renders, unthrottled. */
function mount(columns: number, rows: number, debug: boolean) {
	const stdout = new Terminal(columns, rows);
	const session = new FakeSession();
	const app = render(<App session={session} onExit={() => {}} history={openInputHistory(null)} />, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stderr: new Terminal(columns, rows) as unknown as NodeJS.WriteStream,
		stdin: new Keyboard() as unknown as NodeJS.ReadStream,
		debug,
		patchConsole: false,
		exitOnCtrlC: false,
		maxFps: 0,
	});
	return { stdout, session, app, ink: inkFor(stdout) as InkInstance };
}

const pieces = [
	"the",
	" parser",
	" reads",
	" every",
	" token",
	",",
	".",
	" **bold**",
	" `code`",
	" *em*",
	" [a link](https://example.com/x)",
	" 漢字の",
	" 😀",
	" 👍🏽",
	" café",
	" →",
	"\n",
	"\n\n",
	"\n- ",
	"\n1. ",
	"\n> ",
	"\n# ",
	"\n```ts\n",
	"\n```\n",
	"\n```\n\n",
	"const x = 1;",
	' "a string"',
	" // comment",
	"\t",
	"\n| a | b |\n|---|:-:|\n| 漢字 | `x` |\n",
	"\n| 😀 wide | **b** |\n| - | - |\n| long cell text here | y |\n\n",
	"\n  - nested\n",
	"\n\n~~~\nfenced ~~~ tilde\n~~~\n\n",
];
const token = fc.oneof(
	{ weight: 12, arbitrary: fc.constantFrom(...pieces) },
	{ weight: 1, arbitrary: fc.integer({ min: 60, max: 300 }).map((n) => ` ${"x".repeat(n)}`) },
	{ weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
type Step =
	| { kind: "tokens"; tokens: string[]; ms: number }
	| { kind: "resize"; columns: number; rows: number }
	| { kind: "thinking"; text: string }
	| { kind: "tool"; start: boolean };
const step: fc.Arbitrary<Step> = fc.oneof(
	{
		weight: 20,
		arbitrary: fc.record({
			kind: fc.constant("tokens" as const),
			tokens: fc.array(token, { maxLength: 14 }),
			ms: fc.integer({ min: 1, max: 120 }),
		}),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant("resize" as const),
			columns: fc.integer({ min: 12, max: 120 }),
			rows: fc.integer({ min: 8, max: 40 }),
		}),
	},
	{
		weight: 1,
		arbitrary: fc.record({ kind: fc.constant("thinking" as const), text: fc.array(token, { maxLength: 30 }).map((t) => t.join("")) }),
	},
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant("tool" as const), start: fc.boolean() }) },
);

let mounted: { unmount(): void }[] = [];
afterEach(() => {
	for (const app of mounted) app.unmount();
	mounted = [];
	vi.useRealTimers();
});

type Mounted = ReturnType<typeof mount>;

/**
 * Streams `steps` into two Apps on like terminals, one with the writer, one where React draws every
 * frame (the same patched Ink, its instance taken out of the writer's registry). `check` compares them
 * after every step. Counts the frames Ink rendered itself in each.
 */
async function stream(columns: number, rows: number, steps: Step[], debug: boolean, check: (fast: Mounted, react: Mounted) => void) {
	vi.useFakeTimers({ now: 1_000_000, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date", "performance"] });
	const react = mount(columns, rows, debug);
	const fast = mount(columns, rows, debug);
	mounted.push(fast.app, react.app);
	forgetInk(react.stdout);
	// Time moves for both alike, a millisecond at a time, with what React and Ink scheduled for that
	// millisecond done before the clock moves on.
	const advance = async (ms: number) => {
		for (let i = 0; i < ms; i++) {
			vi.advanceTimersByTime(1);
			await settle();
		}
		check(fast, react);
	};
	const both = async (act: (t: Mounted) => void) => {
		act(fast);
		act(react);
		await settle();
		await advance(5);
	};
	await settle();
	await advance(10);
	await both((t) => void t.session.prompt("go"));
	let tools = 0;
	for (const s of steps) {
		if (s.kind === "tokens") {
			await both((t) => {
				for (const text of s.tokens) t.session.text(text);
			});
			await advance(s.ms);
		} else if (s.kind === "resize") {
			await both((t) => {
				t.stdout.columns = s.columns;
				t.stdout.rows = s.rows;
				t.stdout.emit("resize");
			});
		} else if (s.kind === "thinking") {
			await both((t) => t.session.thinking(s.text));
		} else if (s.start) {
			tools++;
			await both((t) => t.session.startTool(`t${tools}`, "bash", { command: "ls" }));
		} else if (tools > 0) {
			await both((t) => t.session.endTool(`t${tools}`, "bash", "done"));
			tools--;
		}
		await advance(FRAME_MS);
	}
	await both((t) => t.session.finish());
	await advance(1000);
	const renders = {
		fast: fast.ink.rudderRenders ?? 0,
		spliced: fast.ink.rudderSpliced ?? 0,
		react: react.ink.rudderRenders ?? 0,
		history: fast.ink.rudderSplicedHistory ?? 0,
	};
	fast.app.unmount();
	react.app.unmount();
	mounted = [];
	vi.useRealTimers();
	return renders;
}

/** Everything Ink printed above its live frames (Ink's own record, replayed on a full clear). */
const staticOf = (ink: InkInstance): string => (ink as unknown as { fullStaticOutput: string }).fullStaticOutput;

const terminal = {
	columns: fc.integer({ min: 12, max: 120 }),
	rows: fc.integer({ min: 8, max: 40 }),
	steps: fc.array(step, { minLength: 5, maxLength: 40 }),
};
// LIVE_SEED and LIVE_PATH replay a failure fast-check reported.
const replay = process.env.LIVE_SEED ? { seed: Number(process.env.LIVE_SEED), path: process.env.LIVE_PATH, endOnFailure: true } : {};

describe("the live frame writer", () => {
	it("gives Ink the same frame as React would, frame by frame, for random streamed replies (every frame written)", async () => {
		const renders = { fast: 0, spliced: 0, react: 0, history: 0 };
		await fc.assert(
			fc.asyncProperty(terminal.columns, terminal.rows, terminal.steps, async (columns, rows, steps) => {
				const r = await stream(columns, rows, steps, true, (fast, react) =>
					expect(fast.stdout.takeFrames()).toEqual(react.stdout.takeFrames()),
				);
				renders.fast += r.fast;
				renders.spliced += r.spliced;
				renders.react += r.react;
				renders.history += r.history;
			}),
			{ numRuns: 20, ...replay },
		);
		// The writer really drew: frames React rendered were the writer's on the other App, not Ink's own.
		expect(renders.spliced).toBeGreaterThan(50);
		// Blocks that closed while the reply streamed were printed by the writer, not by React's <Static>.
		expect(renders.history).toBeGreaterThan(20);
		expect(renders.fast).toBeLessThanOrEqual(renders.react - renders.spliced / 2);
	}, 180_000);

	it("draws the frames in which the text closes a block and leaves nothing open (the tail keeps a blank row), not React", async () => {
		// A paragraph over two frames: one ends inside it, the next ends it, leaving no open text.
		const paragraphs = 30;
		const steps: Step[] = Array.from({ length: paragraphs }, (_, i) => [
			{ kind: "tokens" as const, tokens: [`paragraph ${i}`, " with a few"], ms: FRAME_MS },
			{ kind: "tokens" as const, tokens: [" words in it.", "\n\n"], ms: FRAME_MS },
		]).flat();
		const r = await stream(60, 20, steps, true, (fast, react) => expect(fast.stdout.takeFrames()).toEqual(react.stdout.takeFrames()));
		// The writer drew every paragraph's frame and printed each closed paragraph.
		expect(r.history).toBeGreaterThanOrEqual(paragraphs - 1);
		// Ink rendered its tree only for the prompt, the reply's start and its end: not once per paragraph.
		expect(r.fast).toBeLessThan(10);
	}, 60_000);

	it("leaves the same frame on screen as React once Ink's throttle has let every render out (as the app runs)", async () => {
		let compared = 0;
		await fc.assert(
			fc.asyncProperty(terminal.columns, terminal.rows, terminal.steps, async (columns, rows, steps) => {
				await stream(columns, rows, steps, false, (fast, react) => {
					fast.stdout.take();
					react.stdout.take();
					if (fast.ink.hasPendingThrottledRender || react.ink.hasPendingThrottledRender) return;
					compared++;
					expect(stillSpinners(fast.ink.lastOutput)).toBe(stillSpinners(react.ink.lastOutput));
					// And the same history above it, printed by the writer or by <Static>.
					expect(staticOf(fast.ink)).toBe(staticOf(react.ink));
				});
			}),
			{ numRuns: 15, ...replay },
		);
		expect(compared).toBeGreaterThan(100);
	}, 180_000);
});
