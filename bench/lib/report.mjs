// The results as Markdown tables: pure functions of the measured numbers.
import { APPS } from "./registry.mjs";

export const fmt = (n) =>
	n === undefined || Number.isNaN(n) ? "—" : Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(Math.abs(n) < 1 ? 3 : 2);

export const table = (head, rows) =>
	[`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");

/** The best (lowest) CPU of the bar's references measured for this cell and reply, with its app. */
export function bestReference(results, apps, cellKey, which) {
	let best;
	for (const app of apps) {
		if (!APPS[app].bar) continue;
		const cpu = results[app]?.[cellKey]?.[which]?.cpuS;
		if (cpu !== undefined && !Number.isNaN(cpu) && (!best || cpu < best.cpu)) best = { app, cpu };
	}
	return best;
}

/** CPU-seconds per reply, every app, and Rudder's ratio to the best of pi, Claude Code and Codex. */
export function cpuTable(cellKeys, results, apps) {
	const rows = [];
	const verdicts = [];
	for (const k of cellKeys) {
		for (const which of ["cold", "warm"]) {
			const ours = results.rudder?.[k]?.[which]?.cpuS;
			const best = bestReference(results, apps, k, which);
			const ratio = best && ours !== undefined ? ours / best.cpu : undefined;
			const holds = ratio === undefined ? undefined : ratio <= 0.2;
			if (holds !== undefined) verdicts.push(holds);
			rows.push([
				k,
				which === "cold" ? "first (cold)" : "second (warm)",
				...apps.map((a) => fmt(results[a]?.[k]?.[which]?.cpuS)),
				best ? `${fmt(best.cpu)} (${APPS[best.app].label.split(" ")[0]})` : "—",
				ratio === undefined ? "—" : `${ratio.toFixed(2)}×`,
				holds === undefined ? "—" : holds ? "yes" : "**no**",
			]);
		}
	}
	const head = ["reply", "reply in process", ...apps.map((a) => APPS[a].label), "best of pi/CC/Codex", "ratio", "≤ 0.2×"];
	return { markdown: table(head, rows), verdicts };
}

/** Per reply and app: frames drawn · CPU ms per frame · CPU µs per token · bytes to the tty per token. */
export function frameTable(cellKeys, results, apps) {
	const rows = [];
	for (const k of cellKeys) {
		for (const which of ["cold", "warm"]) {
			rows.push([
				k,
				which,
				...apps.map((a) => {
					const r = results[a]?.[k]?.[which];
					return r ? `${fmt(r.frames)} · ${fmt(r.cpuPerFrameMs)} · ${fmt(r.cpuPerTokenUs)} · ${fmt(r.bytesPerToken)}` : "—";
				}),
			]);
		}
	}
	const methods = apps.map((a) => {
		const any = Object.values(results[a] ?? {})[0];
		return `${APPS[a].label}${any ? ` (${any.frameMethod === "sync" ? "sync blocks" : "write bursts"})` : ""}`;
	});
	return table(["reply", "", ...methods], rows);
}

/** Launch → model name shown, → settled, against the bare-node floor measured in the same run. */
export function launchTable(launches, apps) {
	const floor = launches.node?.settledMs;
	const rows = [];
	let holds;
	const order = ["node", ...apps];
	for (const a of order) {
		const r = launches[a];
		if (!r) continue;
		const over = floor === undefined ? undefined : r.settledMs - floor;
		const bar = a === "rudder" ? "≤ node + 150 ms" : "—";
		if (a === "rudder" && over !== undefined) holds = over <= 150;
		rows.push([
			a === "node" ? "bare `node -e` (floor)" : APPS[a].label,
			fmt(r.modelMs),
			fmt(r.settledMs),
			a === "node" || over === undefined ? "—" : `+${fmt(over)}`,
			bar,
			a === "rudder" && holds !== undefined ? (holds ? "yes" : "**no**") : "—",
		]);
	}
	const head = ["app", "launch → model name shown (ms)", "launch → screen settled (ms)", "settled − node (ms)", "bar", "holds"];
	return { markdown: table(head, rows), holds };
}

/** The other benchmarks: Rudder beside pi where pi has one. */
export function rowsTable(rows) {
	return table(
		["benchmark", "metric", "Rudder (median)", "pi 0.73.1 (median)", "ratio", "bar", "holds"],
		rows.map((r) => [
			r.benchmark,
			r.metric,
			fmt(r.ours),
			fmt(r.ref),
			r.ref ? `${(r.ours / r.ref).toFixed(2)}×` : "—",
			r.bar || "—",
			r.pass === undefined ? "—" : r.pass ? "yes" : "**no**",
		]),
	);
}
