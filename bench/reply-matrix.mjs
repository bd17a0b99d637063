// The reply matrix: every (app, size, rate) cell, a fresh process each, a cold and a warm reply, medians
// over runs. Fast cells run one app at a time; slow long ones run the apps side by side unless --serial,
// each in its own pane against its own mock, to fit the full run in 30 minutes.
import { LONG_REPLY_S, SIDE_BY_SIDE_RATE, SIDE_BY_SIDE_S } from "./lib/options.mjs";
import { APPS } from "./lib/registry.mjs";
import { median } from "./lib/terminal.mjs";
import { replyPair } from "./replies.mjs";

export const METRICS = [
	"cpuS",
	"frames",
	"cpuPerFrameMs",
	"cpuPerTokenUs",
	"bytesPerToken",
	"fullClears",
	"firstTenthS",
	"lastTenthS",
	"rssAfterMiB",
];

/** The cells to run, each {tokens, rate, runs, sideBySide, apps}, in order. */
export function planCells(options, apps) {
	const cells = [];
	for (const rate of options.rates) {
		for (const tokens of options.sizes) {
			const seconds = tokens / rate;
			const inCell = apps.filter((a) => options.explicitMatrix || !(seconds > (APPS[a].maxDefaultReplyS ?? Number.POSITIVE_INFINITY)));
			cells.push({
				tokens,
				rate,
				runs: seconds > LONG_REPLY_S ? options.longRuns : options.runs,
				sideBySide: !options.serial && rate <= SIDE_BY_SIDE_RATE && seconds >= SIDE_BY_SIDE_S,
				apps: inCell,
			});
		}
	}
	return cells;
}

/**
 * Runs the cells; `log(line)` reports progress. Returns {results, errors}: results[app][cellKey] =
 * {cold, warm, runs, frameMethod}, each of cold/warm holding the median of every metric; `cpuMethods`, how
 * CPU was read (bench/lib/cpu-meter.mjs).
 */
export async function runMatrix(cells, log) {
	const raw = {};
	const errors = [];
	const cpuMethods = new Set();
	const one = async (app, cell) => {
		const t0 = performance.now();
		try {
			const pair = await replyPair(APPS[app].make, cell);
			raw[app] = raw[app] ?? {};
			raw[app][key(cell)] = [...(raw[app][key(cell)] ?? []), pair];
			cpuMethods.add(pair.cold.cpuMethod);
			log(
				`  ${app} ${key(cell)}: cold ${pair.cold.cpuS.toFixed(2)} / warm ${pair.warm.cpuS.toFixed(2)} CPU-s (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
			);
		} catch (error) {
			errors.push(`${APPS[app].label}, ${key(cell)}: ${String(error.message).split("\n")[0]}`);
			log(`  ${app} ${key(cell)}: FAILED ${String(error.message).split("\n")[0]}`);
		}
	};
	for (const cell of cells) {
		log(`replies ${key(cell)} (${cell.runs} run${cell.runs > 1 ? "s" : ""}${cell.sideBySide ? ", side by side" : ""}) …`);
		for (let r = 0; r < cell.runs; r++) {
			// An app with `maxRuns` (not in the bar, slow) runs fewer times than the others.
			const apps = cell.apps.filter((a) => r < (APPS[a].maxRuns ?? Number.POSITIVE_INFINITY));
			if (cell.sideBySide) {
				await Promise.all(apps.filter((a) => !APPS[a].alone).map((a) => one(a, cell)));
				for (const a of apps.filter((x) => APPS[x].alone)) await one(a, cell);
			} else {
				for (const a of apps) await one(a, cell);
			}
		}
	}
	const results = {};
	for (const [app, byCell] of Object.entries(raw)) {
		for (const [k, pairs] of Object.entries(byCell)) {
			const med = (which) =>
				Object.fromEntries(METRICS.map((m) => [m, median(pairs.map((p) => p[which][m]).filter((x) => !Number.isNaN(x)))]));
			results[app] = results[app] ?? {};
			results[app][k] = {
				cold: med("cold"),
				warm: med("warm"),
				runs: pairs.length,
				frameMethod: pairs.some((p) => p.cold.syncBlocks + p.warm.syncBlocks > 0) ? "sync" : "bursts",
			};
		}
	}
	return { results, errors, cpuMethods: [...cpuMethods] };
}

export const key = (cell) => `${cell.tokens.toLocaleString("en")} tok @ ${cell.rate.toLocaleString("en")}/s`;
