// Bundles the CLI into dist/bundle/ with esbuild: one file for the start-up path, with the providers,
// the Ink app and syntax highlighting split into chunks loaded on first use. React's production
// build is selected at bundle time (its development build costs 2× CPU per update; STACK.md §2).
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Ink 6.8 builds a fresh OutputCaches for every frame, so every unchanged line of the live region
 * (footer, input, earlier tail rows) is re-tokenised and re-measured 30 times a second. One cache
 * shared by all frames, dropped when it grows large, keeps that work to the lines that changed.
 * The build fails if Ink's source no longer has the line this replaces.
 */
const shareInkOutputCaches = {
	name: "share-ink-output-caches",
	setup(b) {
		b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]output\.js$/ }, (args) => {
			const source = readFileSync(args.path, "utf8");
			const line = "caches = new OutputCaches();";
			if (!source.includes(line)) throw new Error(`ink/build/output.js changed: "${line}" not found; review the patch`);
			const patched =
				source.replace(line, "caches = sharedOutputCaches();") +
				"\nlet sharedCaches;\nfunction sharedOutputCaches() {\n" +
				"\tif (!sharedCaches || sharedCaches.styledChars.size > 1000 || sharedCaches.widths.size > 5000) sharedCaches = new OutputCaches();\n" +
				"\treturn sharedCaches;\n}\n";
			return { contents: patched, loader: "js" };
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
	plugins: [shareInkOutputCaches],
	define: { "process.env.NODE_ENV": '"production"' },
	// Ink imports react-devtools-core for its optional devtools; it is never used at run time here.
	alias: { "react-devtools-core": join(root, "scripts", "devtools-stub.mjs") },
	// Bundled CommonJS (react, highlight.js) calls require() for Node built-ins.
	banner: {
		js: "import { createRequire as __rudderCreateRequire } from 'node:module'; const require = __rudderCreateRequire(import.meta.url);",
	},
});
