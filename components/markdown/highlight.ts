// Syntax colouring for closed code blocks. highlight.js is imported lazily (it is not needed for the
// first frame) with a handful of languages; until it has loaded, code renders uncoloured.

export interface CodeSegment {
	text: string;
	/** An Ink colour name, or undefined for plain text. */
	color?: string;
}

interface Highlighter {
	highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): { value: string };
	getLanguage(name: string): unknown;
	registerLanguage(name: string, definition: unknown): void;
	registerAliases(aliases: string[], options: { languageName: string }): void;
}

let highlighter: Highlighter | undefined;
let loading: Promise<void> | undefined;

const SCOPE_COLORS: Record<string, string> = {
	keyword: "magenta",
	built_in: "cyan",
	type: "cyan",
	literal: "yellow",
	number: "yellow",
	string: "green",
	regexp: "green",
	comment: "gray",
	meta: "gray",
	title: "blue",
	function: "blue",
	attr: "cyan",
	attribute: "cyan",
	variable: "red",
	params: "white",
	symbol: "yellow",
	addition: "green",
	deletion: "red",
};

/**
 * The languages coloured, each with every other name it answers to: highlight.js's own aliases and
 * ours ("shell"). A name must be here to load its language on first
 * use (test/components/markdown/highlight.test.ts checks this against the installed grammars).
 */
export const LANGUAGES: Record<string, string[]> = {
	typescript: ["ts", "tsx", "mts", "cts"],
	javascript: ["js", "jsx", "mjs", "cjs"],
	python: ["py", "gyp", "ipython"],
	bash: ["sh", "zsh", "shell"],
	json: ["jsonc", "json5"],
	rust: ["rs"],
	go: ["golang"],
	diff: ["patch"],
};

/** Every name and alias (highlight.js matches them in any case) → its language. */
const LANGUAGE_OF = new Map(Object.entries(LANGUAGES).flatMap(([name, aliases]) => [name, ...aliases].map((n) => [n, name])));

/** The language modules' definitions, loaded but not yet registered: each grammar is built on first use. */
let definitions: Map<string, unknown> | undefined;

/** Starts loading highlight.js once; resolves when code can be coloured. */
export function loadHighlighter(): Promise<void> {
	loading ??= (async () => {
		const core = (await import("highlight.js/lib/core")).default;
		const modules: Promise<{ default: unknown }>[] = [
			import("highlight.js/lib/languages/typescript"),
			import("highlight.js/lib/languages/javascript"),
			import("highlight.js/lib/languages/python"),
			import("highlight.js/lib/languages/bash"),
			import("highlight.js/lib/languages/json"),
			import("highlight.js/lib/languages/rust"),
			import("highlight.js/lib/languages/go"),
			import("highlight.js/lib/languages/diff"),
		];
		const loaded = await Promise.all(modules);
		definitions = new Map(Object.keys(LANGUAGES).map((name, i) => [name, loaded[i].default]));
		highlighter = core as unknown as Highlighter;
	})().catch(() => {
		// Colour is a nicety: without highlight.js code still renders.
	});
	return loading;
}

/**
 * Whether `language` can be coloured. A language of the table is registered (its grammar built) the
 * first time a block asks for it: building all of them at load took ~45 ms that most sessions never use.
 */
function ready(core: Highlighter, language: string): boolean {
	if (core.getLanguage(language)) return true;
	const name = LANGUAGE_OF.get(language.toLowerCase());
	const definition = name === undefined ? undefined : definitions?.get(name);
	if (definition === undefined || name === undefined) return false;
	definitions?.delete(name);
	core.registerLanguage(name, definition);
	core.registerAliases(LANGUAGES[name], { languageName: name });
	return core.getLanguage(language) !== undefined;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" };
const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, e: string) => ENTITIES[e]);

/** Whether highlight.js has loaded (code rendered before then is uncoloured). */
export const highlighterLoaded = (): boolean => highlighter !== undefined;

/** Coloured segments of `code`, or undefined when the language is unknown or highlight.js has not loaded. */
export function highlightCode(code: string, language: string | undefined): CodeSegment[] | undefined {
	if (!highlighter || !language || !ready(highlighter, language)) return undefined;
	const html = highlighter.highlight(code, { language, ignoreIllegals: true }).value;
	const segments: CodeSegment[] = [];
	const stack: (string | undefined)[] = [];
	const token = /<span class="hljs-([\w-]+)[^"]*">|<\/span>|([^<]+)/g;
	for (let m = token.exec(html); m; m = token.exec(html)) {
		if (m[1] !== undefined) stack.push(SCOPE_COLORS[m[1]] ?? stack[stack.length - 1]);
		else if (m[2] !== undefined) segments.push({ text: unescapeHtml(m[2]), color: stack[stack.length - 1] });
		else stack.pop();
	}
	return segments;
}
