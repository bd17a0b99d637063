// Syntax colouring for closed code blocks. highlight.js is imported lazily (it is not needed for the
// first frame) with a handful of languages; until it has loaded, code renders uncoloured.

export interface CodeSegment {
	text: string;
	/** An Ink colour name, or undefined for plain text. */
	color?: string;
}

interface Highlighter {
	highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): { value: string; _emitter?: object };
	configure(options: { __emitter: unknown }): void;
	newInstance(): { highlightAuto(code: string): { _emitter?: object } };
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
 * use (test/tui/markdown/highlight.test.ts checks this against the installed grammars).
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

/** The colour a scope's span gives its text: its first CSS class's, else the enclosing span's. */
const scopeColor = (className: string, outer: string | undefined): string | undefined => SCOPE_COLORS[className] ?? outer;

/** Segments of highlight.js's HTML: text between tags is one segment, coloured by the innermost span. */
export function segmentsOfHtml(html: string): CodeSegment[] {
	const segments: CodeSegment[] = [];
	const stack: (string | undefined)[] = [];
	const token = /<span class="hljs-([\w-]+)[^"]*">|<\/span>|([^<]+)/g;
	for (let m = token.exec(html); m; m = token.exec(html)) {
		if (m[1] !== undefined) stack.push(scopeColor(m[1], stack[stack.length - 1]));
		else if (m[2] !== undefined) segments.push({ text: unescapeHtml(m[2]), color: stack[stack.length - 1] });
		else stack.pop();
	}
	return segments;
}

/** A highlight.js scope → the first CSS class its HTML span carries, as segmentsOfHtml reads it. */
function firstClass(scope: string): string | undefined {
	const first = scope.split(".")[0];
	return /^[\w-]+/.exec(first)?.[0];
}

/**
 * highlight.js's emitter interface (addText, start/endScope, open/closeNode, __addSublanguage, finalize,
 * toHTML), giving segmentsOfHtml's segments straight from the parse: highlight.js then builds no token
 * tree and no HTML, and nothing is escaped and parsed back (a third of a code block's colouring). Text
 * runs break where a span would open or close, as they do in the HTML. A sub-language (a grammar
 * highlight.js nests, none of ours today) makes the result unusable: highlightCode then takes the HTML.
 */
class SegmentEmitter {
	readonly segments: CodeSegment[] = [];
	/** Per open node: whether it is a span (has a scope); spans also push a colour. */
	private readonly spans: boolean[] = [];
	private readonly colors: (string | undefined)[] = [];
	private text = "";
	nested = false;
	/** What __addSublanguage reads from a nested emitter (never used: `nested` discards the result). */
	readonly root = { children: [] };

	addText(text: string): void {
		this.text += text;
	}
	startScope(scope: string): void {
		this.openNode(scope);
	}
	endScope(): void {
		this.closeNode();
	}
	openNode(scope: string | undefined): void {
		const span = !!scope;
		this.spans.push(span);
		if (!span) return;
		this.flush();
		const className = scope.startsWith("language:") ? undefined : firstClass(scope);
		// A span segmentsOfHtml does not read as one (no "hljs-" class) cannot be mirrored here.
		if (className === undefined) this.nested = true;
		else this.colors.push(scopeColor(className, this.colors[this.colors.length - 1]));
	}
	closeNode(): void {
		// The root is never closed (TokenTree ignores the extra close).
		if (!this.spans.length || !this.spans.pop()) return;
		this.flush();
		this.colors.pop();
	}
	__addSublanguage(): void {
		this.nested = true;
	}
	finalize(): boolean {
		this.flush();
		return true;
	}
	toHTML(): string {
		return "";
	}
	private flush(): void {
		if (this.text === "") return;
		this.segments.push({ text: this.text, color: this.colors[this.colors.length - 1] });
		this.text = "";
	}
}

/** highlight.js's own emitter (its token tree, giving HTML). */
let htmlEmitter: unknown;

function highlightHtml(core: Highlighter, code: string, language: string): CodeSegment[] {
	core.configure({ __emitter: htmlEmitter });
	try {
		return segmentsOfHtml(core.highlight(code, { language, ignoreIllegals: true }).value);
	} finally {
		core.configure({ __emitter: SegmentEmitter });
	}
}

/** Coloured segments of `code`, or undefined when the language is unknown or highlight.js has not loaded. */
export function highlightCode(code: string, language: string | undefined): CodeSegment[] | undefined {
	if (!highlighter || !language || !ready(highlighter, language)) return undefined;
	const core = highlighter;
	if (htmlEmitter === undefined) {
		// A fresh instance's plain-text result carries highlight.js's default emitter, whatever ours was set to.
		htmlEmitter = core.newInstance().highlightAuto("")._emitter?.constructor;
		core.configure({ __emitter: SegmentEmitter });
	}
	const result = core.highlight(code, { language, ignoreIllegals: true });
	const emitter = result._emitter;
	// An illegal match or an error gives the code escaped, in `value`, from a fresh emitter.
	if (result.value !== "" || !(emitter instanceof SegmentEmitter)) return segmentsOfHtml(result.value);
	return emitter.nested ? highlightHtml(core, code, language) : emitter.segments;
}
