// `npm run bench -- [flags]`: the flags, parsed once. Lists are comma-separated.
import { ALL_APPS } from "./registry.mjs";

const BENCHES = [
	"launch",
	"startup-mcp",
	"stream",
	"keys",
	"esc",
	"memory",
	"agent",
	"checkpoint",
	"scale",
	"sandbox",
	"sanitize",
	"hooks",
	"subagents",
	"soak",
];

/** argv → options; throws a one-line error naming the flag for a bad value. */
export function parseOptions(argv) {
	const value = (name) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
	const list = (name) => value(name)?.split(",").filter(Boolean);
	const numbers = (name) => {
		const xs = list(name)?.map((x) => Number(x.replace(/_/g, "")));
		if (xs?.some((x) => !Number.isFinite(x) || x <= 0)) throw new Error(`--${name}: expected positive numbers, got "${value(name)}"`);
		return xs;
	};
	const known = new Set(["--quick", "--write", "--serial"]);
	for (const a of argv) {
		const name = a.split("=")[0];
		if (!known.has(a) && !["--only", "--apps", "--sizes", "--rates", "--runs", "--long-runs", "--baseline"].includes(name)) {
			throw new Error(`unknown flag ${a} (see bench/RESULTS.md for the flags)`);
		}
	}
	const quick = argv.includes("--quick");
	const only = list("only");
	for (const b of only ?? []) if (!BENCHES.includes(b)) throw new Error(`--only: unknown benchmark "${b}" (one of ${BENCHES.join(", ")})`);
	const apps = list("apps") ?? (quick ? ["rudder"] : ALL_APPS);
	for (const a of apps) if (!ALL_APPS.includes(a)) throw new Error(`--apps: unknown app "${a}" (one of ${ALL_APPS.join(", ")})`);
	if (!apps.includes("rudder")) apps.unshift("rudder");
	const runs = numbers("runs")?.[0] ?? (quick ? 1 : 3);
	return {
		quick,
		write: argv.includes("--write"),
		serial: argv.includes("--serial"),
		only,
		want: (bench) => !only || only.includes(bench),
		apps,
		sizes: numbers("sizes") ?? (quick ? [500] : [500, 2000, 5000, 20_000]),
		rates: numbers("rates") ?? (quick ? [2000] : [200, 2000]),
		// Cells whose reply is explicit keep every app (no default trimming).
		explicitMatrix: Boolean(value("sizes") || value("rates")),
		runs,
		// A built checkout of another commit whose memory-in-a-long-session runs sit beside ours.
		baseline: value("baseline"),
		// Replies over LONG_REPLY_S average their own noise: one run each unless asked.
		longRuns: numbers("long-runs")?.[0] ?? 1,
	};
}

/** Replies longer than this (s) run `--long-runs` times. */
export const LONG_REPLY_S = 30;
/**
 * At this rate or slower, replies of SIDE_BY_SIDE_S or more run the apps side by side: at 200 tok/s they
 * mostly wait for tokens (together about half a core of two, measured), so the overlap costs little and
 * the full run fits in 30 minutes.
 */
export const SIDE_BY_SIDE_RATE = 200;
export const SIDE_BY_SIDE_S = 10;
