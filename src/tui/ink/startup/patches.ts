// Start-up patches to packages under Ink, as data: each a text replacement in one installed file, applied
// by the bundle (scripts/bundle.mjs). Why each exists, and what it saves: src/tui/ink/startup/README.md.

export interface DependencyPatch {
	/** Text that must occur exactly once in the file. */
	from: string;
	to: string;
	/** Code put before the file's first line (an import the replacement uses). */
	prepend?: string;
}

/** The files, as paths ending `node_modules/<package>/<file>` (nested copies match too). */
/** Ink's string-width (8) and wrap-ansi's own copy (7). */
const STRING_WIDTH = "string-width/index.js";
const WRAP_ANSI_STRING_WIDTH = "wrap-ansi/node_modules/string-width/index.js";
const SLICE_ANSI_TOKENIZE = "slice-ansi/tokenize-ansi.js";
const ANSI_TOKENIZE = "@alcalzone/ansi-tokenize/build/tokenize.js";
const YOGA_WASM = "yoga-layout/dist/binaries/yoga-wasm-base64-esm.js";
const YOGA_INDEX = "yoga-layout/dist/src/index.js";
const INK_RECONCILER = "ink/build/reconciler.js";

/** Patches by file; `plainText` is the path of src/tui/text/plain-text.ts. */
export function startupPatches(plainText: string): Record<string, DependencyPatch[]> {
	const from = JSON.stringify(plainText);
	// Every package here built an Intl.Segmenter when loaded; the first of a process loads ICU's break
	// data (~16 ms), and the first frame's text needs none: theirs split text of standalone characters
	// themselves and build the real one on first other text.
	const segmenter = (declaration: string, options: string): DependencyPatch => ({
		from: `${declaration} = new Intl.Segmenter(${options});`,
		to: `${declaration} = rudderPlainSegmenter(${options.replace(/^undefined, /, "")});`,
		prepend: `import { plainSegmenter as rudderPlainSegmenter } from ${from};`,
	});
	const stringWidth: DependencyPatch[] = [
		segmenter("const segmenter", ""),
		// Both string-width releases (Ink's 8 and wrap-ansi's 7) compile an emoji regex on the first
		// non-ASCII text: 30-70 ms of the first frame. Text of standalone characters is measured without.
		{
			from: "const eastAsianWidthOptions = {ambiguousAsWide: !ambiguousIsNarrow};",
			to:
				"const eastAsianWidthOptions = {ambiguousAsWide: !ambiguousIsNarrow};\n" +
				"\tconst rudderPlain = rudderPlainWidth(string, eastAsianWidth, eastAsianWidthOptions);\n" +
				"\tif (rudderPlain >= 0) return rudderPlain;",
			prepend: `import { plainWidth as rudderPlainWidth } from ${from};`,
		},
	];
	return {
		[WRAP_ANSI_STRING_WIDTH]: stringWidth,
		[STRING_WIDTH]: [
			...stringWidth,
			// Parsing this pattern (the RGI emoji set, as esbuild emits it: `new RegExp(…, "v")` at load) is
			// ~20 ms; built on first use it is never built for plain text.
			{
				from: "const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;",
				to: 'let rudderRgiEmoji;\nconst rgiEmojiRegex = { test: (text) => (rudderRgiEmoji ??= new RegExp("^\\\\p{RGI_Emoji}$", "v")).test(text) };',
			},
		],
		[SLICE_ANSI_TOKENIZE]: [segmenter("const GRAPHEME_SEGMENTER", "undefined, {granularity: 'grapheme'}")],
		[ANSI_TOKENIZE]: [segmenter("const segmenter", 'undefined, { granularity: "grapheme" }')],
		[YOGA_WASM]: [
			// Yoga's loader, finding `fetch`, fetched its wasm from a data: URL (undici loaded and 95 KB
			// percent-decoded in JavaScript, 40-60 ms) and compiled it asynchronously. Asked for
			// `rudderSync`, it takes the bytes from Buffer and instantiates at once, so the bundle needs no
			// top-level await (a CommonJS bundle, for the code cache: bin/load-bundle.js).
			{
				from: "if(h.instantiateWasm)try{return h.instantiateWasm(d,",
				to:
					'if(h.rudderSync){var rudderWasm=new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(H.slice(H.indexOf(",")+1),"base64")),d);' +
					"a(rudderWasm);return rudderWasm.exports}if(h.instantiateWasm)try{return h.instantiateWasm(d,",
			},
		],
		[YOGA_INDEX]: [
			{
				from: "const Yoga = wrapAssembly(await loadYoga());",
				to: "const rudderYoga = { rudderSync: true };\nloadYoga(rudderYoga);\nconst Yoga = wrapAssembly(rudderYoga);",
			},
		],
		[INK_RECONCILER]: [
			// The two top-level awaits of Ink's reconciler serve its devtools (DEV=true only), which the
			// bundle stubs out (docs/ink.md §5); without them the bundle can be CommonJS.
			{ from: "await import('./devtools.js');", to: "void 0;" },
			{ from: "? await loadPackageJson()", to: "? { name: undefined, version: undefined }" },
		],
	};
}

/** The table's file keys, for a loader's filter. */
export const STARTUP_PATCHED_FILES = Object.keys(startupPatches(""));

/** Matches the table's files, for an esbuild `onLoad` filter (Go regexp syntax, which this stays within). */
export function startupPatchFilter(): RegExp {
	const files = STARTUP_PATCHED_FILES.map((file) => file.replaceAll(".", "\\.").replaceAll("/", "[\\\\/]"));
	return new RegExp(`[\\\\/]node_modules[\\\\/](${files.join("|")})$`);
}

/** The key of `path` in the table (the longest that fits: a nested copy has its own), or undefined. */
export function startupPatchKey(path: string): string | undefined {
	const normal = path.replaceAll("\\", "/");
	const keys = STARTUP_PATCHED_FILES.filter((file) => normal.endsWith(`/node_modules/${file}`));
	return keys.sort((a, b) => b.length - a.length)[0];
}

/** `source` of the file at `path` with its patches applied; throws, naming the file, when an anchor moved. */
export function patchStartupFile(path: string, source: string, plainWidth: string): string {
	const key = startupPatchKey(path);
	if (!key) return source;
	let patched = source;
	for (const { from, to, prepend } of startupPatches(plainWidth)[key]) {
		const count = patched.split(from).length - 1;
		if (count !== 1) {
			throw new Error(`${path} changed: "${from}" found ${count} times; review the patch in src/tui/ink/startup/patches.ts`);
		}
		patched = (prepend ? `${prepend}\n` : "") + patched.replace(from, to);
	}
	return patched;
}
