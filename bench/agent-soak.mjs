#!/usr/bin/env node
// Soak test of the Agent: the randomized scenario body of test/agent/agent-random.test.ts, run many
// times (default 10,000) against the built library in dist/ (run `npm run build` first). The body is
// TypeScript that imports nothing at runtime, so esbuild's transform is enough to load it.
// Usage: node bench/agent-soak.mjs [--runs=10000] [--seed=N]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { transform } from "esbuild";
import fc from "fast-check";

const root = join(import.meta.dirname, "..");
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=")));
const numRuns = Number(args.runs ?? 10_000);
const seed = args.seed === undefined ? Date.now() : Number(args.seed);

const agent = await import(pathToFileURL(join(root, "dist", "src", "agent", "index.js")).href);
const ai = await import(pathToFileURL(join(root, "dist", "src", "ai", "index.js")).href);
const lib = {
	Agent: agent.Agent,
	createAssistantMessageEventStream: ai.createAssistantMessageEventStream,
	createOutputMessage: ai.createOutputMessage,
};

const source = readFileSync(join(root, "test", "agent", "agent-random-body.ts"), "utf8");
const { code } = await transform(source, { loader: "ts", format: "esm" });
const body = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);

const unhandled = [];
process.on("unhandledRejection", (reason) => unhandled.push(reason));

const t0 = performance.now();
let failure;
try {
	await fc.assert(
		fc.asyncProperty(body.scenarioArbitrary(fc), (scenario) => body.runScenario(lib, scenario)),
		{
			numRuns,
			seed,
		},
	);
} catch (error) {
	failure = error;
}
const seconds = (performance.now() - t0) / 1000;
if (failure) {
	console.log(
		`agent-soak: FAILED (seed ${seed}) after ${seconds.toFixed(1)} s: ${String(failure.message).split("\n").slice(0, 3).join(" | ")}`,
	);
	process.exit(1);
}
const extra = unhandled.length > 0 ? `, ${unhandled.length} unhandled rejections` : "";
console.log(`agent-soak: ${numRuns} random scenarios passed in ${seconds.toFixed(1)} s (seed ${seed})${extra}`);
process.exit(unhandled.length > 0 ? 1 : 0);
