// Loaded with `node --import` by bench/startup-ab.mjs into a Rudder launch: at the first terminal write
// that shows the model name (stdout.write, or fs.writeSync to fd 1 as the frame writer does) it writes
// the process's CPU time, the CPU time at each step of running the bundle (bin/load-bundle.js's
// vm.Script for rudder.cjs: compiling it over the code cache, running it) and the Node built-ins loaded
// to STARTUP_FRAME_LOG, then exits after STARTUP_LINGER_MS (long enough, once, for the code cache to be
// written). With STARTUP_MODULE_LOG it also logs every module file loaded (ES modules through loader
// hooks, CommonJS through Module._load), with its size and the time, for counting what start-up loads.
import fs from "node:fs";
import { createRequire, register, syncBuiltinESMExports } from "node:module";
import vm from "node:vm";

const cpuNow = () => {
	const c = process.cpuUsage();
	return (c.user + c.system) / 1000;
};
const marks = { start: cpuNow() };
const moduleLog = process.env.STARTUP_MODULE_LOG;
if (moduleLog) {
	register("./module-log-hooks.mjs", import.meta.url);
	const Module = createRequire(import.meta.url)("node:module");
	const load = Module._load;
	const seen = new Set();
	Module._load = function (...args) {
		const [request, parent, isMain] = args;
		const result = load.apply(this, args);
		try {
			const file = Module._resolveFilename(request, parent, isMain);
			if (file.startsWith("/") && !seen.has(file)) {
				seen.add(file);
				fs.appendFileSync(moduleLog, `${Date.now()} ${fs.statSync(file).size} file://${file}\n`);
			}
		} catch {
			// a built-in, or gone: not a file start-up read
		}
		return result;
	};
}

// The main script's compile (over its code cache) and run, by CPU time.
const Script = vm.Script;
vm.Script = class extends Script {
	constructor(source, options) {
		const main = String(options?.filename ?? "").endsWith("rudder.cjs");
		if (main) marks.beforeCompile = cpuNow();
		super(source, options);
		if (main) {
			marks.afterCompile = cpuNow();
			this.mainScript = true;
		}
	}
	runInThisContext(...args) {
		if (this.mainScript) marks.beforeRun = cpuNow();
		return super.runInThisContext(...args);
	}
};

let written = "";
let done = false;
function look(chunk) {
	if (done) return;
	written += String(chunk);
	if (!written.includes(process.env.STARTUP_MARK ?? "mock-1")) return;
	done = true;
	const builtins = process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice(13));
	fs.writeFileSync(process.env.STARTUP_FRAME_LOG, JSON.stringify({ at: Date.now(), cpuMs: cpuNow(), marks, builtins }));
	setTimeout(() => process.exit(0), Number(process.env.STARTUP_LINGER_MS ?? 0));
}
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
	look(chunk);
	return write(chunk, ...rest);
};
const writeSync = fs.writeSync;
fs.writeSync = (fd, data, ...rest) => {
	if (fd === 1) look(typeof data === "string" ? data : Buffer.from(data.buffer ?? data, data.byteOffset ?? 0, data.byteLength).toString());
	return writeSync(fd, data, ...rest);
};
syncBuiltinESMExports();
