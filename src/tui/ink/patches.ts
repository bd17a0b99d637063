// The patches to Ink's per-frame path, as data: each a text replacement in one of Ink's build files.
// The bundle (scripts/bundle.mjs) and the patched-Ink test project (vitest.config.ts) apply this one
// table, so the tests run the code users run. Why each patch exists: src/tui/ink/README.md.

/** The Ink release these patches, and everything else in this folder, were written against. */
export const INK_VERSION = "6.8.0";

export interface InkPatch {
	/** Text that must occur exactly once in the file. */
	from: string;
	to: string;
	/** Code added at the end of the file (module scope, so it sees the file's imports). */
	append?: string;
}

/** Patches by file under `ink/build/`; `inkDir` is the path of this folder (src/tui/ink). */
export function inkPatches(inkDir: string): Record<string, InkPatch[]> {
	const rowCachedOutput = `${inkDir}/row-cached-output.ts`;
	const inkInstances = `${inkDir}/ink-instances.ts`;
	const logUpdateStrings = `${inkDir}/log-update-strings.ts`;
	return {
		"output.js": [
			// Ink builds a fresh OutputCaches for every frame, so every unchanged line of the live region
			// is re-tokenised and re-measured each frame; one shared cache, dropped when large, keeps that
			// work to the lines that changed.
			{
				from: "caches = new OutputCaches();",
				to: "caches = sharedOutputCaches();",
				append:
					"let sharedCaches;\nfunction sharedOutputCaches() {\n" +
					"\tif (!sharedCaches || sharedCaches.styledChars.size > 1000 || sharedCaches.widths.size > 5000) sharedCaches = new OutputCaches();\n" +
					"\treturn sharedCaches;\n}\n",
			},
			// <Static>'s output is drawn once: it keeps caches of its own, so its rows (a resumed history:
			// hundreds, with a styled cell object per column) are not kept in the shared ones afterwards.
			{
				from: "this.height = height;",
				to: "this.height = height;\n        if (options.once) {\n            this.caches = new OutputCaches();\n            this.once = true;\n        }",
			},
			// Output.get allocates a cell per column per row every frame; ours rebuilds only rows whose
			// content is new (row-cached-output.ts, same output).
			{
				from: "export default class Output {",
				to: "export default class Output {",
				append:
					`import { renderOutput as rudderRenderOutput, registerRowDeps as rudderRegisterRowDeps } from ${JSON.stringify(rowCachedOutput)};\n` +
					// A row of text between SGR codes is built from its runs with ansi-tokenize's own reducer.
					"import { reduceAnsiCodesIncremental as rudderReduceAnsiCodes, diffAnsiCodes as rudderDiffAnsiCodes, ansiCodesToString as rudderAnsiCodesToString } from '@alcalzone/ansi-tokenize';\n" +
					"const rudderRowDeps = { styledCharsToString, sliceAnsi, tokenize, reduceAnsiCodesIncremental: rudderReduceAnsiCodes, diffAnsiCodes: rudderDiffAnsiCodes, ansiCodesToString: rudderAnsiCodesToString };\n" +
					"Output.prototype.get = function get() {\n" +
					"\treturn rudderRenderOutput(this, rudderRowDeps);\n};\n" +
					// The live frame writer builds its rows with the same code and caches (live-frame.ts).
					"rudderRegisterRowDeps(rudderRowDeps, () => sharedOutputCaches(), () => new OutputCaches());\n",
			},
		],
		"ink.js": [
			// The live frame writer (live-frame.ts): it finds the instance drawing on a stdout, counts Ink's
			// layouts and its own renders, and may hand onRender a frame it spliced (else Ink renders the tree).
			{
				from: "this.rootNode.onComputeLayout = this.calculateLayout;",
				to: "this.rootNode.onComputeLayout = this.calculateLayout;\n        rudderRegisterInk(options.stdout, this);",
				append: `import { registerInk as rudderRegisterInk } from ${JSON.stringify(inkInstances)};\n`,
			},
			{
				from: "this.rootNode.yogaNode.calculateLayout(undefined, undefined, Yoga.DIRECTION_LTR);",
				to: "this.rootNode.yogaNode.calculateLayout(undefined, undefined, Yoga.DIRECTION_LTR);\n        this.rudderLayouts = (this.rudderLayouts ?? 0) + 1;",
			},
			{
				from: "const { output, outputHeight, staticOutput } = render(this.rootNode, this.isScreenReaderEnabled);",
				to:
					"const rudderFrame = this.rudderLiveFrame?.();\n" +
					"        const { output, outputHeight, staticOutput } = rudderFrame ?? render(this.rootNode, this.isScreenReaderEnabled);\n" +
					"        this.rudderOutput = output;\n" +
					"        if (rudderFrame) {\n            this.rudderSpliced = (this.rudderSpliced ?? 0) + 1;\n" +
					"            if (rudderFrame.staticOutput.length > 1) this.rudderSplicedHistory = (this.rudderSplicedHistory ?? 0) + 1;\n        }\n" +
					"        else {\n            this.rudderRenders = (this.rudderRenders ?? 0) + 1;\n            this.rudderRenderedLayout = this.rudderLayouts;\n        }",
			},
			// maxFps: 0 draws each commit at once, with no timer. Ink's throttles (render: leading and
			// trailing edge; log: a zero-delay trailing edge) each set a timer per frame, and every timer is
			// a wake-up: two per frame while a reply streams. Frames are already coalesced to the app's frame
			// clock (src/tui/frame/frame-scheduler.ts), so the throttles held back nothing but keys.
			{
				from: "const throttled = throttle(this.onRender, renderThrottleMs, {",
				to: "const throttled = (renderThrottleMs === 0 ? rudderCallNow : throttle)(this.onRender, renderThrottleMs, {",
				append:
					"function rudderCallNow(fn) {\n\tconst call = (...args) => fn(...args);\n" +
					"\tcall.flush = () => {};\n\tcall.cancel = () => {};\n\treturn call;\n}\n",
			},
			{ from: ": throttle((output) => {", to: ": (renderThrottleMs === 0 ? rudderCallNow : throttle)((output) => {" },
		],
		"log-update.js": [
			// Per frame log-update split the whole frame into lines only to count them, and built the
			// erase of the previous frame's rows a row at a time; both depend on a count alone
			// (log-update-strings.ts). It reads nothing of `lines` but its length.
			{
				from: "const lines = str.split('\\n');\n        const visibleCount = visibleLineCount(lines, str);",
				to: "const lines = { length: rudderLineCount(str) };\n        const visibleCount = visibleLineCount(lines, str);",
				append:
					`import { lineCount as rudderLineCount, keptErases as rudderKeptErases } from ${JSON.stringify(logUpdateStrings)};\n` +
					"const rudderEraseLines = rudderKeptErases(ansiEscapes.eraseLines);\n",
			},
			{
				from: "ansiEscapes.eraseLines(previousLineCount) +\n                str +",
				to: "rudderEraseLines(previousLineCount) +\n                str +",
			},
			{
				from: "stream.write(prefix + ansiEscapes.eraseLines(previousLineCount));",
				to: "stream.write(prefix + rudderEraseLines(previousLineCount));",
			},
		],
		"reconciler.js": [
			// An update of a <Static> node marks "the" root's static output dirty: the root that last
			// created a <Static>, kept in a module variable. With two Ink instances in one process (the
			// live frame test draws the same reply on two) an update in one marked the other's, and the
			// first lost its new <Static> output. The node's own root is the one to mark.
			{
				from: "if (currentRootNode && node.internal_static) {\n            currentRootNode.isStaticDirty = true;\n        }",
				to:
					"if (node.internal_static) {\n            let rudderRoot = node;\n            while (rudderRoot.parentNode) rudderRoot = rudderRoot.parentNode;\n" +
					"            if (rudderRoot.nodeName === 'ink-root') rudderRoot.isStaticDirty = true;\n            else if (currentRootNode) currentRootNode.isStaticDirty = true;\n        }",
			},
		],
		"renderer.js": [
			// The <Static> output marked as drawn once (see output.js above).
			{ from: "staticOutput = new Output({", to: "staticOutput = new Output({\n                once: true," },
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
}

/** Names the Ink build files the table patches, for a loader's filter. */
export const PATCHED_FILES = Object.keys(inkPatches(""));

/** Why a build must stop, naming this folder, or undefined when the installed Ink is the one we know. */
export function inkVersionProblem(installed: string, declared: string | undefined): string | undefined {
	if (installed === INK_VERSION && declared === INK_VERSION) return undefined;
	const what = installed !== INK_VERSION ? `Ink ${installed} is installed` : `package.json asks for ink "${declared}"`;
	return (
		`${what}, but src/tui/ink/ patches and relies on the internals of Ink ${INK_VERSION} exactly ` +
		"(see src/tui/ink/README.md). Review every entry there against the new release, run the " +
		"patched-ink tests, then update INK_VERSION in src/tui/ink/patches.ts."
	);
}

/** `source` of `ink/build/<file>` with its patches applied; throws, naming the file, when an anchor moved. */
export function patchInkFile(file: string, source: string, inkDir: string): string {
	const patches = inkPatches(inkDir)[file];
	if (!patches) return source;
	let patched = source;
	for (const { from, to, append } of patches) {
		const count = patched.split(from).length - 1;
		if (count !== 1) {
			throw new Error(`ink/build/${file} changed: "${from}" found ${count} times; review the patch in src/tui/ink/patches.ts`);
		}
		patched = patched.replace(from, to) + (append ? `\n${append}` : "");
	}
	return patched;
}
