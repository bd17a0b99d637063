// The cost of sub-agents waiting: Rudder in a real terminal runs a reply with two `task` calls whose
// sub-agents' model requests get headers and a first chunk, then nothing (a slow model). Measured over
// the same window: CPU of the app's process tree and its RSS, idle before the prompt and with the two
// sub-agents waiting. The idle window follows a first plain reply, so the provider and HTTP client are
// loaded in both and the difference is the run with its two sub-agents.

import { rmSync } from "node:fs";
import { createServer } from "node:http";
import { rudderApp } from "./lib/apps.mjs";
import { sleep, startPane, treeCpuSeconds, treeRssMiB, waitForScreen } from "./lib/terminal.mjs";

const chunk = (delta, finish = null) =>
	`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "mock-1", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

function taskCall(index, id, description) {
	const args = JSON.stringify({ agent: "explore", description, prompt: `${description} in the code` });
	return chunk({ tool_calls: [{ index, id, type: "function", function: { name: "task", arguments: args } }] });
}

/** A model whose main agent starts two sub-agents and whose sub-agents wait forever for their reply. */
async function startModel() {
	let waiting = 0;
	const server = createServer(async (req, res) => {
		let body = "";
		for await (const c of req) body += c;
		const messages = JSON.parse(body).messages ?? [];
		const system = String(messages[0]?.content ?? "");
		res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
		if (system.startsWith("You are Rudder") && JSON.stringify(messages.at(-1)).includes("warm up")) {
			res.end(`${chunk({ role: "assistant", content: "ready-to-go" })}${chunk({}, "stop")}data: [DONE]\n\n`);
			return;
		}
		if (system.startsWith("You are Rudder")) {
			res.end(
				`${chunk({ role: "assistant", content: null })}${taskCall(0, "t1", "look for alpha")}${taskCall(1, "t2", "look for beta")}${chunk({}, "tool_calls")}data: [DONE]\n\n`,
			);
			return;
		}
		res.write(chunk({ role: "assistant", content: "" }));
		waiting++;
	});
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	return {
		url: `http://127.0.0.1:${server.address().port}/v1`,
		waiting: () => waiting,
		close: () =>
			new Promise((r) => {
				server.closeAllConnections();
				server.close(() => r());
			}),
	};
}

/** CPU (ms per second) and RSS (MiB) of the tree under `pid` over `ms`. */
async function window(pid, ms) {
	const before = treeCpuSeconds(pid);
	await sleep(ms);
	return { cpuMsPerS: ((treeCpuSeconds(pid) - before) * 1000) / (ms / 1000), rssMiB: treeRssMiB(pid) };
}

export async function subagentsIdle({ windowMs = 5000 } = {}) {
	const model = await startModel();
	const app = rudderApp(model.url);
	const pane = startPane({ command: app.command, env: app.env, cwd: app.cwd });
	try {
		await waitForScreen(pane, app.ready, { timeoutMs: 30_000 });
		pane.literal("warm up");
		pane.keys("Enter");
		await waitForScreen(pane, (s) => s.includes("ready-to-go"), { timeoutMs: 30_000 });
		await sleep(1500);
		const pid = pane.appPid();
		const idle = await window(pid, windowMs);
		pane.literal("search both");
		pane.keys("Enter");
		await waitForScreen(pane, (s) => s.includes("explore (explore-1)") && s.includes("explore (explore-2)"), { timeoutMs: 30_000 });
		const deadline = Date.now() + 20_000;
		while (model.waiting() < 2 && Date.now() < deadline) await sleep(50);
		if (model.waiting() < 2) throw new Error("the two sub-agents never asked the model");
		await sleep(1000);
		const waiting = await window(pid, windowMs);
		return { idle, waiting };
	} finally {
		pane.kill();
		await model.close();
		rmSync(app.home, { recursive: true, force: true });
		rmSync(app.cwd, { recursive: true, force: true });
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const result = await subagentsIdle({ windowMs: Number(process.argv[2] ?? 5000) });
	console.log(JSON.stringify(result));
}
