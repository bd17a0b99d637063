// Start-up A/B by CPU time, which a shared machine's load moves far less than wall time:
//   node bench/startup-ab.mjs [--rounds=11] [--modules] <built tree> <built tree> …
// Each tree (a checkout with `npm run build` done, e.g. a `git worktree` of an older commit) is launched
// in a pty (script(1), 120×40) with a temp HOME and the mock model, until the model name is first
// written; one launch per tree first writes the code cache, then the trees alternate for `--rounds`
// rounds. Printed per tree: the median CPU ms of the process at that frame, and its split: Node and
// bin/ before the main script, compiling the main script over its cache, and the rest (the bundle's
// top level and main() to the frame). `--modules` also runs each tree's tsc output once and counts the
// module files (and bytes) loaded before the frame, the bundle's lazy import() boundaries being the
// same there: what start-up evaluates.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL("./lib/", import.meta.url));
const args = process.argv.slice(2);
const rounds = Number(args.find((a) => a.startsWith("--rounds="))?.slice(9) ?? 11);
const countModules = args.includes("--modules");
const trees = args.filter((a) => !a.startsWith("--")).map((t) => resolve(t));
if (trees.length === 0) {
	console.error("usage: node bench/startup-ab.mjs [--rounds=N] [--modules] <built tree>...");
	process.exit(2);
}

const models = {
	providers: {
		mock: {
			baseUrl: "http://127.0.0.1:9/v1",
			api: "openai-completions",
			apiKey: "mock-key",
			models: [{ id: "mock-1", name: "mock-1", contextWindow: 1_000_000, maxTokens: 100_000 }],
		},
	},
};

/** One launch of `entry` (with `tree`'s build) to its first frame; the probe's record, or undefined. */
function launch(tree, entry, cache, extraEnv = {}) {
	const home = mkdtempSync(join(tmpdir(), "rudder-startup-home-"));
	const cwd = mkdtempSync(join(tmpdir(), "rudder-startup-cwd-"));
	try {
		writeFileSync(join(home, "models.json"), JSON.stringify(models));
		const frameLog = join(home, "frame.json");
		const env = {
			...process.env,
			RUDDER_HOME: home,
			HOME: home,
			XDG_CACHE_HOME: cache,
			NO_UPDATE_NOTIFIER: "1",
			RUDDER_DISCOVERY_PORTS: "",
			STARTUP_TREE: tree,
			STARTUP_FRAME_LOG: frameLog,
			TERM: "xterm-256color",
			...extraEnv,
		};
		delete env.CI;
		const command = `stty cols 120 rows 40; exec node --import ${join(here, "first-frame-probe.mjs")} ${entry} --model mock/mock-1 --no-session`;
		try {
			execFileSync("script", ["-qfec", command, "/dev/null"], { cwd, env, stdio: "ignore", timeout: 30_000 });
		} catch {
			// the probe exits the app; a failed launch has no record
		}
		return existsSync(frameLog) ? JSON.parse(readFileSync(frameLog, "utf8")) : undefined;
	} finally {
		rmSync(home, { recursive: true, force: true });
		rmSync(cwd, { recursive: true, force: true });
	}
}

const median = (values) => {
	const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
	return sorted.length ? sorted[Math.floor(sorted.length / 2)] : Number.NaN;
};
const ms = (v) => v.toFixed(1);

const caches = trees.map(() => mkdtempSync(join(tmpdir(), "rudder-startup-cache-")));
try {
	const bin = (tree) => join(tree, "bin", "rudder.js");
	for (const [i, tree] of trees.entries()) launch(tree, bin(tree), caches[i], { STARTUP_LINGER_MS: "2500" });
	const records = trees.map(() => []);
	for (let r = 0; r < rounds; r++) for (const [i, tree] of trees.entries()) records[i].push(launch(tree, bin(tree), caches[i]));
	trees.forEach((tree, i) => {
		const got = records[i].filter(Boolean);
		const m = (f) => median(got.map(f));
		console.log(
			`${tree}: CPU to the first frame, median of ${got.length}: ${ms(m((x) => x.cpuMs))} ms (${got.map((x) => Math.round(x.cpuMs)).join(" ")}); ` +
				`before the main script ${ms(m((x) => x.marks.beforeCompile))}, compiling it ${ms(m((x) => x.marks.afterCompile - x.marks.beforeCompile))}, ` +
				`its top level and main() to the frame ${ms(m((x) => x.cpuMs - x.marks.afterCompile))}; ${got[0]?.builtins.length} Node built-ins`,
		);
	});
	if (countModules) {
		for (const tree of trees) {
			const log = join(mkdtempSync(join(tmpdir(), "rudder-startup-modules-")), "modules.log");
			const frame = launch(tree, join(here, "unbundled-main.mjs"), caches[0], { STARTUP_MODULE_LOG: log });
			const loaded = frame
				? readFileSync(log, "utf8")
						.trim()
						.split("\n")
						.map((l) => l.split(" "))
						.filter(([t]) => Number(t) <= frame.at)
				: [];
			const own = loaded.filter(([, , url]) => !url.includes("/node_modules/"));
			const bytes = (list) => list.reduce((sum, [, size]) => sum + Number(size), 0);
			console.log(
				`${tree}: before the first frame (tsc output) ${loaded.length} module files, ${bytes(loaded)} bytes; of them Rudder's own ${own.length}, ${bytes(own)} bytes`,
			);
			rmSync(join(log, ".."), { recursive: true, force: true });
		}
	}
} finally {
	for (const cache of caches) rmSync(cache, { recursive: true, force: true });
}
