// Bundles the CLI into dist/bundle/ with esbuild: one file for the start-up path, with the providers,
// the Ink app and syntax highlighting split into chunks loaded on first use. React's production
// build is selected at bundle time (its development build costs 2× CPU per update; docs/ink.md §5).
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

// The Ink patches and the version they were written for live in components/ink/ (patches.ts, compiled
// by the tsc step that runs before this script).
const { PATCHED_FILES, inkVersionProblem, patchInkFile } = await import(
	pathToFileURL(join(root, "dist", "components", "ink", "patches.js")).href
);
const rowCachedOutput = join(root, "components", "ink", "row-cached-output.ts");
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
			return { contents: patchInkFile(file, readFileSync(args.path, "utf8"), rowCachedOutput), loader: "js" };
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

// Chunk names carry content hashes; clear old ones so dist/bundle holds one build.
rmSync(join(root, "dist", "bundle"), { recursive: true, force: true });

await build({
	entryPoints: { main: join(root, "src", "cli", "main.ts") },
	outdir: join(root, "dist", "bundle"),
	bundle: true,
	splitting: true,
	format: "esm",
	platform: "node",
	target: "node20",
	// RUDDER_BUNDLE_DEBUG=1 keeps names readable for profiling (node --cpu-prof).
	minify: !process.env.RUDDER_BUNDLE_DEBUG,
	sourcemap: "linked",
	logLevel: "warning",
	plugins: [patchInk, patchStartup],
	define: { "process.env.NODE_ENV": '"production"' },
	// Ink imports react-devtools-core for its optional devtools; it is never used at run time here.
	alias: { "react-devtools-core": join(root, "scripts", "devtools-stub.mjs") },
	// Bundled CommonJS (react, highlight.js) calls require() for Node built-ins.
	banner: {
		js: "import { createRequire as __rudderCreateRequire } from 'node:module'; const require = __rudderCreateRequire(import.meta.url);",
	},
});
