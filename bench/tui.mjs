// Terminal benchmarks: each app runs in a real tmux pane (through `script`, which logs its bytes)
// against the local mock server. One scenario per call; returns plain numbers.
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockOpenAI } from "./lib/mock-openai.mjs";
import { cpuSeconds, fileSize, rssMiB, sleep, startPane, waitForScreen } from "./lib/terminal.mjs";

const FULL_CLEAR = /\x1b\[2J|\x1b\[3J/g;

async function withApp(makeApp, plan, fn, { extraArgs, hooks = {} } = {}) {
	const mock = await startMockOpenAI({ plan, ...hooks });
	const app = makeApp(mock.url, extraArgs);
	const log = join(tmpdir(), `bench-${app.name}-${process.pid}-${Date.now()}.log`);
	const pane = startPane({ command: app.command, env: app.env, cwd: app.cwd, logFile: log });
	try {
		const readyMs = await waitForScreen(pane, app.ready, { timeoutMs: 30_000 });
		return await fn({ pane, app, mock, log, readyMs });
	} finally {
		pane.kill();
		await mock.close();
		rmSync(log, { force: true });
		rmSync(app.home, { recursive: true, force: true });
		rmSync(app.cwd, { recursive: true, force: true });
	}
}

/**
 * Launch to input drawn, in ms (pane creation to the model name on screen). With `firstKey`, also the
 * first keystroke typed at that moment → on screen: what loads right after the first frame (MCP
 * servers) must not hold it.
 */
export async function startup(makeApp, { firstKey = false } = {}) {
	const mock = await startMockOpenAI({});
	const app = makeApp(mock.url);
	const pane = startPane({ command: app.command, env: app.env, cwd: app.cwd });
	try {
		await waitForScreen(pane, app.ready, { timeoutMs: 30_000, everyMs: 1 });
		const ms = performance.now() - pane.started;
		if (!firstKey) return { ms };
		const t0 = performance.now();
		pane.literal("Z");
		await waitForScreen(pane, (screen) => /› Z/.test(screen), { timeoutMs: 10_000, everyMs: 1 });
		return { ms, firstKeyMs: performance.now() - t0 };
	} finally {
		pane.kill();
		await mock.close();
		rmSync(app.home, { recursive: true, force: true });
		rmSync(app.cwd, { recursive: true, force: true });
	}
}

/** One streamed reply of `tokens` at `rate` tok/s: CPU, CPU per tenth, bytes per token, full clears, RSS. */
export async function streamRender(makeApp, { tokens, rate }) {
	let resolveDone;
	const done = new Promise((r) => (resolveDone = r));
	const tenths = [];
	let pid;
	const hooks = {
		onProgress: (_i, sent, total) => {
			tenths.push(cpuSeconds(pid));
			if (sent >= total || tenths.length >= 10) resolveDone();
		},
	};
	return withApp(
		makeApp,
		() => ({ tokens, rate }),
		async ({ pane, log }) => {
			pid = pane.appPid();
			await sleep(500);
			const rssIdle = rssMiB(pid);
			// Typed first, sent a second later, as a person would: what an app loads while the user types
			// (Rudder: the provider and highlighting) is not streaming cost. Same for both apps.
			pane.literal("stream please");
			await sleep(1000);
			const cpu0 = cpuSeconds(pid);
			const bytes0 = fileSize(log);
			const t0 = performance.now();
			pane.keys("Enter");
			await done;
			// Let the last frames and the final history write land.
			await sleep(1500);
			const cpu = cpuSeconds(pid) - cpu0;
			const written = readFileSync(log).subarray(bytes0);
			const text = written.toString("latin1");
			const clears = (text.match(FULL_CLEAR) ?? []).length;
			// Both apps wrap each frame in synchronized-output brackets (ESC[?2026h … ESC[?2026l).
			const frames = (text.match(/\x1b\[\?2026h/g) ?? []).length;
			const perTenth = tenths.map((c, i) => c - (i === 0 ? cpu0 : tenths[i - 1]));
			return {
				cpuS: cpu,
				wallS: (performance.now() - t0) / 1000,
				bytesPerToken: written.length / tokens,
				fullClears: clears,
				frames,
				firstTenthS: perTenth[0],
				lastTenthS: perTenth.at(-1),
				rssIdleMiB: rssIdle,
				rssAfterMiB: rssMiB(pid),
			};
		},
		{ hooks },
	);
}

/** Keystroke → character on screen while a 200 tok/s reply streams; median over `keys` presses. */
export async function keyEcho(makeApp, { keys = 15 } = {}) {
	return withApp(
		makeApp,
		() => ({ tokens: 20_000, rate: 200 }),
		async ({ pane }) => {
			pane.literal("stream please");
			pane.keys("Enter");
			await sleep(2000);
			const latencies = [];
			for (let i = 1; i <= keys; i++) {
				const t0 = performance.now();
				pane.literal("Z");
				await waitForScreen(pane, (s) => (s.match(/Z/g) ?? []).length >= i, { timeoutMs: 5000, everyMs: 1 });
				latencies.push(performance.now() - t0);
				await sleep(100);
			}
			return { latenciesMs: latencies };
		},
	);
}

/** Esc during a 200 tok/s stream: key → screen idle (`idle(screen)`), and key → HTTP connection closed. */
export async function escapeKey(makeApp, idle) {
	let closedAt;
	const hooks = { onClose: (_i, at) => (closedAt = at) };
	return withApp(
		makeApp,
		() => ({ tokens: 20_000, rate: 200 }),
		async ({ pane }) => {
			pane.literal("stream please");
			pane.keys("Enter");
			await sleep(2500);
			const t0 = performance.now();
			pane.keys("Escape");
			const uiMs = await waitForScreen(pane, idle, { timeoutMs: 10_000, everyMs: 1 });
			for (let i = 0; i < 500 && closedAt === undefined; i++) await sleep(2);
			return { uiMs, closeMs: closedAt === undefined ? NaN : closedAt - t0 };
		},
		{ hooks },
	);
}
