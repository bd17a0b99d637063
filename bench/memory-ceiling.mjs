// "Memory in a long session" (issue 37): the soak (10,000 model calls in one session; RSS at 100,
// 1,000 and 10,000) and a 20,000-message session resumed and prompted, against the published ceiling:
// steady-state RSS ≤ 300 MiB and ≤ 1.5 × the idle size plus the largest request. With `--baseline=<dir>`
// (a built checkout of another commit, e.g. main before the change) the same runs of that code sit
// beside ours. `--quick`: 200 calls and 2,000 messages.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib/apps.mjs";
import { fmt, table } from "./lib/report.mjs";

/** The published ceiling (README.md, "Performance"). */
export const CEILING_MIB = 300;

function runSoak(sizes, bin) {
	const r = spawnSync(process.execPath, [join(root, "bench", "soak.mjs"), ...sizes, ...(bin ? [`--bin=${bin}`] : [])], {
		encoding: "utf8",
		stdio: ["ignore", "pipe", "inherit"],
		maxBuffer: 16 * 2 ** 20,
	});
	if (r.status !== 0) throw new Error(`soak bench failed (exit ${r.status})`);
	return JSON.parse(r.stdout.trim().split("\n").at(-1));
}

/** Runs ours (and the baseline's) and returns the markdown section. */
export function memoryCeilingSection({ quick, baseline }, log) {
	const sizes = quick ? ["--turns=200", "--at=20,100,200", "--messages=2000", "--prompts=4"] : ["--prompts=20"];
	log("memory in a long session (soak and a long session resumed) …");
	const ours = runSoak(sizes, undefined);
	if (baseline) log(`  the same with ${baseline} …`);
	const base = baseline ? runSoak(sizes, join(baseline, "bin", "rudder.js")) : undefined;
	return memoryCeilingTable(ours, base, baseline);
}

/** The section from soak.mjs results: ours, and the baseline's (`label`) when given. */
export function memoryCeilingTable(ours, base, label) {
	const rows = [];
	const row = (metric, pick, bar, holds) => {
		const a = pick(ours);
		const b = base ? pick(base) : undefined;
		rows.push([metric, fmt(a), base ? fmt(b) : "—", bar ?? "—", holds === undefined ? "—" : holds(ours) ? "yes" : "**no**"]);
	};
	const soakTurns = ours.soak.samples.map((s) => s.turn);
	for (const [i, turn] of soakTurns.entries()) {
		row(
			`soak: RSS after ${turn.toLocaleString("en")} model calls (MiB; ${ours.soak.samples[i].messages.toLocaleString("en")} messages)`,
			(r) => r.soak.samples[i]?.rssMiB,
			i === soakTurns.length - 1 ? `≤ ${CEILING_MIB} MiB` : undefined,
			i === soakTurns.length - 1 ? (r) => r.soak.samples[i].rssMiB <= CEILING_MIB : undefined,
		);
	}
	row(
		"soak: peak RSS, sampled every 50 ms (MiB)",
		(r) => r.soak.peakMiB,
		`≤ ${CEILING_MIB} MiB`,
		(r) => r.soak.peakMiB <= CEILING_MIB,
	);
	row("soak: ms per model call, last stretch", (r) => r.soak.samples.at(-1)?.msPerTurn);
	row("soak: CPU ms of the rudder process per model call, last stretch", (r) => r.soak.samples.at(-1)?.cpuMsPerTurn);
	const m = ours.resume;
	row(`resume: session file (MiB; ${m.messages.toLocaleString("en")} messages)`, (r) => r.resume.fileMiB);
	row("resume: largest request (MiB)", (r) => r.resume.requestMiB);
	row("resume: load → rpc answers (ms)", (r) => r.resume.resumeMs);
	row("resume: RSS idle after loading (MiB)", (r) => r.resume.idleMiB);
	row(
		"resume: RSS at steady state, median after prompts (MiB)",
		(r) => r.resume.steadyMiB,
		`≤ ${CEILING_MIB} MiB and ≤ 1.5 × idle + request`,
		(r) => r.resume.steadyMiB <= Math.min(CEILING_MIB, r.resume.ceilingMiB),
	);
	row("resume: 1.5 × idle + largest request (MiB)", (r) => r.resume.ceilingMiB);
	row("resume: peak RSS, sampled every 50 ms (MiB)", (r) => r.resume.peakMiB);
	row("resume: prompt → agent_end, median (ms)", (r) => r.resume.promptMs);
	row("resume: CPU ms of the rudder process per prompt, median", (r) => r.resume.promptCpuMs);
	if (ours.tui) {
		row("app (TUI): RSS idle after resuming the same session (MiB)", (r) => r.tui?.idleMiB);
		row(
			`app (TUI): RSS at steady state, median after ${ours.tui.afterMiB.length} prompts (MiB)`,
			(r) => r.tui?.steadyMiB,
			`≤ ${CEILING_MIB} MiB`,
			(r) => r.tui.steadyMiB <= CEILING_MIB,
		);
	}
	const how = `Rudder in rpc mode against a local model server; RSS of the rudder process from /proc. Soak: one session of ${ours.soak.turns.toLocaleString("en")} model calls, prompts of ten (nine \`read\` calls and a reply). Resume: a generated ${m.messages.toLocaleString("en")}-message session (bench/lib/long-session.mjs: prompts, replies, tool calls, results of 3–45 KB), then ${m.afterMiB.length} prompts; steady state is the median RSS after the second half of them. The app (TUI) rows resume the same session in a tmux pane.`;
	const header = ["metric", "Rudder", base ? `baseline (${label})` : "baseline", "bar", "holds"];
	return `## Memory in a long session\n\n${how}\n\n${table(header, rows)}`;
}

// `node bench/memory-ceiling.mjs <ours.json> [<baseline.json> <label>]`: the section from saved soak.mjs
// output (two checkouts run side by side, as for bench/RESULTS.md).
if (import.meta.url === `file://${process.argv[1]}`) {
	const [oursFile, baseFile, label] = process.argv.slice(2);
	const read = (file) => JSON.parse(readFileSync(file, "utf8").trim().split("\n").at(-1));
	console.log(memoryCeilingTable(read(oursFile), baseFile ? read(baseFile) : undefined, label));
}
