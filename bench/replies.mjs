// Streaming replies in a real terminal: one fresh process per call, a first reply (cold) and then a
// second one in the same process (warm), each measured on its own: CPU of the app's process tree, frames
// drawn, bytes to the tty, full clears. Any app of bench/lib/apps.mjs or reference-apps.mjs, against the
// bench mock of its own API.
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuMeter } from "./lib/cpu-meter.mjs";
import { countFrames, logHeaderLength, parseTiming } from "./lib/frames.mjs";
import { startMock } from "./lib/mock-server.mjs";
import { descendants, fileSize, sleep, startPane, treeCpuSeconds, treeRssMiB, waitForScreen } from "./lib/terminal.mjs";

const FULL_CLEAR = /\x1b\[2J|\x1b\[3J/g;
const PROMPTS = ["stream please", "and once more"];

/**
 * Presses Enter and returns the CPU, log size and time just before the press the app took. Gemini CLI
 * ignores Enter for a few seconds after a fast reply: when no request reaches the mock within
 * ENTER_RETRY_MS, Enter again, and the window starts at that press instead.
 */
const ENTER_RETRY_MS = 3000;
async function submit(pane, mock, cpu, log) {
	for (let attempt = 1; ; attempt++) {
		const before = mock.requests.length;
		const mark = { cpu0: cpu.seconds(), bytes0: fileSize(log), t0: performance.now() };
		pane.keys("Enter");
		while (mock.requests.length === before && performance.now() - mark.t0 < ENTER_RETRY_MS) await sleep(5);
		if (mock.requests.length > before || attempt >= 5) return mark;
	}
}

/** Waits until `path` has not grown for `quietMs` (at least `minMs`, at most `maxMs`). */
async function settle(path, { quietMs = 400, minMs = 300, maxMs = 10_000 } = {}) {
	const t0 = performance.now();
	let size = fileSize(path);
	let since = t0;
	for (;;) {
		await sleep(25);
		const now = performance.now();
		const next = fileSize(path);
		if (next !== size) {
			size = next;
			since = now;
		}
		if (now - t0 >= maxMs || (now - t0 >= minMs && now - since >= quietMs)) return;
	}
}

/**
 * Two replies of `tokens` at `rate` tok/s in one process of `makeApp`. Each prompt is typed, and Enter
 * pressed a second later, as a person would: what an app loads while the user types is not reply cost.
 * Returns {cold, warm}, each {cpuS, frames, frameMethod, cpuPerFrameMs, cpuPerTokenUs, bytesPerToken, …}.
 */
export async function replyPair(makeApp, { tokens, rate }) {
	const progress = [];
	const waiters = [];
	let cpu;
	const mock = await startMock({
		plan: () => ({ tokens, rate }),
		onProgress: (index, sent, total) => {
			progress[index] = [...(progress[index] ?? []), cpu.seconds()];
			if (sent >= total) waiters[index]?.resolve();
		},
		onClose: (index) => waiters[index]?.reject(new Error(`the app closed reply ${index + 1} mid-stream`)),
	});
	const app = makeApp(mock.url);
	const base = join(tmpdir(), `bench-${app.name}-${process.pid}-${Date.now()}`);
	const log = `${base}.log`;
	const timing = `${base}.timing`;
	const pane = startPane({ command: app.command, env: app.env, cwd: app.cwd, logFile: log, timingFile: timing });
	try {
		await waitForScreen(pane, app.ready, { timeoutMs: 60_000, everyMs: 10 });
		const root = pane.rootPid();
		cpu = cpuMeter(() => descendants(root), treeCpuSeconds);
		await sleep(1000);
		const out = [];
		for (let i = 0; i < 2; i++) {
			const done = new Promise((resolve, reject) => (waiters[i] = { resolve, reject }));
			pane.literal(PROMPTS[i]);
			await sleep(1000);
			const { cpu0, bytes0, t0 } = await submit(pane, mock, cpu, log);
			try {
				await withTimeout(done, 30_000 + (3000 * tokens) / rate, `${app.name}: reply ${i + 1} did not finish`);
			} catch (error) {
				const seen = mock.requests.map((r) => `${r.kind} ${r.method} ${r.url}`).join("; ");
				console.error(`${error.message}; the mock saw: ${seen}; last screen:\n${pane.capture()}`);
				throw error;
			}
			await settle(log);
			const cpuS = cpu.seconds() - cpu0;
			const bytes1 = fileSize(log);
			const logBytes = readFileSync(log);
			const text = logBytes.subarray(bytes0, bytes1).toString("latin1");
			const chunks = parseTiming(readFileSync(timing, "utf8"), logHeaderLength(logBytes));
			const frames = countFrames(text, chunks, bytes0, bytes1);
			const tenths = (progress[i] ?? []).map((c, k, all) => c - (k === 0 ? cpu0 : all[k - 1]));
			out.push({
				cpuS,
				wallS: (performance.now() - t0) / 1000,
				frames: frames.frames,
				frameMethod: frames.method,
				syncBlocks: frames.sync,
				bursts: frames.bursts,
				cpuPerFrameMs: frames.frames ? (cpuS * 1000) / frames.frames : Number.NaN,
				cpuPerTokenUs: (cpuS * 1e6) / tokens,
				bytesPerToken: (bytes1 - bytes0) / tokens,
				fullClears: (text.match(FULL_CLEAR) ?? []).length,
				firstTenthS: tenths[0],
				lastTenthS: tenths.at(-1),
				rssAfterMiB: treeRssMiB(root),
				cpuMethod: cpu.method,
			});
		}
		const replies = mock.requests.filter((r) => r.kind === "reply").length;
		if (replies !== 2) throw new Error(`${app.name}: expected 2 streamed replies, the mock saw ${replies}`);
		return { cold: out[0], warm: out[1] };
	} finally {
		pane.kill();
		cpu?.close();
		await mock.close();
		for (const f of [log, timing]) rmSync(f, { force: true });
		rmSync(app.home, { recursive: true, force: true });
		rmSync(app.cwd, { recursive: true, force: true });
	}
}

function withTimeout(promise, ms, message) {
	let timer;
	const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
	return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
