// Memory: RSS of the app idle, after a long reply, and after resuming a long session.
import { rmSync } from "node:fs";
import { startMock } from "./lib/mock-server.mjs";
import { writeSyntheticSession } from "./lib/synthetic-session.mjs";
import { rssMiB, sleep, startPane, waitForScreen } from "./lib/terminal.mjs";

export async function memory(makeApp, { tokens, messages }) {
	let resolveDone;
	const done = new Promise((r) => (resolveDone = r));
	const mock = await startMock({
		plan: () => ({ tokens, rate: 5000 }),
		onProgress: (_i, sent, total) => sent >= total && resolveDone(),
	});
	const result = { messages };
	const app = makeApp(mock.url);
	let pane = startPane({ command: app.command, env: app.env, cwd: app.cwd });
	try {
		await waitForScreen(pane, app.ready, { timeoutMs: 30_000 });
		await sleep(1000);
		const pid = pane.appPid();
		result.idleMiB = rssMiB(pid);
		pane.literal("stream please");
		pane.keys("Enter");
		await done;
		await sleep(1500);
		result.afterReplyMiB = rssMiB(pid);
		pane.kill();

		// Resume: a session of `messages` messages in this app's own format, opened with --continue.
		const resumed = makeApp(mock.url, "--continue");
		await writeSyntheticSession(resumed, messages);
		pane = startPane({ command: resumed.command, env: resumed.env, cwd: resumed.cwd });
		await waitForScreen(pane, resumed.ready, { timeoutMs: 60_000 });
		await sleep(1500);
		result.resumedMiB = rssMiB(pane.appPid());
		rmSync(resumed.home, { recursive: true, force: true });
		rmSync(resumed.cwd, { recursive: true, force: true });
	} finally {
		pane.kill();
		await mock.close();
		rmSync(app.home, { recursive: true, force: true });
		rmSync(app.cwd, { recursive: true, force: true });
	}
	return result;
}
