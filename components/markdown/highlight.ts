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

/** Starts loading highlight.js once; resolves when code can be coloured. */
export function loadHighlighter(): Promise<void> {
	loading ??= (async () => {
		const core = (await import("highlight.js/lib/core")).default;
		const languages: [string, Promise<{ default: any }>][] = [
			["typescript", import("highlight.js/lib/languages/typescript")],
			["javascript", import("highlight.js/lib/languages/javascript")],
			["python", import("highlight.js/lib/languages/python")],
			["bash", import("highlight.js/lib/languages/bash")],
			["json", import("highlight.js/lib/languages/json")],
			["rust", import("highlight.js/lib/languages/rust")],
			["go", import("highlight.js/lib/languages/go")],
			["diff", import("highlight.js/lib/languages/diff")],
		];
		for (const [name, mod] of languages) core.registerLanguage(name, (await mod).default);
		core.registerAliases(["ts", "tsx"], { languageName: "typescript" });
		core.registerAliases(["js", "jsx", "mjs"], { languageName: "javascript" });
		core.registerAliases(["sh", "shell", "zsh"], { languageName: "bash" });
		core.registerAliases(["py"], { languageName: "python" });
		highlighter = core as unknown as Highlighter;
	})().catch(() => {
		// Colour is a nicety: without highlight.js code still renders.
	});
	return loading;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" };
const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, e: string) => ENTITIES[e]);

/** Coloured segments of `code`, or undefined when the language is unknown or highlight.js has not loaded. */
export function highlightCode(code: string, language: string | undefined): CodeSegment[] | undefined {
	if (!highlighter || !language || !highlighter.getLanguage(language)) return undefined;
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
