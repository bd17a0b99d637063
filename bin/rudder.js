#!/usr/bin/env node
// React's development build costs about twice the CPU per update; the CLI always runs the production one.
process.env.NODE_ENV ??= "production";

import { appendFileSync, readFileSync } from "node:fs";
import { loadBundle } from "./load-bundle.js";
import { applyTiering } from "./v8-tiering.js";

// Before any of the bundle is compiled (bin/v8-tiering.js says why).
applyTiering();

const fail = (message) => {
	process.stderr.write(`rudder: ${message}\n`);
	process.exit(1);
};
const missing = (error) => error?.code === "ENOENT" || error?.code === "ERR_MODULE_NOT_FOUND";

/** The esbuild bundle with its code cache when built (dist/bundle/bundle.json names it); else undefined. */
async function fromBundle() {
	let manifest;
	try {
		manifest = JSON.parse(readFileSync(new URL("../dist/bundle/bundle.json", import.meta.url), "utf8"));
	} catch (error) {
		if (missing(error)) return undefined;
		throw error;
	}
	const { cacheDir } = await import("../dist/src/config/paths.js");
	const file = new URL(`../dist/bundle/${manifest.file}`, import.meta.url);
	return loadBundle({
		file: file.pathname,
		bundleHash: manifest.hash,
		cacheDir: `${cacheDir(process.env)}/code`,
		vendors: manifest.vendors ?? [],
		log: cacheLog(process.env.RUDDER_DEBUG_CODE_CACHE),
	});
}

/** With RUDDER_DEBUG_CODE_CACHE=<file>: each script's cache use and each save, appended there with the time since start. */
function cacheLog(file) {
	if (!file) return undefined;
	return (line) => {
		try {
			appendFileSync(file, `${performance.now().toFixed(1)} ms ${line}\n`);
		} catch {
			// a debug aid: never a reason to fail the launch
		}
	};
}

let loaded;
try {
	loaded = (await fromBundle()) ?? { exports: await import("../dist/src/cli/main.js"), saveCache: () => false };
} catch (error) {
	fail(missing(error) ? "not built yet: run `npm run build` first" : String(error?.message ?? error).split("\n")[0]);
}
// The cache is written once start-up has run, so that it holds the functions start-up compiled (main
// says when: in the app once the first screen is drawn and the keyboard rests; a --version run writes
// none), and once more after the first reply, idle, so that the next process's first reply compiles
// nothing either.
const code = await loaded.exports.main(process.argv, {
	afterStartUp: () => loaded.saveCache("start-up"),
	afterFirstReply: () => loaded.saveCache("reply"),
});
// Let piped stdout drain before exiting: process.exit would cut off a slow reader.
process.stdout.write("", () => process.exit(code));
