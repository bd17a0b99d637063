// Checkpoint cost: the shadow git engine on a generated tree of N files (default 10,000 in 100
// folders, ~1 KB each, plus a .gitignore'd folder of the same size that must cost nothing). Measures
// the first snapshot (a new store), then incremental ones after changing a few files, and the longest
// event-loop stall during a snapshot (snapshots run git as child processes, so the input stays live).
// Prints one JSON line.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./lib/apps.mjs";
import { withStalls } from "./lib/stalls.mjs";

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=")));
const files = Number(args.files ?? 10_000);
const rounds = Number(args.rounds ?? 5);
const changed = Number(args.changed ?? 10);

const { openCheckpoints } = await import(pathToFileURL(join(root, "dist", "src", "session", "checkpoints", "index.js")).href);

const base = mkdtempSync(join(tmpdir(), "rudder-bench-cp-"));
const ws = join(base, "ws");
const perFolder = 100;
const line = "export const value = 'a line of ordinary source text for the benchmark';\n";
for (let i = 0; i < files; i++) {
	const folder = join(ws, "src", `d${Math.floor(i / perFolder)}`);
	if (i % perFolder === 0) mkdirSync(folder, { recursive: true });
	writeFileSync(join(folder, `f${i}.ts`), `// file ${i}\n${line.repeat(13)}`);
}
mkdirSync(join(ws, "node_modules", "pkg"), { recursive: true });
for (let i = 0; i < files / 10; i++) writeFileSync(join(ws, "node_modules", "pkg", `m${i}.js`), line);
writeFileSync(join(ws, ".gitignore"), "node_modules/\n");

const time = (fn) => withStalls(fn);

try {
	// promptWaitMs: how long a snapshot may take before a prompt goes on without it; long here, so
	// the times below are git's own (a prompt waits at most 50 ms by default).
	const first = await time(async () => {
		const opened = await openCheckpoints({ workspace: ws, storeRoot: join(base, "store"), promptWaitMs: 120_000 });
		await opened.engine.snapshot();
		return opened;
	});
	const { engine } = first.value;
	const incremental = [];
	for (let r = 0; r < rounds; r++) {
		for (let c = 0; c < changed; c++) {
			const i = (r * 997 + c * 131) % files;
			writeFileSync(join(ws, "src", `d${Math.floor(i / perFolder)}`, `f${i}.ts`), `// changed in round ${r}\n${line}`);
		}
		writeFileSync(join(ws, "src", `new-${r}.ts`), line);
		incremental.push(await time(() => engine.snapshot()));
	}
	const unchanged = await time(() => engine.snapshot());
	const sorted = incremental.map((t) => t.ms).sort((a, b) => a - b);
	console.log(
		JSON.stringify({
			engine: engine.kind,
			files,
			firstMs: first.ms,
			incrementalMedianMs: sorted[Math.floor(sorted.length / 2)],
			unchangedMs: unchanged.ms,
			maxStallMs: Math.max(first.stallMs, ...incremental.map((t) => t.stallMs)),
		}),
	);
} finally {
	rmSync(base, { recursive: true, force: true });
}
