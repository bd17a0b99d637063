// Languages registered on first use colour exactly as the eight registered up front did: every name and
// alias, in any case, in random first-use orders, byte for byte; unknown names stay uncoloured.
import fc from "fast-check";
import hljsCore from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import typescript from "highlight.js/lib/languages/typescript";
import { beforeAll, describe, expect, it, vi } from "vitest";

const DEFINITIONS = { typescript, javascript, python, bash, json, rust, go, diff };

/** What the module did before: all eight registered at load, with its four alias lists. */
function eagerHighlighter() {
	const core = hljsCore.newInstance();
	for (const [name, definition] of Object.entries(DEFINITIONS)) core.registerLanguage(name, definition);
	core.registerAliases(["ts", "tsx"], { languageName: "typescript" });
	core.registerAliases(["js", "jsx", "mjs"], { languageName: "javascript" });
	core.registerAliases(["sh", "shell", "zsh"], { languageName: "bash" });
	core.registerAliases(["py"], { languageName: "python" });
	return core;
}

const SAMPLES = [
	'const a: number = 1; // "c"\nfunction f<T>(x: T) { return x as T; }',
	"def f(x):\n    return [i for i in x if i > 0]  # c",
	'echo "$HOME" | grep -v x && ls -la',
	'{"a": [1, 2.5, true, null], "b": "s"}',
	'fn main() { let x: Vec<u8> = vec![1]; println!("{}", x.len()); }',
	'package main\nfunc main() { fmt.Println("hi") }',
	"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new",
	"a &lt; b && c > d",
];

/** highlight.js's core is one instance per process (a package, not reset with the modules): empty it. */
function resetCore() {
	for (const name of hljsCore.listLanguages()) hljsCore.unregisterLanguage(name);
}

/** A fresh copy of src/tui/markdown/highlight.ts, loaded, with nothing registered yet. */
async function freshLazy() {
	resetCore();
	vi.resetModules();
	const mod = await import("../../../src/tui/markdown/highlight.js");
	await mod.loadHighlighter();
	return mod;
}

/** The coloured segments the old module gave: the same walk over highlight.js's HTML. */
async function eagerSegments(code: string, language: string) {
	const mod = await freshLazy();
	// Everything registered up front in the module's instance, as the module did before.
	for (const [name, definition] of Object.entries(DEFINITIONS)) hljsCore.registerLanguage(name, definition);
	hljsCore.registerAliases(["ts", "tsx"], { languageName: "typescript" });
	hljsCore.registerAliases(["js", "jsx", "mjs"], { languageName: "javascript" });
	hljsCore.registerAliases(["sh", "shell", "zsh"], { languageName: "bash" });
	hljsCore.registerAliases(["py"], { languageName: "python" });
	return mod.highlightCode(code, language);
}

let names: string[];
beforeAll(async () => {
	const { LANGUAGES } = await import("../../../src/tui/markdown/highlight.js");
	names = Object.entries(LANGUAGES).flatMap(([name, aliases]) => [name, ...aliases]);
});

describe("highlight.js languages registered on first use", () => {
	it("the table holds every name the eager registration answered to, and no more", () => {
		const eager = eagerHighlighter();
		const answered = new Set<string>();
		for (const name of eager.listLanguages()) {
			answered.add(name);
			for (const alias of eager.getLanguage(name)?.aliases ?? []) answered.add(alias);
		}
		for (const alias of ["ts", "tsx", "js", "jsx", "mjs", "sh", "shell", "zsh", "py"]) answered.add(alias);
		expect(new Set(names)).toEqual(answered);
	});

	it("colours every name and alias byte-equal to eager registration, in any first-use order and case", async () => {
		const expected = new Map<string, unknown>();
		for (const name of names) for (const code of SAMPLES) expected.set(`${name}\u0000${code}`, await eagerSegments(code, name));
		// Colour, not only "something": every language colours its sample.
		expect(names.every((name) => SAMPLES.some((code) => JSON.stringify(expected.get(`${name}\u0000${code}`)).includes("color")))).toBe(
			true,
		);
		await fc.assert(
			fc.asyncProperty(
				fc.shuffledSubarray(names, { minLength: 1 }),
				fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
				async (order, upper) => {
					const lazy = await freshLazy();
					order.forEach((name, i) => {
						const asked = upper[i % upper.length] ? name.toUpperCase() : name;
						for (const code of SAMPLES) expect(lazy.highlightCode(code, asked)).toEqual(expected.get(`${name}\u0000${code}`));
					});
				},
			),
			{ numRuns: 25 },
		);
	});

	it("leaves code in other languages uncoloured, and registers nothing for them", async () => {
		const lazy = await freshLazy();
		for (const other of ["nosuchlang", "xml", "css", "markdown", "constructor", "__proto__"])
			expect(lazy.highlightCode("a < b", other)).toBeUndefined();
		expect(hljsCore.listLanguages()).toEqual([]);
		lazy.highlightCode("x", "golang");
		expect(hljsCore.listLanguages()).toEqual(["go"]);
	});
});

/** Random snippets of code in the coloured languages: comments, strings, template strings, regexes. */
const CODE_PIECES = [
	"const ",
	"let x = ",
	"function f(",
	") {",
	"}\n",
	"=> ",
	"return ",
	"class A extends B {\n",
	"/* open comment\n",
	" */",
	"// line comment\n",
	"`tpl ${",
	"}`",
	"'s'",
	'"d\\"q"',
	"/re+[a-z]/g",
	" / 2 ",
	"0x1F",
	"3.5e2",
	"async ",
	"await ",
	"interface I<T> { a?: T }\n",
	"def g(x):\n",
	"    ",
	'"""doc\n',
	"# hash\n",
	"import os\n",
	"@decorator\n",
	"<a & b>",
	"&amp;",
	"\t",
	"\n",
	"\n\n",
	"foo",
	"(",
	")",
	"[",
	"]",
	"{",
	"}",
	";",
	"é世",
	"\\",
	"$HOME",
	"fn main() -> u8 {",
	"package main\n",
	"+ added\n",
	"- gone\n",
	"@@ -1 +1 @@\n",
	'{"k": [1, true, null]}',
] as const;

const randomCode = (): fc.Arbitrary<string> =>
	fc.array(fc.oneof(fc.constantFrom(...CODE_PIECES), fc.string({ maxLength: 4 })), { maxLength: 60 }).map((parts) => parts.join(""));

describe("segments straight from highlight.js's parse", () => {
	it("equal the walk over its HTML for random code in every language", async () => {
		const lazy = await freshLazy();
		const reference = eagerHighlighter();
		const languages = Object.keys(DEFINITIONS);
		fc.assert(
			fc.property(randomCode(), fc.constantFrom(...languages), (code, language) => {
				const html = reference.highlight(code, { language, ignoreIllegals: true }).value;
				expect(lazy.highlightCode(code, language)).toEqual(lazy.segmentsOfHtml(html));
			}),
			{ numRuns: 600 },
		);
	});

	it("fall back to the HTML for a grammar that nests another language", async () => {
		const lazy = await freshLazy();
		lazy.highlightCode("x", "ts");
		// css`…` template strings in TypeScript nest CSS once a CSS grammar is registered.
		const css = (await import("highlight.js/lib/languages/css")).default;
		hljsCore.registerLanguage("css", css);
		const reference = eagerHighlighter();
		reference.registerLanguage("css", css);
		const code = "const s = css`a { color: red }`;";
		const html = reference.highlight(code, { language: "ts", ignoreIllegals: true }).value;
		expect(html).toContain("language-css");
		expect(lazy.highlightCode(code, "ts")).toEqual(lazy.segmentsOfHtml(html));
		// The module's own instance is back on segments after the fallback.
		expect(lazy.highlightCode("let a = 1", "ts")).toEqual(lazy.segmentsOfHtml(reference.highlight("let a = 1", { language: "ts" }).value));
	});
});
