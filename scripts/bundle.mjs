// Bundles the CLI into dist/bundle/ with esbuild: one file for the start-up path, with the providers,
// the Ink app and syntax highlighting split into chunks loaded on first use. React's production
// build is selected at bundle time (its development build costs 2× CPU per update; docs/ink.md §5).
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

const rowCachedOutput = join(root, "components", "ink-patch", "row-cached-output.ts");

/**
 * Patches to Ink 6.8's per-frame path, each a text replacement in one of its build files. Each `from`
 * must occur exactly once, so the build fails, rather than silently skipping a patch, when Ink changes.
 */
const inkPatches = {
	"output.js": [
		// Ink builds a fresh OutputCaches for every frame, so every unchanged line of the live region is
		// re-tokenised and re-measured each frame; one shared cache, dropped when large, keeps that work
		// to the lines that changed.
		{
			from: "caches = new OutputCaches();",
			to: "caches = sharedOutputCaches();",
			append:
				"let sharedCaches;\nfunction sharedOutputCaches() {\n" +
				"\tif (!sharedCaches || sharedCaches.styledChars.size > 1000 || sharedCaches.widths.size > 5000) sharedCaches = new OutputCaches();\n" +
				"\treturn sharedCaches;\n}\n",
		},
		// Output.get allocates a cell per column per row every frame; ours rebuilds only rows whose
		// content is new (components/ink-patch/row-cached-output.ts, same output).
		{
			from: "export default class Output {",
			to: "export default class Output {",
			append:
				`import { renderOutput as rudderRenderOutput } from ${JSON.stringify(rowCachedOutput)};\n` +
				"Output.prototype.get = function get() {\n" +
				"\treturn rudderRenderOutput(this, { styledCharsToString, sliceAnsi });\n};\n",
		},
	],
	"measure-text.js": [
		// The text-size cache is never emptied: every frame's streaming tail and every history batch
		// stayed in it for the life of the process (memory growing with the transcript).
		{ from: "cache.set(text, dimensions);", to: "if (cache.size >= 2000) cache.clear();\n    cache.set(text, dimensions);" },
	],
	"render-node-to-output.js": [
		// Every frame measured the widest line of every text node again, though Yoga's measure of the
		// same text is cached; reuse it.
		{ from: "const currentWidth = widestLine(text);", to: "const currentWidth = measureText(text).width;" },
		{ from: "import widestLine from 'widest-line';", to: "import measureText from './measure-text.js';" },
	],
};

const patchInk = {
	name: "patch-ink",
	setup(b) {
		const files = Object.keys(inkPatches).map((f) => f.replace(".", "\\."));
		b.onLoad({ filter: new RegExp(`[\\\\/]ink[\\\\/]build[\\\\/](${files.join("|")})$`) }, (args) => {
			const file = args.path.split(/[\\/]/).pop();
			let source = readFileSync(args.path, "utf8");
			for (const { from, to, append } of inkPatches[file]) {
				const count = source.split(from).length - 1;
				if (count !== 1) throw new Error(`ink/build/${file} changed: "${from}" found ${count} times; review the patch`);
				source = source.replace(from, to) + (append ? `\n${append}` : "");
			}
			return { contents: source, loader: "js" };
		});
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
	plugins: [patchInk],
	define: { "process.env.NODE_ENV": '"production"' },
	// Ink imports react-devtools-core for its optional devtools; it is never used at run time here.
	alias: { "react-devtools-core": join(root, "scripts", "devtools-stub.mjs") },
	// Bundled CommonJS (react, highlight.js) calls require() for Node built-ins.
	banner: {
		js: "import { createRequire as __rudderCreateRequire } from 'node:module'; const require = __rudderCreateRequire(import.meta.url);",
	},
});
