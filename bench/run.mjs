#!/usr/bin/env node
// `npm run bench`: every benchmark for Rudder and, where one exists, the reference (pi 0.73.1) in the
// same run, several runs after a warm-up; prints medians and ratios. `--quick` is CI's smoke run
// (small sizes, one run, no bars). `--write` also writes bench/RESULTS.md.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { piApp, refDir, referenceInstalled, root, rudderApp, rudderAppWithMcp } from "./lib/apps.mjs";
import { median } from "./lib/terminal.mjs";
import { memory } from "./memory.mjs";
import { escapeKey, keyEcho, startup, streamRender } from "./tui.mjs";

const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const write = argv.includes("--write");
const only = argv
	.find((a) => a.startsWith("--only="))
	?.slice(7)
	.split(",");
const runs = Number(argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? (quick ? 1 : 5));
const want = (name) => !only || only.includes(name);

function ensureReference() {
	if (referenceInstalled()) return true;
	if (quick && !argv.includes("--with-reference")) return false;
	console.error("installing the reference (pi 0.73.1) into bench/.ref …");
	execFileSync(
		"npm",
		[
			"install",
			"--prefix",
			refDir,
			"--no-audit",
			"--no-fund",
			"--silent",
			"@mariozechner/pi-agent-core@0.73.1",
			"@mariozechner/pi-coding-agent@0.73.1",
		],
		{ stdio: "inherit" },
	);
	return referenceInstalled();
}

if (!existsSync(join(root, "dist", "src", "cli", "main.js"))) {
	console.error("bench: build first (npm run build)");
	process.exit(2);
}
const haveRef = ensureReference();
const rows = [];
const row = (benchmark, metric, ours, ref, bar, pass) => {
	rows.push({ benchmark, metric, ours, ref, ratio: ref ? ours / ref : undefined, bar, pass });
	console.error(`  ${benchmark} · ${metric}: ${fmt(ours)}${ref !== undefined ? ` vs ${fmt(ref)}` : ""}`);
};
const fmt = (n) => (n === undefined || Number.isNaN(n) ? "—" : Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(n < 1 ? 3 : 2));

async function repeat(fn, n = runs, warmup = !quick) {
	if (warmup) await fn();
	const out = [];
	for (let i = 0; i < n; i++) out.push(await fn());
	return out;
}
const med = (results, key) => median(results.map((r) => r[key]));

// 1. Start-up
if (want("startup")) {
	console.error("start-up …");
	const ours = await repeat(() => startup(rudderApp));
	const ref = haveRef ? await repeat(() => startup(piApp)) : undefined;
	const m = med(ours, "ms") / 1000;
	row("start-up", "launch → input drawn (s)", m, ref && med(ref, "ms") / 1000, "≤ 0.25 s", m <= 0.25);
}

// 1b. Start-up with two MCP servers configured: they start after the first frame, so launch and the
// first keystroke must be within noise of a launch without them. Runs alternate to share the noise.
if (want("startup-mcp")) {
	console.error("start-up with 2 MCP servers …");
	const plain = [];
	const withMcp = [];
	await repeat(async () => {
		plain.push(await startup(rudderApp, { firstKey: true }));
		withMcp.push(await startup(rudderAppWithMcp, { firstKey: true }));
	});
	if (!quick) {
		plain.shift();
		withMcp.shift();
	}
	const base = med(plain, "ms") / 1000;
	const mcp = med(withMcp, "ms") / 1000;
	row("start-up", "launch → input drawn, no MCP servers (s)", base, undefined, "", undefined);
	row("start-up", "launch → input drawn, 2 MCP servers (s)", mcp, undefined, "≤ no-MCP + 0.03 s", mcp <= base + 0.03);
	const keyBase = med(plain, "firstKeyMs");
	const keyMcp = med(withMcp, "firstKeyMs");
	row("start-up", "first keystroke → on screen, no MCP (ms)", keyBase, undefined, "", undefined);
	row("start-up", "first keystroke → on screen, 2 MCP servers (ms)", keyMcp, undefined, "≤ no-MCP + 16 ms", keyMcp <= keyBase + 16);
}

// 2. Streaming render
if (want("stream")) {
	const tokens = quick ? 600 : 20_000;
	for (const rate of quick ? [1000] : [200, 2000]) {
		console.error(`stream ${tokens} tokens at ${rate} tok/s …`);
		const n = quick ? 1 : Math.max(1, Math.min(runs, rate === 200 ? 2 : 3));
		const ours = await repeat(() => streamRender(rudderApp, { tokens, rate }), n, false);
		const ref = haveRef ? await repeat(() => streamRender(piApp, { tokens, rate }), n, false) : undefined;
		const cpu = med(ours, "cpuS");
		const refCpu = ref && med(ref, "cpuS");
		const label = `stream ${tokens / 1000}k @ ${rate}/s`;
		row(label, "CPU seconds", cpu, refCpu, "≤ 0.2× pi", refCpu ? cpu <= 0.2 * refCpu : undefined);
		const flat = med(ours, "lastTenthS") / Math.max(0.005, med(ours, "firstTenthS"));
		row(
			label,
			"CPU last tenth / first tenth",
			flat,
			ref && med(ref, "lastTenthS") / Math.max(0.005, med(ref, "firstTenthS")),
			"≤ 1.2",
			flat <= 1.2,
		);
		const bpt = med(ours, "bytesPerToken");
		row(
			label,
			"bytes written per token",
			bpt,
			ref && med(ref, "bytesPerToken"),
			rate === 200 ? "≤ 100" : "",
			rate === 200 ? bpt <= 100 : undefined,
		);
		const clears = med(ours, "fullClears");
		row(label, "full-screen clears", clears, ref && med(ref, "fullClears"), "0", clears === 0);
		row(label, "RSS after reply (MiB)", med(ours, "rssAfterMiB"), ref && med(ref, "rssAfterMiB"), "", undefined);
	}
}

// 3. Key echo while streaming
if (want("keys")) {
	console.error("key echo …");
	const n = quick ? 3 : 20;
	const ours = (await keyEcho(rudderApp, { keys: n })).latenciesMs;
	const ref = haveRef ? (await keyEcho(piApp, { keys: n })).latenciesMs : undefined;
	const m = median(ours);
	row("key echo @ 200 tok/s", "keystroke → on screen (ms)", m, ref && median(ref), "≤ 16 ms", m <= 16);
}

// 4. Esc
if (want("esc")) {
	console.error("esc …");
	const idleRudder = (s) => /aborted/i.test(s);
	const idlePi = (s) => /aborted/i.test(s);
	const ours = await repeat(() => escapeKey(rudderApp, idleRudder), quick ? 1 : runs, false);
	const ref = haveRef ? await repeat(() => escapeKey(piApp, idlePi), quick ? 1 : runs, false) : undefined;
	const ui = med(ours, "uiMs");
	const close = med(ours, "closeMs");
	row("Esc", "key → UI idle (ms)", ui, ref && med(ref, "uiMs"), "≤ 30 ms", ui <= 30);
	row("Esc", "key → HTTP closed (ms)", close, ref && med(ref, "closeMs"), "≤ 30 ms", close <= 30);
}

// 5. Memory
if (want("memory")) {
	console.error("memory …");
	const ours = await memory(rudderApp, { tokens: quick ? 500 : 20_000, messages: quick ? 100 : 1000 });
	row("memory", "RSS idle (MiB)", ours.idleMiB, undefined, "≤ 70 MiB", ours.idleMiB <= 70);
	row("memory", "RSS after 20k-token reply (MiB)", ours.afterReplyMiB, undefined, "", undefined);
	row("memory", `RSS after resuming ${ours.messages} messages (MiB)`, ours.resumedMiB, undefined, "", undefined);
	row(
		"memory",
		"growth per 1,000 messages (MiB)",
		((ours.resumedMiB - ours.idleMiB) * 1000) / ours.messages,
		undefined,
		"reported",
		undefined,
	);
}

// 6. Agent overhead (in-process)
if (want("agent")) {
	console.error("agent overhead …");
	const size = quick ? ["--turns=50", "--deltas=20"] : [];
	const runOne = (impl) => {
		const r = spawnSync(process.execPath, [join(root, "bench", "agent-overhead.mjs"), `--impl=${impl}`, ...size], {
			encoding: "utf8",
			env: { ...process.env, NODE_ENV: "production" },
		});
		if (r.status !== 0) throw new Error(`agent-overhead ${impl} failed: ${r.stderr}`);
		return JSON.parse(r.stdout.trim().split("\n").at(-1));
	};
	const ours = [];
	const ref = [];
	for (let i = 0; i < (quick ? 1 : runs + 1); i++) {
		ours.push(runOne("rudder"));
		if (haveRef) ref.push(runOne("pi"));
	}
	if (!quick) {
		ours.shift();
		ref.shift();
	}
	const cpu = med(ours, "cpuMs");
	const refCpu = haveRef ? med(ref, "cpuMs") : undefined;
	row(
		"agent overhead",
		`CPU ms (${ours[0].turns} turns, ${ours[0].deltas} deltas)`,
		cpu,
		refCpu,
		"ratio ≤ 1.0",
		refCpu ? cpu <= refCpu : undefined,
	);
	row("agent overhead", "wall ms", med(ours, "wallMs"), haveRef ? med(ref, "wallMs") : undefined, "", undefined);
}

// 7. Checkpoints (shadow git) on a 10,000-file tree
if (want("checkpoint")) {
	console.error("checkpoints …");
	const size = quick ? ["--files=1000", "--rounds=2"] : ["--files=10000", "--rounds=5"];
	const results = [];
	for (let i = 0; i < (quick ? 1 : 3); i++) {
		const r = spawnSync(process.execPath, [join(root, "bench", "checkpoint.mjs"), ...size], { encoding: "utf8" });
		if (r.status !== 0) throw new Error(`checkpoint bench failed: ${r.stderr}`);
		results.push(JSON.parse(r.stdout.trim().split("\n").at(-1)));
	}
	const files = results[0].files.toLocaleString("en");
	row("checkpoint", `first snapshot, ${files} files (ms)`, med(results, "firstMs"), undefined, "", undefined);
	const incremental = med(results, "incrementalMedianMs");
	row("checkpoint", `incremental snapshot, ${files} files (ms)`, incremental, undefined, "≤ 300 ms", incremental <= 300);
	const stall = med(results, "maxStallMs");
	row("checkpoint", "longest event-loop stall during a snapshot (ms)", stall, undefined, "≤ 50 ms", stall <= 50);
}

// 7b. The bash sandbox: extra wall time per command inside bwrap, and the permission decision per call.
if (want("sandbox")) {
	console.error("sandbox …");
	const r = spawnSync(process.execPath, [join(root, "bench", "sandbox.mjs"), `--count=${quick ? 10 : 100}`], { encoding: "utf8" });
	if (r.status !== 0) throw new Error(`sandbox bench failed: ${r.stderr}`);
	const result = JSON.parse(r.stdout.trim().split("\n").at(-1));
	if (result.skipped) console.error(`  sandbox: skipped (${result.skipped})`);
	else {
		row("sandbox", "bash `true`, plain (ms)", result.plainMs, undefined, "", undefined);
		row("sandbox", "bash `true` inside bwrap: extra ms per command", result.overheadMs, undefined, "≤ 50 ms", result.overheadMs <= 50);
		row("sandbox", "permission decision per call (µs)", result.decideUs, undefined, "≤ 1,000 µs", result.decideUs <= 1000);
	}
}

// 8. Terminal sanitiser (in-process): µs per KB on the per-token path.
if (want("sanitize")) {
	console.error("sanitiser …");
	const r = spawnSync(process.execPath, [join(root, "bench", "sanitize.mjs")], { encoding: "utf8" });
	if (r.status !== 0) throw new Error(`sanitize bench failed: ${r.stderr}`);
	const us = JSON.parse(r.stdout.trim().split("\n").at(-1));
	row("sanitiser", "plain ASCII (µs/KB)", us.ascii, undefined, "≤ 5", us.ascii <= 5);
	row("sanitiser", "prose with wide chars and emoji (µs/KB)", us.prose, undefined, "", undefined);
	row("sanitiser", "hostile text (µs/KB)", us.hostile, undefined, "", undefined);
	row("sanitiser", "5-byte tokens, one call each (µs/KB)", us.tokens, undefined, "", undefined);
}

const table = [
	"| benchmark | metric | Rudder (median) | pi 0.73.1 (median) | ratio | bar | holds |",
	"|---|---|---|---|---|---|---|",
	...rows.map(
		(r) =>
			`| ${r.benchmark} | ${r.metric} | ${fmt(r.ours)} | ${fmt(r.ref)} | ${r.ratio === undefined ? "—" : `${r.ratio.toFixed(2)}×`} | ${r.bar || "—"} | ${r.pass === undefined ? "—" : r.pass ? "yes" : "**no**"} |`,
	),
].join("\n");
console.log(table);
if (write) {
	const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, Linux`;
	writeFileSync(
		join(root, "bench", "RESULTS.md"),
		`# Benchmark results\n\nDate: ${new Date().toISOString().slice(0, 10)} · Machine: ${machine} (shared and noisy) · runs: ${runs}${quick ? " (quick)" : ""}\n\n` +
			`Command: \`npm run bench -- ${argv.join(" ")}\`. Terminal benchmarks run each app in a 120×40 tmux pane through \`script\` against a local mock OpenAI server; CPU and RSS from /proc.\n\n${table}\n`,
	);
}
