// Runs the CommonJS bundle (scripts/bundle.mjs) through vm.Script with a V8 code cache, so a launch
// after the first skips parsing it and compiling the functions start-up runs (docs/startup.md).
// The cache is one file per Node version, architecture and bundle hash in the user's cache folder
// (a 0700 folder, 0600 files), checked by a SHA-256 of its contents before V8 sees it; anything
// missing, stale, corrupt or rejected by V8 is ignored and written anew. Never throws for the cache.
import { createHash } from "node:crypto";
import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

const MAGIC = "rudder-code-cache-1\n";
const DIGEST_LENGTH = 32;

/** The cache file for this Node and this bundle. */
export function cacheFileFor(cacheDir, bundleHash) {
	return join(cacheDir, `${process.version}-${process.arch}-${bundleHash}.bin`);
}

/** The cached data in `file`, or undefined when it is missing, truncated or does not match its digest. */
export function readCache(file) {
	let bytes;
	try {
		bytes = readFileSync(file);
	} catch {
		return undefined;
	}
	const head = MAGIC.length;
	if (bytes.length <= head + DIGEST_LENGTH || bytes.toString("latin1", 0, head) !== MAGIC) return undefined;
	const digest = bytes.subarray(head, head + DIGEST_LENGTH);
	const data = bytes.subarray(head + DIGEST_LENGTH);
	return createHash("sha256").update(data).digest().equals(digest) ? data : undefined;
}

/**
 * Writes `makeData()` as `file` (atomically, 0600, in a 0700 folder) and removes other caches there.
 * False when it cannot; the data is made only once the folder is there.
 */
export function writeCache(file, makeData) {
	const dir = dirname(file);
	try {
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		chmodSync(dir, 0o700);
		for (const name of readdirSync(dir)) if (name.endsWith(".bin") && join(dir, name) !== file) rmSync(join(dir, name), { force: true });
		const temp = `${file}.${process.pid}.tmp`;
		const data = makeData();
		const digest = createHash("sha256").update(data).digest();
		// Three writes, not one concatenated copy: the data is ~1.5 MB, and this runs in a live session.
		const fd = openSync(temp, "w", 0o600);
		try {
			for (const part of [Buffer.from(MAGIC, "latin1"), digest, data]) writeSync(fd, part);
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
 * Evaluates the bundle at `file` (its build hash `bundleHash`), with the code cache of `cacheDir` when
 * one is there and valid. Returns its exports, what became of the cache ("used", "missing",
 * "rejected"), and `saveCache()`, which writes one (once, after start-up has run) unless it was used.
 */
export function loadBundle({ file, bundleHash, cacheDir }) {
	const cacheFile = cacheDir ? cacheFileFor(cacheDir, bundleHash) : undefined;
	const cachedData = cacheFile ? readCache(cacheFile) : undefined;
	const script = new vm.Script(
		`(function (exports, require, module, __filename, __dirname, __rudderBundleUrl) {${readFileSync(file, "utf8")}\n})`,
		{ filename: file, cachedData, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER },
	);
	const status = cachedData === undefined ? "missing" : script.cachedDataRejected ? "rejected" : "used";
	const module = { exports: {} };
	script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), pathToFileURL(file).href);
	let saved = status === "used" || !cacheFile;
	const saveCache = () => {
		if (saved) return false;
		saved = true;
		return writeCache(cacheFile, () => script.createCachedData());
	};
	return { exports: module.exports, status, saveCache };
}
