// Sandbox cost per command: the bash tool runs `true` N times as is and N times inside bwrap (the
// same arguments the session uses), alternating, and reports the median wall time of each and the
// difference. Also the gate's own decision time per call (policy + real paths + the shell parse of a
// command a rule judges) and the parser's one-time load. Prints one JSON line.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./lib/apps.mjs";

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=")));
const count = Number(args.count ?? 100);
const load = (path) => import(pathToFileURL(join(root, "dist", "src", ...path.split("/"))).href);
const { createBashTool } = await load("tools/bash.js");
const { platformSandbox } = await load("tools/sandbox.js");
const { decide } = await load("permissions/policy.js");
const { createWorkspace } = await load("permissions/workspace.js");
const { parseRule } = await load("permissions/rules.js");
const { loadShellParser } = await load("permissions/shell-parse.js");

const ws = mkdtempSync(join(tmpdir(), "rudder-bench-sandbox-"));
const sandbox = platformSandbox({ writable: [ws], network: false });
if (!sandbox) {
	console.log(JSON.stringify({ skipped: "no bwrap on PATH" }));
	process.exit(0);
}
const plain = createBashTool(ws);
const boxed = createBashTool(ws, { wrapSpawn: (file, a, cwd) => sandbox.wrap(file, a, cwd) });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = async (tool) => {
	const start = performance.now();
	await tool.execute("b", { command: "true" });
	return performance.now() - start;
};
const plainMs = [];
const boxedMs = [];
await time(plain);
await time(boxed);
for (let i = 0; i < count; i++) {
	plainMs.push(await time(plain));
	boxedMs.push(await time(boxed));
}
const policy = {
	mode: "ask",
	allow: ["bash(npm test*)", "edit(src/**)"].map((r) => parseRule(r, "bench")),
	deny: ["read(.env)"].map((r) => parseRule(r, "bench")),
	workspace: createWorkspace(ws),
};
const calls = [
	{ tool: "read", args: { path: "src/a/b/c.ts" } },
	{ tool: "edit", args: { path: "src/x.ts", edits: [] } },
	{ tool: "bash", args: { command: "npm test -- --run && git status" } },
];
// Command rules are judged on a parse: the gate loads the parser on the first command a rule judges.
const loadStart = performance.now();
await loadShellParser();
const parserLoadMs = performance.now() - loadStart;
const decisions = 30_000;
const start = performance.now();
for (let i = 0; i < decisions; i++) decide(calls[i % calls.length], policy);
const decideUs = ((performance.now() - start) * 1000) / decisions;
sandbox.dispose();
rmSync(ws, { recursive: true, force: true });
const plainMedian = median(plainMs);
const boxedMedian = median(boxedMs);
console.log(
	JSON.stringify({ count, plainMs: plainMedian, sandboxedMs: boxedMedian, overheadMs: boxedMedian - plainMedian, decideUs, parserLoadMs }),
);
