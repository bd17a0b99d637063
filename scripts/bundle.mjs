// Bundles the CLI into dist/bundle/ with esbuild (rudder.cjs and vendor scripts, CommonJS, run with a code cache by
// bin/rudder.js), with the patches of src/tui/ink/ and src/tui/ink/startup/. React's production
// build is selected at bundle time (its development build costs 2× CPU per update; docs/ink.md §5).
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

// The Ink patches and the version they were written for live in src/tui/ink/ (patches.ts, compiled
// by the tsc step that runs before this script).
const { PATCHED_FILES, inkVersionProblem, patchInkFile } = await import(
	pathToFileURL(join(root, "dist", "src", "tui", "ink", "patches.js")).href
);
const inkDir = join(root, "src", "tui", "ink");
// Start-up patches to packages under Ink (src/tui/ink/startup/patches.ts).
const { patchStartupFile, startupPatchFilter } = await import(
	pathToFileURL(join(root, "dist", "src", "tui", "ink", "startup", "patches.js")).href
);
const plainWidth = join(root, "src", "tui", "text", "plain-text.ts");

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));
const problem = inkVersionProblem(
	readJson(join(root, "node_modules", "ink", "package.json")).version,
	readJson(join(root, "package.json")).devDependencies?.ink,
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
			// A file both tables patch (Ink's reconciler.js) gets both: esbuild loads a file through one plugin.
			const contents = patchStartupFile(args.path, patchInkFile(file, readFileSync(args.path, "utf8"), inkDir), plainWidth);
			return { contents, loader: "js" };
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

// tree-sitter's Emscripten glue reaches Node's "module" and "fs/promises" through import(); in a
// vm.Script that takes Node's experimental main-context loader, which warns on stderr. It gets them
// from require() at the top of its file instead (inside, a local `var require` shadows the real one).
const nodeBuiltinsRequired = {
	name: "node-builtins-required",
	setup(b) {
		b.onLoad({ filter: /[\\/]@vscode[\\/]tree-sitter-wasm[\\/]wasm[\\/]tree-sitter\.js$/ }, (args) => {
			const source = readFileSync(args.path, "utf8")
				.replaceAll('await import("module")', "__rudderModule")
				.replaceAll('await import("fs/promises")', "__rudderFsPromises");
			if (/\bimport\(/.test(source)) throw new Error(`${args.path} has an import() this build does not replace`);
			return {
				contents: `const __rudderModule = require("module"), __rudderFsPromises = require("fs/promises");\n${source}`,
				loader: "js",
			};
		});
	},
};

rmSync(join(root, "dist", "bundle"), { recursive: true, force: true });

// Packages the app reaches only through import() and rarely needs (the MCP client with its schema
// libraries, ~330 KB; highlight.js, ~50 KB, from the first key): each group is a script of its own,
// compiled (and code-cached) only when first required, so that the first launch, which compiles the
// main script from source, never parses them (docs/startup.md: parsing leaves its memory behind).
const VENDOR_GROUPS = {
	mcp: { packages: ["@modelcontextprotocol/sdk"], lazy: true },
	// The ACP SDK with its schemas (~165 KB), for `--mode acp` only.
	acp: { packages: ["@agentclientprotocol/sdk"], lazy: true },
	highlight: { packages: ["highlight.js"], lazy: true },
	// HTML to Markdown for web_fetch (~290 KB with the entity tables), from the first HTML page fetched.
	html: { packages: ["node-html-markdown", "node-html-parser"], lazy: true },
	// The shell parser bash rules are judged on (src/permissions/shell-parse.ts), from the first rule check.
	treesitter: { packages: ["@vscode/tree-sitter-wasm"], lazy: true },
	typebox: { packages: ["typebox"] },
	react: { packages: ["react", "react-reconciler", "scheduler"] },
	// Required at load, first used after the first frame (the first markdown block, or the warm-up when
	// typing rests): its script runs on the first use of an export (bin/load-bundle.js), ~5 ms off launch.
	marked: { packages: ["marked"], deferred: true },
	commander: { packages: ["commander"] },
};
const groupOf = (path) =>
	Object.keys(VENDOR_GROUPS).find((g) => VENDOR_GROUPS[g].packages.some((pkg) => path === pkg || path.startsWith(`${pkg}/`)));

// One CommonJS file, so that bin/rudder.js can run it through vm.Script with a V8 code cache (Node 20
// has no code cache for ES modules; bin/load-bundle.js). What the ES build split into chunks loaded on
// first use (providers) is still evaluated only on first use: esbuild wraps a module reached by import()
// in a lazy initialiser.
const outfile = join(root, "dist", "bundle", "rudder.cjs");
/** What every script of dist/bundle is built with. */
const common = {
	bundle: true,
	format: "cjs",
	platform: "node",
	target: "node20",
	// RUDDER_BUNDLE_DEBUG=1 keeps names readable for profiling (node --cpu-prof).
	minify: !process.env.RUDDER_BUNDLE_DEBUG,
	sourcemap: "linked",
	logLevel: "warning",
};
const main = await build({
	...common,
	entryPoints: [join(root, "src", "cli", "main.ts")],
	outfile,
	plugins: [patchInk, patchStartup],
	// The loader passes the bundle's own URL as __rudderBundleUrl (import.meta does not exist in CommonJS).
	define: { "process.env.NODE_ENV": '"production"', "import.meta.url": "__rudderBundleUrl" },
	// Ink imports react-devtools-core for its optional devtools; it is never used at run time here.
	alias: { "react-devtools-core": join(root, "scripts", "devtools-stub.mjs") },
	external: Object.values(VENDOR_GROUPS).flatMap((g) => g.packages.flatMap((pkg) => [pkg, `${pkg}/*`])),
	// import() of those becomes require() (in a promise), which bin/load-bundle.js answers from their
	// scripts; left as import(), Node would load the packages' own files instead.
	supported: { "dynamic-import": false },
	metafile: true,
});

/** The vendor modules the main script asks for, by group; a static import of one would load it at start. */
function vendorImports(metafile) {
	const groups = {};
	// The inputs' imports, as written (the output's are all require calls, dynamic imports included).
	for (const input of Object.values(metafile.inputs)) {
		for (const { path, kind, external } of input.imports) {
			const group = external && groupOf(path);
			if (!group) continue;
			if (VENDOR_GROUPS[group].lazy && kind !== "dynamic-import") {
				console.error(`build stopped: ${path} is imported statically; the ${group} script is for import() only`);
				process.exit(1);
			}
			groups[group] = [...new Set([...(groups[group] ?? []), path])].sort();
		}
	}
	return groups;
}

// Each group: one CommonJS script whose exports map each module name to what require() of it gives
// (the main script's import() turns that into the module namespace, as for any CommonJS package).
const vendors = [];
for (const [group, modules] of Object.entries(vendorImports(main.metafile))) {
	const file = `vendor-${group}.cjs`;
	await build({
		...common,
		stdin: {
			contents: `module.exports = {${modules.map((m) => `${JSON.stringify(m)}: require(${JSON.stringify(m)})`).join(",\n")}};\n`,
			resolveDir: root,
			sourcefile: `vendor-${group}.js`,
		},
		outfile: join(root, "dist", "bundle", file),
		define: { "process.env.NODE_ENV": '"production"' },
		// The builds import() chose in one script (the packages' ES builds where they list one first):
		// require() alone would take the MCP SDK's CommonJS build, three times the size.
		conditions: ["import"],
		plugins: [nodeBuiltinsRequired],
	});
	vendors.push({ file, hash: hashOf(file), modules, ...(VENDOR_GROUPS[group].deferred ? { deferred: true } : {}) });
}

// The parser's WebAssembly, beside the bundle, where src/permissions/shell-parse.ts looks first.
mkdirSync(join(root, "dist", "bundle", "wasm"), { recursive: true });
for (const name of ["tree-sitter.wasm", "tree-sitter-bash.wasm"]) {
	copyFileSync(join(root, "node_modules", "@vscode", "tree-sitter-wasm", "wasm", name), join(root, "dist", "bundle", "wasm", name));
}

// The code cache is keyed by these hashes: a rebuilt script never meets the cache of another.
function hashOf(file) {
	return createHash("sha256")
		.update(readFileSync(join(root, "dist", "bundle", file)))
		.digest("hex")
		.slice(0, 16);
}
writeFileSync(
	join(root, "dist", "bundle", "bundle.json"),
	`${JSON.stringify({ file: "rudder.cjs", hash: hashOf("rudder.cjs"), vendors })}\n`,
);
