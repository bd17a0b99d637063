// Bundles the CLI into dist/bundle/rudder.cjs with esbuild (one CommonJS file, run with a code cache by
// bin/rudder.js), with the patches of components/ink/ and components/startup/. React's production
// build is selected at bundle time (its development build costs 2× CPU per update; docs/ink.md §5).
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

// The Ink patches and the version they were written for live in components/ink/ (patches.ts, compiled
// by the tsc step that runs before this script).
const { PATCHED_FILES, inkVersionProblem, patchInkFile } = await import(
	pathToFileURL(join(root, "dist", "components", "ink", "patches.js")).href
);
const inkDir = join(root, "components", "ink");
// Start-up patches to packages under Ink (components/startup/patches.ts).
const { patchStartupFile, startupPatchFilter } = await import(
	pathToFileURL(join(root, "dist", "components", "startup", "patches.js")).href
);
const plainWidth = join(root, "components", "startup", "plain-text.ts");

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));
const problem = inkVersionProblem(
	readJson(join(root, "node_modules", "ink", "package.json")).version,
	readJson(join(root, "package.json")).dependencies?.ink,
);
if (problem) {
	console.error(`build stopped: ${problem}`);
	process.exit(1);
}

const patchInk = {
	name: "patch-ink",
	setup(b) {
		const files = PATCHED_FILES.map((f) => f.replace(".", "\\."));
		b.onLoad({ filter: new RegExp(`[\\\\/]ink[\\\\/]build[\\\\/](${files.join("|")})$`) }, (args) => {
			const file = args.path.split(/[\\/]/).pop();
			return { contents: patchInkFile(file, readFileSync(args.path, "utf8"), inkDir), loader: "js" };
		});
	},
};

const patchStartup = {
	name: "patch-startup",
	setup(b) {
		b.onLoad({ filter: startupPatchFilter() }, (args) => ({
			contents: patchStartupFile(args.path, readFileSync(args.path, "utf8"), plainWidth),
			loader: "js",
		}));
	},
};

rmSync(join(root, "dist", "bundle"), { recursive: true, force: true });

// One CommonJS file, so that bin/rudder.js can run it through vm.Script with a V8 code cache (Node 20
// has no code cache for ES modules; bin/load-bundle.js). What the ES build split into chunks loaded on
// first use (providers, MCP, highlighting) is still evaluated only on first use: esbuild wraps a module
// reached by import() in a lazy initialiser.
const outfile = join(root, "dist", "bundle", "rudder.cjs");
await build({
	entryPoints: [join(root, "src", "cli", "main.ts")],
	outfile,
	bundle: true,
	format: "cjs",
	platform: "node",
	target: "node20",
	// RUDDER_BUNDLE_DEBUG=1 keeps names readable for profiling (node --cpu-prof).
	minify: !process.env.RUDDER_BUNDLE_DEBUG,
	sourcemap: "linked",
	logLevel: "warning",
	plugins: [patchInk, patchStartup],
	// The loader passes the bundle's own URL as __rudderBundleUrl (import.meta does not exist in CommonJS).
	define: { "process.env.NODE_ENV": '"production"', "import.meta.url": "__rudderBundleUrl" },
	// Ink imports react-devtools-core for its optional devtools; it is never used at run time here.
	alias: { "react-devtools-core": join(root, "scripts", "devtools-stub.mjs") },
});
// The code cache is keyed by this hash: a rebuilt bundle never meets the cache of another.
const hash = createHash("sha256").update(readFileSync(outfile)).digest("hex").slice(0, 16);
writeFileSync(join(root, "dist", "bundle", "bundle.json"), `${JSON.stringify({ file: "rudder.cjs", hash })}\n`);
