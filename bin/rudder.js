#!/usr/bin/env node
// React's development build costs about twice the CPU per update; the CLI always runs the production one.
process.env.NODE_ENV ??= "production";

import { readFileSync } from "node:fs";
import { loadBundle } from "./load-bundle.js";

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
	});
}

let loaded;
try {
	loaded = (await fromBundle()) ?? { exports: await import("../dist/src/cli/main.js"), saveCache: () => false };
} catch (error) {
	fail(missing(error) ? "not built yet: run `npm run build` first" : String(error?.message ?? error).split("\n")[0]);
}
// Written once start-up has run, so that it holds the functions start-up compiled (a --version run,
// over before then, writes none: its cache would hold almost nothing and never be replaced); and once
// more after the first reply, idle, so that the next process's first reply compiles nothing either.
setTimeout(() => loaded.saveCache("start-up"), 1000).unref();
const code = await loaded.exports.main(process.argv, { afterFirstReply: () => loaded.saveCache("reply") });
// Let piped stdout drain before exiting: process.exit would cut off a slow reader.
process.stdout.write("", () => process.exit(code));
