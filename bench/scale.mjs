// Scale (issue 37): a generated monorepo of N files (default 70,000; bench/lib/monorepo.mjs) and the
// costs that grow with it, beside the single-purpose tools in the same run, rounds interleaved and the
// first round discarded (warm-up): grep for a rare literal vs `rg -F`, find of `*.ts` vs `rg --files
// -g '*.ts'` and vs `rg --files` (and `fd` when installed); the `@` index (listing time, longest
// main-thread stall) and the per-key filter (the work a key waits for, typing queries one key at a
// time at 100k+ paths); checkpoints: the first snapshot, incremental ones after a few changes, the
// main thread's stalls meanwhile, the prompt's wait, how long a command (bash) sent at once would wait
// for the point to be whole, and whether the point covers everything then. Prints one JSON line. Needs a build (dist/)
// and `rg` on PATH. Flags: --files= --rounds= --ws= (an existing tree, kept).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./lib/apps.mjs";
import { DEEP_FILE, makeMonorepo, NEEDLE } from "./lib/monorepo.mjs";
import { withStalls } from "./lib/stalls.mjs";
import { withThreadStalls } from "./lib/thread-stalls.mjs";

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=")));
const files = Number(args.files ?? 70_000);
const rounds = Number(args.rounds ?? 5);
const dist = (path) => import(pathToFileURL(join(root, "dist", "src", path)).href);
const { createGrepTool } = await dist("tools/grep.js");
const { createFindTool } = await dist("tools/find.js");
const { FileIndex } = await dist("tui/input/file-index.js");
const { PathSearch } = await dist("tui/input/path-search.js");
const { fuzzyFilter } = await dist("tui/input/fuzzy.js");
const { openCheckpoints, coversEditsOnly } = await dist("session/checkpoints/index.js");

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round2 = (x) => Math.round(x * 100) / 100;
const time = async (fn) => {
	const start = performance.now();
	await fn();
	return performance.now() - start;
};
const stalls = (fn) => withStalls(fn, 2);
const threadStalls = (fn) => withThreadStalls(fn, 2);
const has = (bin) => spawnSync(bin, ["--version"], { stdio: "ignore" }).status === 0;

const tree = args.ws ? { ws: args.ws, files, remove: () => {} } : makeMonorepo(files);
const { ws } = tree;
const store = mkdtempSync(join(tmpdir(), "rudder-bench-scale-store-"));
const loadBefore = loadavg()[0];
const out = { files, rounds, medianMs: {} };
try {
	// 1. Search: each tool beside its reference, interleaved; round 0 warms up and is dropped.
	const grep = createGrepTool(ws);
	const find = createFindTool(ws, { defaultLimit: 1_000_000 });
	const rg = (argv) => execFileSync("rg", argv, { cwd: ws, maxBuffer: 1 << 28 });
	const fd = has("fdfind") ? "fdfind" : has("fd") ? "fd" : undefined;
	const samples = { grep: [], rgGrep: [], find: [], rgFilesTs: [], rgFiles: [], fd: [] };
	for (let r = 0; r <= rounds; r++) {
		const take = (key, ms) => r > 0 && samples[key].push(ms);
		take("grep", await time(() => grep.execute("b", { pattern: NEEDLE, literal: true })));
		take("rgGrep", await time(() => rg(["-n", "-F", NEEDLE, "."])));
		take("find", await time(() => find.execute("b", { pattern: "*.ts" })));
		take("rgFilesTs", await time(() => rg(["--files", "-g", "*.ts", "."])));
		take("rgFiles", await time(() => rg(["--files", "."])));
		if (fd) take("fd", await time(() => execFileSync(fd, ["--glob", "*.ts", "--type", "f"], { cwd: ws, maxBuffer: 1 << 28 })));
	}
	for (const [key, xs] of Object.entries(samples)) if (xs.length) out.medianMs[key] = round2(median(xs));

	// 2. The `@` index: listing in the background, then typing queries one key at a time.
	const indexRuns = [];
	let listing;
	for (let r = 0; r <= Math.min(rounds, 3); r++) {
		const index = new FileIndex(ws, () => {});
		const run = await stalls(() => index.refresh());
		if (r > 0) indexRuns.push(run);
		listing = index.current();
	}
	out.indexPaths = listing.size;
	out.medianMs.indexList = round2(median(indexRuns.map((r) => r.ms)));
	out.indexMaxStallMs = round2(Math.max(...indexRuns.map((r) => r.stallMs)));
	const perKey = [];
	const toSettle = [];
	let found = false;
	for (let r = 0; r <= rounds; r++) {
		for (const query of ["targetwidget", "component-42", "pkgsrcmod"]) {
			let settled;
			const search = new PathSearch({ limit: 50, onUpdate: () => settled?.() });
			for (let k = 1; k <= query.length; k++) {
				const start = performance.now();
				search.find(query.slice(0, k), listing);
				const keyMs = performance.now() - start;
				// The rest runs between keys (a fast typist's next key cancels it): until the result settles.
				if (search.searching()) await new Promise((res) => (settled = res));
				if (r > 0) {
					perKey.push(keyMs);
					toSettle.push(performance.now() - start);
				}
			}
			if (query === "targetwidget") found ||= search.find(query, listing)[0] === DEEP_FILE;
		}
	}
	out.medianMs.keyFilter = round2(median(perKey));
	out.maxKeyFilterMs = round2(Math.max(...perKey));
	out.medianMs.keyToSettled = round2(median(toSettle));
	out.maxKeyToSettledMs = round2(Math.max(...toSettle));
	out.deepFileFound = found;
	// For the record: the old synchronous filter over every path, per key.
	const full = [];
	const paths = Array.from({ length: listing.size }, (_, i) => listing.path(i));
	for (const query of ["t", "ta", "tar", "targ"]) full.push(await time(() => fuzzyFilter(query, paths, 50)));
	out.medianMs.keyFilterFullScan = round2(median(full));

	// 3. Checkpoints: the first snapshot (a new store), then prompts after a few changes each. Stalls
	// are split into the main thread's own run time and its wait for a core (bench/lib/thread-stalls.mjs).
	const first = await threadStalls(async () => {
		const opened = await openCheckpoints({ workspace: ws, storeRoot: store, promptWaitMs: 600_000 });
		await opened.engine.snapshot();
		return opened.engine;
	});
	out.medianMs.firstSnapshot = Math.round(first.ms);
	const engine = first.value;
	const incremental = [];
	const promptWait = [];
	const commandWait = [];
	let fullPoints = 0;
	let wholeLater = 0;
	const reopened = (await openCheckpoints({ workspace: ws, storeRoot: store })).engine; // default 50 ms prompt wait
	for (let r = 0; r < rounds; r++) {
		const change = () => {
			for (let c = 0; c < 10; c++) writeFileSync(join(ws, `packages/pkg-0/src/module-${c}/changed-${r}.ts`), `// round ${r}\n`);
		};
		change();
		incremental.push(await threadStalls(() => engine.snapshot()));
		change();
		writeFileSync(join(ws, "README.md"), `round ${r}\n`);
		const start = performance.now();
		const point = await reopened.promptSnapshot();
		promptWait.push(performance.now() - start);
		// A command (bash) at once after the prompt: how long it would wait for the point to be whole.
		await reopened.untrackedChangesMayStart();
		commandWait.push(performance.now() - start);
		const whole = point.whole ? await point.whole : { id: point.id };
		if ("id" in whole && !coversEditsOnly(whole.id)) fullPoints++;
		if (point.whole && "id" in whole) wholeLater++;
		await reopened.snapshot(); // settles the background run before the next round
	}
	out.medianMs.incrementalSnapshot = Math.round(median(incremental.map((r) => r.ms)));
	const snapshotRuns = [first, ...incremental];
	const longest = snapshotRuns.reduce((a, b) => (b.stallMs > a.stallMs ? b : a));
	out.snapshotMaxStallMs = round2(longest.stallMs);
	if (longest.stallOnCoreMs !== undefined) out.snapshotMaxStallOnCoreMs = round2(longest.stallOnCoreMs);
	if (first.maxOnCoreMs !== undefined) out.snapshotMaxMainThreadRunMs = round2(Math.max(...snapshotRuns.map((r) => r.maxOnCoreMs)));
	out.medianMs.promptWait = round2(median(promptWait));
	out.medianMs.commandWait = round2(median(commandWait));
	out.promptPointsFull = `${fullPoints}/${rounds}`;
	out.promptPointsMadeWhole = `${wholeLater}/${rounds}`;
	// The background pack writes into the store: the store goes once it is done.
	const packing = await time(() => Promise.all([engine.packed(), reopened.packed()]));
	out.packWaitedMs = Math.round(packing);
} finally {
	rmSync(store, { recursive: true, force: true });
	tree.remove();
}
const m = out.medianMs;
out.ratios = {
	grepVsRg: round2(m.grep / m.rgGrep),
	findVsRgFilesTs: round2(m.find / m.rgFilesTs),
	findVsRgFiles: round2(m.find / m.rgFiles),
	...(m.fd ? { findVsFd: round2(m.find / m.fd) } : {}),
};
out.load = { before: round2(loadBefore), after: round2(loadavg()[0]) };
console.log(JSON.stringify(out));
