// Runs the CommonJS bundle (scripts/bundle.mjs) through vm.Script with a V8 code cache, so a launch
// after the first skips parsing it and compiling the functions start-up runs, and, once a process has
// answered a prompt, the functions a reply runs (docs/startup.md).
// The cache is one file per Node version, architecture and bundle hash in the user's cache folder
// (a 0700 folder, 0600 files), checked by a SHA-256 of its contents before V8 sees it; anything
// missing, stale, corrupt or rejected by V8 is ignored and written anew. Never throws for the cache.
import { createHash } from "node:crypto";
import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

const MAGIC = "rudder-code-cache-2\n";
const DIGEST_LENGTH = 32;

/**
 * How far the process that wrote a cache had run, so a later one knows whether it can add to it:
 * "start-up" holds the functions compiled up to the first screen, "reply" also those of a first reply
 * (written once, by the first process that answered a prompt over a start-up cache).
 */
export const STAGES = ["start-up", "reply"];

/** The cache file for this Node and this bundle. */
export function cacheFileFor(cacheDir, bundleHash) {
	return join(cacheDir, `${process.version}-${process.arch}-${bundleHash}.bin`);
}

/**
 * The cached data in `file` and the stage it was written at ({data, stage}), or undefined when it is
 * missing, truncated, of an unknown stage or does not match its digest (which covers the stage too).
 */
export function readCache(file) {
	let bytes;
	try {
		bytes = readFileSync(file);
	} catch {
		return undefined;
	}
	const head = MAGIC.length;
	if (bytes.length <= head + 1 + DIGEST_LENGTH || bytes.toString("latin1", 0, head) !== MAGIC) return undefined;
	const stage = STAGES[bytes[head]];
	const digest = bytes.subarray(head + 1, head + 1 + DIGEST_LENGTH);
	const data = bytes.subarray(head + 1 + DIGEST_LENGTH);
	if (stage === undefined || !digestOf(bytes[head], data).equals(digest)) return undefined;
	return { data, stage };
}

const ms = (t) => `${t.toFixed(1)} ms`;

const digestOf = (stageByte, data) =>
	createHash("sha256")
		.update(Buffer.from([stageByte]))
		.update(data)
		.digest();

/**
 * Writes `makeData()` as `file` at `stage` (atomically, 0600, in a 0700 folder) and removes the other
 * caches there but those in `keep` (the other scripts' of this build). False when it cannot; the data
 * is made only once the folder is there.
 */
export function writeCache(file, makeData, stage = STAGES[0], keep = [file]) {
	const dir = dirname(file);
	try {
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		chmodSync(dir, 0o700);
		for (const name of readdirSync(dir))
			if (name.endsWith(".bin") && !keep.includes(join(dir, name))) rmSync(join(dir, name), { force: true });
		const temp = `${file}.${process.pid}.tmp`;
		const data = makeData();
		const stageByte = STAGES.indexOf(stage);
		// Separate writes, not one concatenated copy: the data is ~2 MB, and this runs in a live session.
		const fd = openSync(temp, "w", 0o600);
		try {
			for (const part of [Buffer.from(MAGIC, "latin1"), Buffer.from([stageByte]), digestOf(stageByte, data), data]) writeSync(fd, part);
		} finally {
			closeSync(fd);
		}
		renameSync(temp, file);
		return true;
	} catch {
		return false;
	}
}

/**
 * Built-in modules the scripts require when loaded but use only to run a command (commander requires
 * it for subcommands it never runs here, the tools for their processes): loaded on first use, ~3 ms
 * of start-up (with dgram and its other modules) off the first frame.
 */
const LAZY_BUILTINS = new Set(["child_process", "node:child_process"]);

/**
 * A stand-in for the module `load()` returns, made by it on the first use of an export (a property
 * read, `in`, or listing the keys); every use after reads the real module. Used the way the bundle
 * uses a module (`mod.name(...)`), it behaves as the module itself.
 */
export function lazyModule(load) {
	let real;
	const target = () => {
		real ??= load();
		return real;
	};
	return new Proxy(Object.create(null), {
		get: (_, key) => target()[key],
		has: (_, key) => key in target(),
		ownKeys: () => Reflect.ownKeys(target()),
		getOwnPropertyDescriptor: (_, key) => {
			const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
			// A proxy may not report a property its (empty) target lacks as non-configurable.
			return descriptor && { ...descriptor, configurable: true };
		},
	});
}

/** `base` (a Node require), with LAZY_BUILTINS answered by lazy modules. */
function withLazyBuiltins(base) {
	const lazy = new Map();
	const require = (id) => {
		if (!LAZY_BUILTINS.has(id)) return base(id);
		if (!lazy.has(id))
			lazy.set(
				id,
				lazyModule(() => base(id)),
			);
		return lazy.get(id);
	};
	return Object.assign(require, { resolve: base.resolve, cache: base.cache, main: base.main });
}

/**
 * Compiles and runs one CommonJS script (`file`, its build hash `hash`) with its code cache when
 * valid; `require` is what the script's own require() calls reach. Returns {exports, status, stage,
 * cacheFile, script, reached}.
 */
function runScript(file, hash, cacheDir, require, log) {
	const cacheFile = cacheDir ? cacheFileFor(cacheDir, hash) : undefined;
	const started = performance.now();
	const cached = cacheFile ? readCache(cacheFile) : undefined;
	const script = new vm.Script(
		`(function (exports, require, module, __filename, __dirname, __rudderBundleUrl) {${readFileSync(file, "utf8")}\n})`,
		{ filename: file, cachedData: cached?.data, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER },
	);
	const status = cached === undefined ? "missing" : script.cachedDataRejected ? "rejected" : "used";
	const compiled = performance.now();
	const module = { exports: {} };
	script.runInThisContext()(module.exports, require, module, file, dirname(file), pathToFileURL(file).href);
	const stage = status === "used" ? cached.stage : undefined;
	log?.(
		`${basename(file)} cache ${status}${stage ? ` (${stage})` : ""}: read+compile ${ms(compiled - started)}, run ${ms(performance.now() - compiled)}`,
	);
	// `reached`: the furthest stage on disk (or written by this process); -1 for none. Nothing kept
	// refers to `cached`: its data are garbage once V8 has them.
	return { exports: module.exports, status, stage, cacheFile, script, reached: stage === undefined ? -1 : STAGES.indexOf(stage) };
}

/**
 * Evaluates the bundle at `file` (its build hash `bundleHash`), with the code cache of `cacheDir` when
 * one is there and valid. `vendors` ({file, hash, modules, deferred} of bundle.json) are scripts of
 * their own, each run (with its own cache) when the bundle first requires one of its modules, or, for a
 * `deferred` one, when the bundle first uses an export of one (its modules are required at load but
 * first used after the first frame). Returns the
 * bundle's exports, what became of its cache ("used", "missing", "rejected"), the stage of the cache
 * used, and `saveCache(stage)`: it writes the cache of each script run so far whose cache on disk is of
 * an earlier stage (or none), once per stage. V8's data made after the code ran holds every function
 * compiled by then, those from the cache included, so the reply stage adds to the start-up one.
 * `log(line)`, when given, hears what became of each script's cache and what each save wrote (the
 * RUDDER_DEBUG_CODE_CACHE file of bin/rudder.js): a launch that keeps compiling from source shows there.
 */
export function loadBundle({ file, bundleHash, cacheDir, vendors = [], log }) {
	const run = [];
	const keep = cacheDir ? [bundleHash, ...vendors.map((v) => v.hash)].map((h) => cacheFileFor(cacheDir, h)) : [];
	const vendorOf = new Map(vendors.flatMap((v) => v.modules.map((m) => [m, v])));
	const vendorExports = new Map();
	const nodeRequire = withLazyBuiltins(createRequire(file));
	const vendorScript = (vendor) => {
		let exports = vendorExports.get(vendor);
		if (!exports) {
			const path = join(dirname(file), vendor.file);
			const loaded = runScript(path, vendor.hash, cacheDir, withLazyBuiltins(createRequire(path)), log);
			run.push(loaded);
			exports = loaded.exports;
			vendorExports.set(vendor, exports);
		}
		return exports;
	};
	const deferred = new Map();
	const bundleRequire = (id) => {
		const vendor = vendorOf.get(id);
		if (!vendor) return nodeRequire(id);
		if (!vendor.deferred || vendorExports.has(vendor)) return vendorScript(vendor)[id];
		const stub = deferred.get(id) ?? lazyModule(() => vendorScript(vendor)[id]);
		deferred.set(id, stub);
		return stub;
	};
	const main = runScript(file, bundleHash, cacheDir, bundleRequire, log);
	run.unshift(main);
	const saveCache = (target = STAGES[0]) => {
		const wanted = STAGES.indexOf(target);
		let wrote = false;
		for (const entry of run) {
			if (!entry.cacheFile || wanted <= entry.reached) continue;
			entry.reached = wanted;
			const started = performance.now();
			const written = writeCache(entry.cacheFile, () => entry.script.createCachedData(), target, keep);
			log?.(`${basename(entry.cacheFile)} ${written ? "written" : "not written"} (${target}): ${ms(performance.now() - started)}`);
			wrote = written || wrote;
		}
		return wrote;
	};
	return { exports: main.exports, status: main.status, stage: main.stage, saveCache };
}
