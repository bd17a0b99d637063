// Search cost: the grep and find tools beside ripgrep on a generated tree of N files (default 20,000
// in 200 folders, ~1 KB each, plus an ignored node_modules). Rounds are interleaved (tool, rg, tool,
// rg …) and the medians printed as one JSON line: grep for a rare literal vs `rg -F`, find of `*.ts` vs
// `rg --files -g '*.ts'`; the Node fallback of each for the record. Needs a build (dist/) and `rg` on PATH. Flags: --files= --rounds=.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./lib/apps.mjs";

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=")));
const files = Number(args.files ?? 20_000);
const rounds = Number(args.rounds ?? 5);

const tools = (name) => import(pathToFileURL(join(root, "dist", "src", "tools", `${name}.js`)).href);
const { createGrepTool } = await tools("grep");
const { createFindTool } = await tools("find");

const ws = mkdtempSync(join(tmpdir(), "rudder-bench-search-"));
const line = "export const value = 'a line of ordinary source text for the benchmark';\n";
for (let i = 0; i < files; i++) {
	const folder = join(ws, "src", `d${Math.floor(i / 100)}`);
	if (i % 100 === 0) mkdirSync(folder, { recursive: true });
	writeFileSync(
		join(folder, `f${i}.${i % 4 === 0 ? "md" : "ts"}`),
		`// file ${i}\n${line.repeat(13)}${i === files - 7 ? "rareNeedle42\n" : ""}`,
	);
}
mkdirSync(join(ws, "node_modules", "pkg"), { recursive: true });
for (let i = 0; i < files / 10; i++) writeFileSync(join(ws, "node_modules", "pkg", `m${i}.js`), "rareNeedle42\n");
writeFileSync(join(ws, ".gitignore"), "node_modules/\n");
execFileSync("git", ["init", "--quiet"], { cwd: ws });

const grep = createGrepTool(ws);
const find = createFindTool(ws, { defaultLimit: 1_000_000 });
// The pure-Node fallback (no rg on PATH), for the record.
const grepNode = createGrepTool(ws, { ripgrep: false });
const findNode = createFindTool(ws, { defaultLimit: 1_000_000, ripgrep: false });
const rg = (argv) => execFileSync("rg", argv, { cwd: ws, maxBuffer: 1 << 28, encoding: "utf8" });
const time = async (fn) => {
	const start = performance.now();
	await fn();
	return performance.now() - start;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const samples = { grep: [], rgGrep: [], find: [], rgFiles: [], grepNode: [], findNode: [] };
try {
	for (let r = 0; r < rounds; r++) {
		samples.grep.push(await time(() => grep.execute("b", { pattern: "rareNeedle42", literal: true })));
		samples.rgGrep.push(await time(() => rg(["-n", "-F", "rareNeedle42", "."])));
		samples.find.push(await time(() => find.execute("b", { pattern: "*.ts" })));
		samples.rgFiles.push(await time(() => rg(["--files", "-g", "*.ts", "."])));
		samples.grepNode.push(await time(() => grepNode.execute("b", { pattern: "rareNeedle42", literal: true })));
		samples.findNode.push(await time(() => findNode.execute("b", { pattern: "*.ts" })));
	}
} finally {
	rmSync(ws, { recursive: true, force: true });
}
const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, Math.round(median(v))]));
console.log(
	JSON.stringify({
		files,
		rounds,
		medianMs: m,
		grepVsRg: +(m.grep / m.rgGrep).toFixed(1),
		findVsRgFiles: +(m.find / m.rgFiles).toFixed(1),
	}),
);
