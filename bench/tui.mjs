// Terminal benchmarks: each app runs in a real tmux pane (through `script`, which logs its bytes)
// against the local mock server. One scenario per call; returns plain numbers.
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMock } from "./lib/mock-server.mjs";
import { sleep, startPane, waitForScreen } from "./lib/terminal.mjs";

async function withApp(makeApp, plan, fn, { extraArgs, hooks = {} } = {}) {
	const mock = await startMock({ plan, ...hooks });
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
	const mock = await startMock({});
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
