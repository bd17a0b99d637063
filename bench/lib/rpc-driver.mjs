// Rudder in rpc mode against a small OpenAI-compatible server on 127.0.0.1, for the memory benchmarks:
// prompts go in as rpc commands, RSS is read from /proc/<pid>/status of the rudder process itself.
// The server keeps nothing of a request but its size (a recording server would hold every 40 MiB body).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./apps.mjs";

/** VmRSS of `pid` in MiB (Linux). */
export function rssMiB(pid) {
	const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
	return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** CPU ms (user + system) `pid` has used so far (Linux, clock ticks of 10 ms). */
export function cpuMs(pid) {
	const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
	return (Number(fields[11]) + Number(fields[12])) * 10;
}

const chunk = (delta, finish = null) =>
	`data: ${JSON.stringify({ id: "c", model: "mock-1", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/**
 * The model: `reply(index, bodyBytes)` returns {text} or {toolCall: {name, arguments}} for each request.
 * Side requests (a title, a classifier) are answered the same way; they are small.
 */
export async function startModel(reply) {
	const sizes = [];
	const server = createServer(async (req, res) => {
		let bytes = 0;
		for await (const c of req) bytes += c.length;
		const index = sizes.length;
		sizes.push(bytes);
		const r = reply(index, bytes);
		res.writeHead(200, { "content-type": "text/event-stream" });
		let out = chunk({ role: "assistant", content: "" });
		if (r.toolCall) {
			const call = {
				index: 0,
				id: `call_${index}`,
				type: "function",
				function: { name: r.toolCall.name, arguments: JSON.stringify(r.toolCall.arguments) },
			};
			out += chunk({ tool_calls: [call] }) + chunk({}, "tool_calls");
		} else out += chunk({ content: r.text }) + chunk({}, "stop");
		out += `data: ${JSON.stringify({ id: "c", choices: [], usage: { prompt_tokens: Math.round(bytes / 4), completion_tokens: 50 } })}\n\ndata: [DONE]\n\n`;
		res.end(out);
	});
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	return {
		url: `http://127.0.0.1:${server.address().port}/v1`,
		sizes,
		close: () => new Promise((r) => server.close(() => r())).finally(() => server.closeAllConnections?.()),
	};
}

/** A home with models.json for the server (a context window no generated session fills) and a working folder. */
export function makeHome(url) {
	const home = mkdtempSync(join(tmpdir(), "rudder-soak-"));
	const cwd = mkdtempSync(join(tmpdir(), "rudder-soak-cwd-"));
	const provider = {
		baseUrl: url,
		api: "openai-completions",
		apiKey: "mock-key",
		compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
		models: [{ id: "mock-1", name: "mock-1", contextWindow: 100_000_000, maxTokens: 100_000 }],
	};
	writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { mock: provider } }));
	return {
		home,
		cwd,
		dispose: () => {
			rmSync(home, { recursive: true, force: true });
			rmSync(cwd, { recursive: true, force: true });
		},
	};
}

/**
 * Starts `rudder --mode rpc` in `cwd`; `prompt(text)` resolves at the run's agent_end. `nodeArgs` go to
 * node (e.g. --heap-prof); `bin` is another checkout's bin/rudder.js to compare with.
 */
export function startRudder({ home, cwd, args = [], nodeArgs = [], bin = join(root, "bin", "rudder.js") }) {
	const child = spawn(process.execPath, [...nodeArgs, bin, "--mode", "rpc", "--model", "mock/mock-1", ...args], {
		cwd,
		env: {
			...process.env,
			RUDDER_HOME: home,
			HOME: home,
			XDG_CACHE_HOME: join(home, "cache"),
			NO_UPDATE_NOTIFIER: "1",
			RUDDER_DISCOVERY_PORTS: "",
		},
		stdio: ["pipe", "pipe", "pipe"],
	});
	let stderr = "";
	child.stderr.on("data", (d) => {
		stderr += d;
	});
	let buffer = "";
	let waiters = [];
	child.stdout.setEncoding("utf8");
	child.stdout.on("data", (d) => {
		buffer += d;
		let nl = buffer.indexOf("\n");
		while (nl >= 0) {
			const line = buffer.slice(0, nl);
			buffer = buffer.slice(nl + 1);
			nl = buffer.indexOf("\n");
			// Long lines (message updates of a long history) are not parsed: only their type is read.
			let event;
			if (line.length > 4096) event = { type: /^\{"type":"([a-z_]+)"/.exec(line)?.[1] };
			else {
				try {
					event = JSON.parse(line);
				} catch {
					continue;
				}
			}
			waiters = waiters.filter((w) => !w(event));
		}
	});
	const exited = new Promise((resolve) => child.once("exit", resolve));
	const until = (match) =>
		new Promise((resolve, reject) => {
			const fail = () => reject(new Error(`rudder exited: ${stderr.slice(-500)}`));
			exited.then(fail);
			waiters.push((event) => {
				if (!match(event)) return false;
				resolve(event);
				return true;
			});
		});
	let id = 0;
	const send = (command) => child.stdin.write(`${JSON.stringify({ id: ++id, ...command })}\n`);
	/** Resolves with a command's response (also a readiness probe: the session has loaded). */
	const call = async (command) => {
		const want = id + 1;
		const reply = until((e) => e.type === "response" && e.id === want);
		send(command);
		return reply;
	};
	return {
		pid: child.pid,
		call,
		prompt: async (message) => {
			const end = until((e) => e.type === "agent_end");
			send({ type: "prompt", message });
			await end;
			// The run settles after agent_end (session file, phase); get_state waits for it.
			await call({ type: "get_state" });
		},
		stop: async () => {
			child.stdin.end();
			const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
			await exited;
			clearTimeout(timer);
		},
	};
}
