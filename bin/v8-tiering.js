// How eagerly V8 optimises the app's code. While a reply streams, Rudder's JavaScript runs in thin
// slices: a read burst and a frame every 50 ms, a few hundred microseconds each. With V8's defaults
// those functions reach TurboFan a few at a time all through the first replies, some are deoptimised
// and compiled again, and the compiler threads end up costing more CPU than the optimised code saves
// in a reply (docs/streaming.md, "V8 tiering"). So: every function gets baseline (Sparkplug) code on its
// first call, which is cheap to make and several times faster than the interpreter, and TurboFan waits
// for sixteen times V8's default interrupt budget. A loop that runs long still reaches it within
// milliseconds through on-stack replacement, so heavy work (a diff, a long markdown render) keeps
// optimised code.
import { setFlagsFromString } from "node:v8";

/** V8's default `--interrupt-budget` on Node 20–24 (bytes of bytecode run before a tier-up check). */
const DEFAULT_INTERRUPT_BUDGET = 66 * 1024;

export const TIERING_FLAGS = [`--interrupt-budget=${16 * DEFAULT_INTERRUPT_BUDGET}`, "--always-sparkplug"];

/**
 * The tiering flags to set: all but those the user already gave Node on its command line (Node does
 * not take these V8 flags from NODE_OPTIONS).
 */
export function tieringFlags(execArgv = process.execArgv) {
	const given = execArgv.map((arg) => flagName(arg));
	return TIERING_FLAGS.filter((flag) => !given.includes(flagName(flag)));
}

/** Sets them; to be called before the bundle is compiled. Returns the flags set. */
export function applyTiering() {
	const flags = tieringFlags();
	for (const flag of flags) setFlagsFromString(flag);
	return flags;
}

/** `--interrupt-budget=1` → `interrupt-budget`; V8 reads `_` and `-` alike, and `--no-x` names `x`. */
function flagName(arg) {
	return arg.replace(/^--?/, "").split("=")[0].replaceAll("_", "-").replace(/^no-/, "");
}
