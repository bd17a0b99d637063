// Launch in a real terminal: pane created → the model name first on screen, and → the screen settled
// (the last change before it stays still for `quietMs`). The same harness times a bare `node -e` that
// prints one line (the launch floor), so tmux's and Node's own start-up cost is visible as such.
import { rmSync } from "node:fs";
import { startMock } from "./lib/mock-server.mjs";
import { sleep, startPane } from "./lib/terminal.mjs";

/** One launch of `makeApp`: {modelMs, settledMs}, both from the pane's creation. */
export async function launch(makeApp, { quietMs = 700, maxMs = 30_000 } = {}) {
	const mock = await startMock({});
	const app = makeApp(mock.url);
	const shown = app.modelShown ?? app.ready;
	const pane = startPane({ command: app.command, env: app.env, cwd: app.cwd });
	try {
		let screen = "";
		let modelMs;
		let changedAt = pane.started;
		for (;;) {
			const next = pane.capture();
			const now = performance.now();
			if (next !== screen) {
				screen = next;
				changedAt = now;
			}
			if (modelMs === undefined && shown(screen)) modelMs = now - pane.started;
			const readyNow = modelMs !== undefined && app.ready(screen);
			if (readyNow && now - changedAt >= quietMs) break;
			if (now - pane.started > maxMs) {
				throw new Error(`${app.name}: no settled screen within ${maxMs} ms; last screen:\n${screen}`);
			}
			await sleep(1);
		}
		return { modelMs, settledMs: changedAt - pane.started };
	} finally {
		pane.kill();
		await mock.close();
		rmSync(app.home, { recursive: true, force: true });
		rmSync(app.cwd, { recursive: true, force: true });
	}
}
