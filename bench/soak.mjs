#!/usr/bin/env node
// Memory in a long session (issue 37): Rudder in rpc mode against a local model server, RSS read from
// /proc of the rudder process.
// - soak: one session of `--turns` model calls (prompts of ten turns: nine `read` calls, then a text
//   reply), RSS after the prompt that reaches each of `--at` turns, and the peak (sampled every 50 ms).
// - resume: a generated session of `--messages` messages (bench/lib/long-session.mjs), resumed, then
//   `--prompts` prompts; idle RSS, RSS after each prompt (steady state: the median of the second half),
//   peak, the largest request, and the ceiling 1.5 × idle + largest request.
// `--bin=<path>` runs another checkout's bin/rudder.js (main's, for the comparison in bench/RESULTS.md).
// `--node=<flags>` (comma-separated) go to the rudder process's node, e.g. `--node=--cpu-prof,--cpu-prof-dir=/tmp/p`.
// - tui: the same session resumed in the app (a tmux pane), RSS idle and after up to six prompts.
// Usage: node bench/soak.mjs [--turns=10000] [--at=100,1000,10000] [--messages=20000] [--prompts=20] [--only=soak|resume|tui] [--bin=…]
// Prints one JSON line.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeLongSession } from "./lib/long-session.mjs";
import { cpuMs, makeHome, rssMiB, startModel, startRudder } from "./lib/rpc-driver.mjs";
import { median, sleep, startPane, waitForScreen } from "./lib/terminal.mjs";

const args = Object.fromEntries(process.argv.slice(2).map((a) => /^--([^=]+)=?(.*)$/s.exec(a)?.slice(1) ?? [a, ""]));
const bin = args.bin;
const nodeArgs = args.node ? args.node.split(",") : [];
const MiB = 2 ** 20;
/** Model calls per prompt in the soak: TOOLS_PER_PROMPT `read` calls and the text reply. */
const TOOLS_PER_PROMPT = 9;

/** Samples RSS of `pid` every 50 ms; `peak()` is the highest seen. */
function peakMeter(pid) {
	let peak = 0;
	const timer = setInterval(() => {
		try {
			peak = Math.max(peak, rssMiB(pid));
		} catch {
			// the process has exited
		}
	}, 50);
	return { peak: () => peak, stop: () => clearInterval(timer) };
}

async function soak({ turns, at }) {
	let toolCalls = 0;
	const model = await startModel(() => {
		if (toolCalls < TOOLS_PER_PROMPT) return { toolCall: { name: "read", arguments: { path: `notes-${toolCalls++ % 20}.md` } } };
		return { text: "Read them all: the notes agree on the order of the steps." };
	});
	const home = makeHome(model.url);
	for (let i = 0; i < 20; i++)
		writeFileSync(join(home.cwd, `notes-${i}.md`), `# Note ${i}\n\n${"A line of notes about the build — step by step.\n".repeat(30)}`);
	const rudder = startRudder({ home: home.home, cwd: home.cwd, bin, nodeArgs });
	const samples = [];
	try {
		await rudder.call({ type: "get_state" });
		const meter = peakMeter(rudder.pid);
		const started = performance.now();
		let lastAt = started;
		let lastCpu = cpuMs(rudder.pid);
		const wanted = [...at];
		for (let prompt = 0; model.sizes.length < turns; prompt++) {
			toolCalls = 0;
			await rudder.prompt(`Soak prompt ${prompt}: read the notes and tell me the order of the steps.`);
			if (model.sizes.length >= wanted[0]) {
				const now = performance.now();
				const cpu = cpuMs(rudder.pid);
				const done = wanted.shift();
				const calls = Math.max(1, done - (samples.at(-1)?.turn ?? 0));
				const state = await rudder.call({ type: "get_state" });
				samples.push({
					turn: done,
					turns: model.sizes.length,
					messages: state.data?.messageCount,
					rssMiB: rssMiB(rudder.pid),
					requestMiB: model.sizes.at(-1) / MiB,
					msPerTurn: (now - lastAt) / calls,
					cpuMsPerTurn: (cpu - lastCpu) / calls,
				});
				lastAt = now;
				lastCpu = cpu;
				console.error(`  soak: turn ${done}: RSS ${samples.at(-1).rssMiB.toFixed(0)} MiB, ${samples.at(-1).messages} messages`);
			}
		}
		meter.stop();
		return { turns: model.sizes.length, samples, peakMiB: meter.peak(), seconds: (performance.now() - started) / 1000 };
	} finally {
		await rudder.stop();
		await model.close();
		home.dispose();
	}
}

async function resume({ messages, prompts }) {
	const model = await startModel(() => ({ text: "Done: the step option is read after the defaults now." }));
	const home = makeHome(model.url);
	const file = await writeLongSession({ home: home.home, cwd: home.cwd, messages });
	const fileMiB = (await import("node:fs")).statSync(file).size / MiB;
	const started = performance.now();
	const rudder = startRudder({ home: home.home, cwd: home.cwd, args: ["--continue"], bin, nodeArgs });
	try {
		const state = await rudder.call({ type: "get_state" });
		const resumeMs = performance.now() - started;
		await new Promise((r) => setTimeout(r, 1000));
		const idleMiB = rssMiB(rudder.pid);
		const meter = peakMeter(rudder.pid);
		const after = [];
		const promptMs = [];
		const promptCpuMs = [];
		for (let i = 0; i < prompts; i++) {
			const t = performance.now();
			const cpu = cpuMs(rudder.pid);
			await rudder.prompt(`Prompt ${i}: one more change to the step option.`);
			promptMs.push(performance.now() - t);
			promptCpuMs.push(cpuMs(rudder.pid) - cpu);
			after.push(rssMiB(rudder.pid));
		}
		meter.stop();
		const requestMiB = Math.max(...model.sizes) / MiB;
		const steadyMiB = median(after.slice(Math.floor(after.length / 2)));
		return {
			messages: state.data?.messageCount,
			fileMiB,
			resumeMs,
			idleMiB,
			requestMiB,
			afterMiB: after,
			steadyMiB,
			peakMiB: meter.peak(),
			promptMs: median(promptMs),
			promptCpuMs: median(promptCpuMs),
			ceilingMiB: 1.5 * idleMiB + requestMiB,
		};
	} finally {
		await rudder.stop();
		await model.close();
		home.dispose();
	}
}

/** The same long session resumed in the app (tmux pane): what the transcript on screen adds. */
async function tui({ messages, prompts }) {
	const model = await startModel((i) => ({ text: `Done, reply ${i}: the step option is read after the defaults now.` }));
	const home = makeHome(model.url);
	await writeLongSession({ home: home.home, cwd: home.cwd, messages });
	const app = bin ?? join(import.meta.dirname, "..", "bin", "rudder.js");
	const env = {
		RUDDER_HOME: home.home,
		HOME: home.home,
		XDG_CACHE_HOME: join(home.home, "cache"),
		NO_UPDATE_NOTIFIER: "1",
		RUDDER_DISCOVERY_PORTS: "",
	};
	const pane = startPane({ command: `node ${app} --model mock/mock-1 --continue`, env, cwd: home.cwd });
	try {
		await waitForScreen(pane, (screen) => /mock-1/.test(screen), { timeoutMs: 120_000 });
		await sleep(2000);
		const pid = pane.appPid();
		const idleMiB = rssMiB(pid);
		const after = [];
		for (let i = 0; i < prompts; i++) {
			const reply = `reply ${model.sizes.length}:`;
			pane.literal(`Prompt ${i}: one more change.`);
			pane.keys("Enter");
			await waitForScreen(pane, (screen) => screen.includes(reply), { timeoutMs: 120_000 });
			await sleep(500);
			after.push(rssMiB(pid));
		}
		return { idleMiB, afterMiB: after, steadyMiB: median(after.slice(Math.floor(after.length / 2))) };
	} finally {
		pane.kill();
		await model.close();
		home.dispose();
	}
}

const out = {};
if (!args.only || args.only === "soak") {
	const turns = Number(args.turns ?? 10_000);
	const at = (args.at ?? "100,1000,10000")
		.split(",")
		.map(Number)
		.filter((n) => n <= turns);
	out.soak = await soak({ turns, at });
}
const long = { messages: Number(args.messages ?? 20_000), prompts: Number(args.prompts ?? 20) };
if (!args.only || args.only === "resume") out.resume = await resume(long);
if (!args.only || args.only === "tui") out.tui = await tui({ ...long, prompts: Math.min(long.prompts, 6) });
console.log(JSON.stringify(out));
