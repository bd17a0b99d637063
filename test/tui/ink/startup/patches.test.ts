// The start-up patches, applied as the bundle applies them (esbuild with the same filter), to the
// installed packages: each anchor is found once, and the patched code gives what the original gives
// without the set-up it was patched to skip.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { patchStartupFile, STARTUP_PATCHED_FILES, startupPatchFilter, startupPatchKey } from "../../../../src/tui/ink/startup/patches.js";
import { countNewSegmenters } from "../../../helpers/segmenter-count.js";

const root = join(import.meta.dirname, "..", "..", "..", "..");
const plainWidth = join(root, "src", "tui", "text", "plain-text.ts");
const installed = (file: string) => join(root, "node_modules", file);
const work = mkdtempSync(join(tmpdir(), "rudder-startup-patches-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const patchPlugin: Plugin = {
	name: "patch-startup",
	setup(b) {
		b.onLoad({ filter: startupPatchFilter() }, (args) => ({
			contents: patchStartupFile(args.path, readFileSync(args.path, "utf8"), plainWidth),
			loader: "js",
		}));
	},
};

/** `entry` bundled (patched or not) into one file and imported fresh. */
async function load(name: string, entry: string, patched: boolean): Promise<Record<string, unknown>> {
	const outfile = join(work, `${name}-${patched ? "patched" : "plain"}.mjs`);
	await bundle(entry, patched, "esm", outfile);
	return import(pathToFileURL(outfile).href);
}

function bundle(entry: string, patched: boolean, format: "esm" | "cjs", outfile: string) {
	return build({
		stdin: { contents: entry, resolveDir: root, loader: "js" },
		bundle: true,
		format,
		platform: "node",
		target: "node20",
		outfile,
		logLevel: "silent",
		plugins: patched ? [patchPlugin] : [],
	});
}

/** Counts `new Intl.Segmenter` while `body` runs. */
async function countSegmenters<T>(body: () => Promise<T>): Promise<{ value: T; made: number }> {
	const count = countNewSegmenters();
	try {
		const value = await body();
		return { value, made: count.made() };
	} finally {
		count.restore();
	}
}

const WIDTH_ENTRY =
	'export { default as width8 } from "string-width";\n' +
	`export { default as width7 } from ${JSON.stringify(installed("wrap-ansi/node_modules/string-width/index.js"))};\n`;
type Width = (text: string, options?: { ambiguousIsNarrow?: boolean }) => number;

describe("the start-up patch table", () => {
	it("applies every patch to the installed files exactly once", () => {
		for (const file of STARTUP_PATCHED_FILES) {
			const source = readFileSync(installed(file), "utf8");
			expect(patchStartupFile(installed(file), source, "/x/plain-text.ts"), file).not.toBe(source);
		}
		// The nested copy gets its own entry, not the outer one's (whose RGI anchor it lacks).
		expect(startupPatchKey(installed("wrap-ansi/node_modules/string-width/index.js"))).toBe("wrap-ansi/node_modules/string-width/index.js");
		expect(startupPatchKey(installed("string-width/index.js"))).toBe("string-width/index.js");
		expect(startupPatchKey(installed("strip-ansi/index.js"))).toBeUndefined();
	});

	it("fails, naming the file and the table, when an anchor is gone", () => {
		const path = installed("yoga-layout/dist/binaries/yoga-wasm-base64-esm.js");
		const source = readFileSync(path, "utf8").replace("if(h.instantiateWasm)", "if(h.instantiate)");
		expect(() => patchStartupFile(path, source, "")).toThrow(
			/yoga-wasm-base64-esm\.js changed: "if\(h\.instantiateWasm\)try\{return h\.instantiateWasm\(d," found 0 times; review the patch in src\/tui\/ink\/startup\/patches\.ts$/,
		);
	});

	it("string-width, patched, measures what it measured, and builds no segmenter for plain text", async () => {
		const plain = await countSegmenters(() => load("width", WIDTH_ENTRY, false));
		const patched = await countSegmenters(() => load("width", WIDTH_ENTRY, true));
		expect(plain.made).toBe(2); // each release builds one when loaded
		expect(patched.made).toBe(0);
		const samples = [
			"› ask, /command",
			"a · b ↑0 ↓0",
			"日本語",
			"e\u0301",
			"👍🏽",
			"🏳️‍🌈",
			"↔\ufe0f",
			"©",
			"\x1b[31mred\x1b[0m",
			"ｶﾞ",
			"a\tb",
			"한글",
		];
		const { value: widths, made } = await countSegmenters(async () =>
			samples.map((s) => [s, (patched.value.width8 as Width)(s), (patched.value.width7 as Width)(s)]),
		);
		expect(widths).toEqual(samples.map((s) => [s, (plain.value.width8 as Width)(s), (plain.value.width7 as Width)(s)]));
		expect(made).toBe(2); // built on the first text that needs one
	});

	it("slice-ansi and ansi-tokenize, patched, split text as before, and build no segmenter for plain text", async () => {
		const entry =
			'export { default as sliceAnsi } from "slice-ansi";\n' +
			'export { tokenize, styledCharsFromTokens } from "@alcalzone/ansi-tokenize";\n';
		type Split = { sliceAnsi: (text: string, start: number, end?: number) => string; tokenize: (text: string) => unknown[] };
		const plain = await countSegmenters(() => load("split", entry, false));
		const patched = await countSegmenters(() => load("split", entry, true));
		expect(plain.made).toBe(2);
		expect(patched.made).toBe(0);
		const [before, after] = [plain.value as Split, patched.value as Split];
		const samples = [
			"› ask, /command, @file, !shell",
			"\x1b[2m/tmp/x · ask · mock/mock-1 · ↑0 ↓0\x1b[22m",
			"\x1b]8;;https://x.test\x07link\x1b]8;;\x07 ─── ⠋",
			"日本語のテキスト",
		];
		const run = (split: Split) => samples.flatMap((s) => [split.tokenize(s), split.sliceAnsi(s, 2, 9), split.sliceAnsi(s, 0, 3)]);
		const { value: plainText, made: madeForPlain } = await countSegmenters(async () => run(after));
		expect(madeForPlain).toBe(0);
		expect(plainText).toEqual(run(before));
		const mixed = ["e\u0301x", "👍🏽 ok", "\x1b[31m🏳️‍🌈\x1b[0m", "한글", "a\r\nb"];
		const { value: mixedText, made: madeForMixed } = await countSegmenters(async () =>
			mixed.flatMap((s) => [after.tokenize(s), after.sliceAnsi(s, 1, 3)]),
		);
		expect(mixedText).toEqual(mixed.flatMap((s) => [before.tokenize(s), before.sliceAnsi(s, 1, 3)]));
		expect(madeForMixed).toBe(2);
	});

	it("Yoga and Ink, patched, bundle as CommonJS: no top-level await is left", async () => {
		const entry = 'export { default as Yoga } from "yoga-layout";\nexport { render } from "ink";';
		await expect(bundle(entry, false, "cjs", join(work, "plain.cjs"))).rejects.toThrow(/Top-level await is currently not supported/);
		await bundle(entry, true, "cjs", join(work, "patched.cjs"));
		const { Yoga } = createRequire(import.meta.url)(join(work, "patched.cjs")) as { Yoga: typeof import("yoga-layout").default };
		expect(typeof Yoga.Node.create().calculateLayout).toBe("function");
	});

	it("Yoga, patched, loads without fetch and lays out", async () => {
		const original = globalThis.fetch;
		let fetched = 0;
		globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
			fetched++;
			return original(...args);
		}) as typeof fetch;
		try {
			const entry = 'export { default as Yoga } from "yoga-layout";';
			await load("yoga", entry, false);
			expect(fetched).toBe(1); // the original fetches its own data: URL
			const { Yoga } = (await load("yoga", entry, true)) as { Yoga: typeof import("yoga-layout").default };
			expect(fetched).toBe(1);
			const node = Yoga.Node.create();
			node.setWidth(120);
			const child = Yoga.Node.create();
			child.setHeight(3);
			node.insertChild(child, 0);
			node.calculateLayout(undefined, undefined);
			expect([child.getComputedWidth(), node.getComputedHeight()]).toEqual([120, 3]);
			node.freeRecursive();
		} finally {
			globalThis.fetch = original;
		}
	});
});
