#!/usr/bin/env node
// What a no-op PreToolUse hook adds to each tool call: the engine's `run` for one PreToolUse with no
// hook configured (the matching alone), with `true` as the hook (bash starts and exits), and with a
// node script that reads its stdin and exits (a typical hook written in JavaScript). Medians of
// `--count` calls each, alternating the variants so a busy moment hits them all alike.
// `node bench/hooks.mjs [--count=N]` prints one JSON line (ms per call).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./lib/apps.mjs";

const count = Number(process.argv.find((a) => a.startsWith("--count="))?.slice(8) ?? 50);
const load = (path) => import(pathToFileURL(join(root, "dist", "src", ...path.split("/"))).href);
const { UserHooks } = await load("extensions/hooks/user-hooks.js");
const { findShell } = await load("tools/shell.js");

const project = mkdtempSync(join(tmpdir(), "rudder-bench-hooks-"));
writeFileSync(join(project, "noop.mjs"), 'process.stdin.resume();\nprocess.stdin.on("end", () => process.exit(0));\n');
const env = { ...process.env, RUDDER_HOME: join(project, "home") };
const hook = (command) => ({ event: "PreToolUse", matcher: "Bash", command, timeoutSeconds: 60, file: "bench", project: false });
const engine = (hooks) => new UserHooks({ hooks, cwd: project, env, shell: findShell(), passEnv: [], onEvent: () => {} });
const variants = {
	none: engine([]),
	bashTrue: engine([hook("true")]),
	nodeScript: engine([hook(`node ${join(project, "noop.mjs")}`)]),
};
const input = { event: "PreToolUse", tool: "bash", args: { command: "npm test" }, toolCallId: "call-1" };
const session = { sessionId: "bench", transcriptPath: "", cwd: project, permissionMode: "ask" };

const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
try {
	for (let i = 0; i < count + 2; i++) {
		for (const [name, hooks] of Object.entries(variants)) {
			const start = performance.now();
			const outcome = await hooks.run(input, session);
			const ms = performance.now() - start;
			if (outcome.verdicts.some((v) => v.status !== "ok")) throw new Error(`${name}: ${JSON.stringify(outcome.verdicts[0])}`);
			if (i >= 2) times[name].push(ms); // two warm-up rounds
		}
	}
} finally {
	rmSync(project, { recursive: true, force: true });
}
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const mid = Math.floor(s.length / 2);
	return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const round = (x) => Number(x.toFixed(3));
console.log(
	JSON.stringify({
		unit: "ms per tool call",
		count,
		none: round(median(times.none)),
		bashTrue: round(median(times.bashTrue)),
		nodeScript: round(median(times.nodeScript)),
	}),
);
