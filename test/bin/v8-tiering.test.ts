// The tiering flags of bin/v8-tiering.js, set at run time as bin/rudder.js sets them, on the Node that
// runs the tests: asked of V8 itself (%GetOptimizationStatus), so a Node that renamed or ignored a flag
// fails here instead of silently running with its defaults.
import { execFileSync, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript next to bin/rudder.js, without type declarations
import { TIERING_FLAGS, tieringFlags } from "../../bin/v8-tiering.js";

const tieringUrl = new URL("../../bin/v8-tiering.js", import.meta.url).href;

/** V8's OptimizationStatus bits (src/runtime/runtime.h): optimised code, and Sparkplug's baseline code. */
const OPTIMIZED = 1 << 4;
const BASELINE = 1 << 15;

interface Probe {
	/** A frame-sized function after its first call and after 400 calls spread over event-loop turns. */
	firstCall: number;
	manyCalls: number;
	/** A single call that loops five million times. */
	longLoop: number;
	applied: string[];
	stderr?: string;
}

const probeSource = (tiered: boolean) => `
const applied = ${tiered} ? (await import(${JSON.stringify(tieringUrl)})).applyTiering() : [];
const status = new Function("f", "return %GetOptimizationStatus(f);");
const frame = new Function("rows", "let s = 0; for (let i = 0; i < rows.length; i++) s += rows[i].length; return s;");
const rows = Array.from({ length: 40 }, (_, i) => "x".repeat(i));
frame(rows);
const firstCall = status(frame);
for (let i = 0; i < 400; i++) { frame(rows); if (i % 50 === 0) await new Promise((r) => setImmediate(r)); }
// TurboFan compiles on a background thread: give a loaded machine up to two seconds to finish.
const settled = async (f) => { for (let t = 0; t < 40 && !(status(f) & ${1 << 4}); t++) await new Promise((r) => setTimeout(r, 50)); return status(f); };
const manyCalls = await settled(frame);
const loop = new Function("n", "let s = 0; for (let i = 0; i < n; i++) s = (s + i * 31) | 0; return s;");
loop(5e6);
await settled(loop);
loop(5e6);
const longLoop = await settled(loop);
console.log(JSON.stringify({ firstCall, manyCalls, longLoop, applied }));
`;

function probe(tiered: boolean, env: NodeJS.ProcessEnv = {}): Probe {
	const out = execFileSync(process.execPath, ["--allow-natives-syntax", "--input-type=module", "-e", probeSource(tiered)], {
		encoding: "utf8",
		env: { ...process.env, NODE_OPTIONS: "", ...env },
		stdio: ["ignore", "pipe", "pipe"],
	});
	return JSON.parse(out) as Probe;
}

describe("V8 tiering flags", () => {
	it("give a function baseline code on its first call and keep frame-sized work out of TurboFan, where V8's defaults optimise it", () => {
		const defaults = probe(false);
		const tiered = probe(true);
		expect(defaults.firstCall & BASELINE).toBe(0);
		expect(defaults.manyCalls & OPTIMIZED).toBe(OPTIMIZED);
		expect(tiered.applied).toEqual(TIERING_FLAGS);
		expect(tiered.firstCall & BASELINE).toBe(BASELINE);
		expect(tiered.manyCalls & OPTIMIZED).toBe(0);
	});

	it("still optimise a long-running loop, so heavy work keeps TurboFan's code", () => {
		expect(probe(true).longLoop & OPTIMIZED).toBe(OPTIMIZED);
	});

	it("are every one known to this Node: setting them prints nothing (V8 writes 'unrecognized flag' to stderr)", () => {
		const run = spawnSync(
			process.execPath,
			["--input-type=module", "-e", `(await import(${JSON.stringify(tieringUrl)})).applyTiering();`],
			{
				encoding: "utf8",
				env: { ...process.env, NODE_OPTIONS: "" },
			},
		);
		expect(run.status).toBe(0);
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("");
	});

	it("leave a flag the user gave Node on its command line to the user", () => {
		expect(tieringFlags(["--interrupt_budget=5000", "--no-always-sparkplug"])).toEqual([]);
		expect(tieringFlags(["--max-old-space-size=100", "--interrupt-budget=9"])).toEqual(["--always-sparkplug"]);
		expect(tieringFlags([])).toEqual(TIERING_FLAGS);
	});
});
