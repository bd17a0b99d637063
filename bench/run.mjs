#!/usr/bin/env node
// `npm run bench`: Rudder beside the references (pi, Claude Code, Codex, Gemini CLI) in the same run:
// streaming replies (cold and warm, per size and rate), launch against a bare-node floor, and the other
// benchmarks; medians and ratios. `--quick` is CI's smoke run (Rudder only, small, no installs).
// `--write` writes bench/RESULTS.md. Flags: --only= --apps= --sizes= --rates= --runs= --long-runs= --serial --baseline=<built checkout>.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { launch } from "./launch.mjs";
import { nodeFloorApp, refDir, root } from "./lib/apps.mjs";
import { parseOptions } from "./lib/options.mjs";
import { APPS } from "./lib/registry.mjs";
import { cpuTable, fmt, frameTable, launchTable, rowsTable } from "./lib/report.mjs";
import { median } from "./lib/terminal.mjs";
import { memoryCeilingSection } from "./memory-ceiling.mjs";
import { runOthers } from "./others.mjs";
import { key, planCells, runMatrix } from "./reply-matrix.mjs";

const started = performance.now();
const argv = process.argv.slice(2);
let options;
try {
	options = parseOptions(argv);
} catch (error) {
	console.error(`bench: ${error.message}`);
	process.exit(2);
}
if (!existsSync(join(root, "dist", "src", "cli", "main.js"))) {
	console.error("bench: build first (npm run build)");
	process.exit(2);
}
const log = (line) => console.error(line);
const notes = [];

/** Installs the missing references into bench/.ref (never in --quick); returns the apps that can run. */
function ensureReferences(apps) {
	const missing = apps.filter((a) => !APPS[a].available());
	if (missing.length && !options.quick) {
		const packages = missing.flatMap((a) => APPS[a].packages);
		log(`installing ${packages.join(", ")} into bench/.ref …`);
		try {
			execFileSync("npm", ["install", "--prefix", refDir, "--no-audit", "--no-fund", "--silent", ...packages], { stdio: "inherit" });
		} catch (error) {
			notes.push(`npm install of ${packages.join(", ")} failed: ${String(error.message).split("\n")[0]}`);
		}
	}
	return apps.filter((a) => {
		if (APPS[a].available()) return true;
		notes.push(`${APPS[a].label}: not installed${options.quick ? " (--quick never installs references)" : ""}, left out`);
		return false;
	});
}

const apps = ensureReferences(options.apps);
const haveRef = apps.includes("pi");
const rows = [];
const row = (benchmark, metric, ours, ref, bar, pass) => {
	rows.push({ benchmark, metric, ours, ref, bar, pass });
	log(`  ${benchmark} · ${metric}: ${fmt(ours)}${ref !== undefined ? ` vs ${fmt(ref)}` : ""}`);
};
const sections = [];

// 1. Launch: model name shown and screen settled, every app and the bare-node floor, alternating.
if (options.want("launch")) {
	log("launch …");
	const order = ["node", ...apps];
	const make = (a) => (a === "node" ? nodeFloorApp : APPS[a].make);
	const runs = options.quick ? 1 : options.runs + 1;
	const raw = {};
	for (let r = 0; r < runs; r++) {
		for (const a of order) {
			try {
				const result = await launch(make(a));
				if (options.quick || r > 0) raw[a] = [...(raw[a] ?? []), result];
			} catch (error) {
				if (r === 0) notes.push(`launch, ${a}: ${String(error.message).split("\n")[0]}`);
			}
		}
	}
	const launches = Object.fromEntries(
		Object.entries(raw).map(([a, rs]) => [a, { modelMs: median(rs.map((x) => x.modelMs)), settledMs: median(rs.map((x) => x.settledMs)) }]),
	);
	for (const [a, r] of Object.entries(launches)) log(`  ${a}: model shown ${fmt(r.modelMs)} ms, settled ${fmt(r.settledMs)} ms`);
	const t = launchTable(launches, apps);
	const how = options.quick ? "One launch each" : `Medians of ${options.runs} launches each (after one discarded), the apps alternating`;
	sections.push(`## Launch\n\n${how}.\n\n${t.markdown}`);
}

// 2. Streaming replies: the matrix.
if (options.want("stream")) {
	const cells = planCells(options, apps);
	const { results, errors, cpuMethods } = await runMatrix(cells, log);
	notes.push(...errors);
	if (cpuMethods.includes("proc"))
		notes.push(
			"some reply CPU was read from /proc in clock ticks (10 ms): a cgroup could not be made or the app's processes not moved into it",
		);
	const keys = cells.map(key);
	const cpu = cpuTable(keys, results, apps);
	sections.push(
		`## Streaming replies: CPU-seconds of the app's process tree per reply (medians)\n\n${cpu.markdown}`,
		`## Per reply: frames · CPU ms per frame · CPU µs per token · bytes to the tty per token (medians)\n\n${frameTable(keys, results, apps)}`,
	);
	// Rudder's own stream properties (any size): no full clears, and cost flat along a long reply.
	const ours = results.rudder ?? {};
	const clears = Object.values(ours).reduce((n, c) => n + c.cold.fullClears + c.warm.fullClears, 0);
	row("stream", "full-screen clears, all replies", clears, undefined, "0", clears === 0);
	const longest = cells.filter((c) => ours[key(c)]).sort((a, b) => b.tokens / b.rate - a.tokens / a.rate)[0];
	if (longest && longest.tokens >= 5000) {
		const c = ours[key(longest)].cold;
		const flat = c.lastTenthS / Math.max(0.005, c.firstTenthS);
		row(`stream ${key(longest)}`, "CPU last tenth / first tenth (cold)", flat, undefined, "≤ 1.2", flat <= 1.2);
	}
}

// 3. The other benchmarks (Rudder beside pi).
await runOthers({ want: options.want, quick: options.quick, runs: options.runs, haveRef, row });
if (rows.length) sections.push(`## Other benchmarks\n\n${rowsTable(rows)}`);

// 4. Memory in a long session: its own table, with a baseline checkout beside ours when given.
if (options.want("soak")) {
	try {
		sections.push(memoryCeilingSection(options, log));
	} catch (error) {
		notes.push(`memory in a long session: ${String(error.message).split("\n")[0]}`);
	}
}

const totalS = (performance.now() - started) / 1000;
const duration = `${Math.floor(totalS / 60)} min ${Math.round(totalS % 60)} s`;
const body = [...sections, notes.length ? `## Notes from this run\n\n${notes.map((n) => `- ${n}`).join("\n")}` : ""]
	.filter(Boolean)
	.join("\n\n");
console.log(`${body}\n\nTotal time: ${duration}`);
if (options.write) writeResults(body, duration);

function writeResults(tables, duration) {
	const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, Linux`;
	const versions = apps
		.filter((a) => !APPS[a].ours)
		.map((a) => `${APPS[a].label} (${(APPS[a].packages ?? []).join(", ")})`)
		.join("; ");
	const method = readFileSync(join(root, "bench", "METHOD.md"), "utf8").trim();
	const header = [
		"# Benchmark results",
		"",
		`Date: ${new Date().toISOString().replace("T", " ").slice(0, 16)} UTC · Machine: ${machine}, load average at the end ${loadavg()[0].toFixed(1)} · Rudder ${JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version} at ${gitHead()}`,
		"",
		`Command: \`npm run bench -- ${argv.join(" ")}\` · total time ${duration} · runs ${options.runs} (long replies ${options.longRuns}${options.serial ? ", serial" : ", side by side"})`,
		"",
		`References: ${versions || "none"}.`,
	].join("\n");
	writeFileSync(join(root, "bench", "RESULTS.md"), `${header}\n\n${tables}\n\n${method}\n`);
}

function gitHead() {
	try {
		return execFileSync("git", ["-C", root, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
	} catch {
		return "unknown commit";
	}
}
