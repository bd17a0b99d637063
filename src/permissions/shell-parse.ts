// A command line as bash parses it (tree-sitter-bash, through web-tree-sitter, both WASM, from
// @vscode/tree-sitter-wasm): the simple commands it runs and their words after quote removal, and
// whether it is *plain* — nothing but simple commands joined by `;`, `&&`, `||`, `|`, `&` and newlines,
// every word a literal, every redirect to /dev/null or another descriptor. Rules vouch for plain lines
// only; a deny rule looks at every command the tree holds. Loaded on the first rule check (~50 ms), not
// at launch.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** One simple command: its words (quotes removed) and whether each was a literal. */
export interface SimpleCommand {
	words: string[];
	/** Every word is a literal (no expansion, substitution, `$'…'`, or glob at a word's start). */
	literal: boolean;
	/** `NAME=value` words before the command (they change what runs: PAGER=, LD_PRELOAD=, GIT_*=). */
	assignments: number;
}

export interface ParsedLine {
	/** Every command in the tree, nested ones (in substitutions, subshells, functions) included. */
	commands: SimpleCommand[];
	/** Why a rule cannot vouch for this line; undefined when it is a plain list of simple commands. */
	notPlain?: string;
}

/** The parts of web-tree-sitter used here (its types come with the package; kept narrow on purpose). */
interface TsNode {
	type: string;
	text: string;
	isNamed: boolean;
	isMissing: boolean;
	hasError: boolean;
	children: (TsNode | null)[];
	namedChildren: (TsNode | null)[];
}
interface TsParser {
	parse(text: string): { rootNode: TsNode; delete(): void } | null;
}

let parser: TsParser | undefined;
let loading: Promise<TsParser> | undefined;

/** The package's folder, or the copy next to the bundle (scripts/bundle.mjs puts the .wasm files there). */
function wasmFile(name: string): string {
	const here = dirname(fileURLToPath(import.meta.url));
	const beside = join(here, "wasm", name);
	if (existsSync(beside)) return beside;
	const require = createRequire(import.meta.url);
	return join(dirname(require.resolve("@vscode/tree-sitter-wasm")), name);
}

/** Loads the parser once; later calls return the same one. */
export function loadShellParser(): Promise<TsParser> {
	if (parser) return Promise.resolve(parser);
	loading ??= (async () => {
		// A UMD file: Node's own ES loader gives its exports as `default` only; bundlers give them named.
		const loaded = (await import("@vscode/tree-sitter-wasm")) as typeof import("@vscode/tree-sitter-wasm") & { default?: unknown };
		const ts = (loaded.default ?? loaded) as typeof import("@vscode/tree-sitter-wasm");
		await ts.Parser.init({ wasmBinary: readFileSync(wasmFile("tree-sitter.wasm")) } as never);
		const bash = await ts.Language.load(readFileSync(wasmFile("tree-sitter-bash.wasm")));
		const made = new ts.Parser();
		made.setLanguage(bash);
		parser = made as unknown as TsParser;
		return parser;
	})();
	loading.catch(() => {
		loading = undefined;
	});
	return loading;
}

export function shellParserLoaded(): boolean {
	return parser !== undefined;
}

/** Parses `command`; undefined until `loadShellParser` has finished. */
export function parseLoaded(command: string): ParsedLine | undefined {
	if (!parser) return undefined;
	// tree-sitter splits a word at a backslash-newline where bash joins it (`git pu\⏎sh` is `git push`):
	// such a line is never plain, and its commands are read with the continuations removed.
	const continued = /\\\r?\n/.test(command);
	const tree = parser.parse(continued ? command.replace(/\\\r?\n/g, "") : command);
	if (!tree) return { commands: [], notPlain: "it could not be parsed" };
	try {
		const line = readLine(tree.rootNode);
		return continued ? { commands: line.commands, notPlain: "a line continuation (backslash-newline)" } : line;
	} finally {
		tree.delete();
	}
}

export async function parseCommandLine(command: string): Promise<ParsedLine> {
	await loadShellParser();
	return parseLoaded(command) as ParsedLine;
}

const named = (node: TsNode): TsNode[] => node.namedChildren.filter((c): c is TsNode => c !== null);

/** Node types a plain line may be built of, above the simple commands. */
const LIST_NODES = new Set(["program", "list", "pipeline", "negated_command", "redirected_statement"]);

/** Node types that say in one word why the line is not plain. */
const WHY: Record<string, string> = {
	comment: "a comment",
	command_substitution: "a command substitution",
	process_substitution: "a process substitution",
	ansi_c_string: "$'…' quoting",
	translated_string: '$"…" quoting',
	heredoc_redirect: "a here-document",
	herestring_redirect: "a here-string",
	function_definition: "a function",
	subshell: "a subshell",
	compound_statement: "a { … } group",
	variable_assignment: "a variable assignment",
	declaration_command: "a declaration",
	unset_command: "unset",
	test_command: "a [[ … ]] test",
	arithmetic_expansion: "arithmetic",
	simple_expansion: "a variable",
	expansion: "a variable",
	brace_expression: "brace expansion",
};

function readLine(root: TsNode): ParsedLine {
	const commands: SimpleCommand[] = [];
	let notPlain: string | undefined;
	const note = (why: string) => {
		notPlain ??= why;
	};
	if (root.hasError) note("it does not parse as a complete command");
	const visit = (node: TsNode, plainHere: boolean) => {
		if (node.isMissing || node.type === "ERROR") note("it does not parse as a complete command");
		if (node.type === "command") {
			commands.push(readCommand(node, plainHere ? note : () => {}));
			// Substitutions inside the words hold commands of their own.
			for (const child of named(node)) visitNested(child);
			return;
		}
		if (node.type === "file_redirect") {
			if (plainHere && !harmlessRedirect(node)) note("a redirect to a file");
			for (const child of named(node)) visitNested(child);
			return;
		}
		if (LIST_NODES.has(node.type)) {
			for (const child of named(node)) visit(child, plainHere);
			return;
		}
		if (plainHere) note(WHY[node.type] ?? `a ${node.type.replace(/_/g, " ")}`);
		for (const child of named(node)) visit(child, false);
	};
	const visitNested = (node: TsNode) => {
		if (node.type === "command") {
			commands.push(readCommand(node, () => {}));
			for (const child of named(node)) visitNested(child);
			return;
		}
		for (const child of named(node)) visitNested(child);
	};
	visit(root, true);
	if (commands.length === 0) note("it holds no command");
	return notPlain === undefined ? { commands } : { commands, notPlain };
}

/** Output to /dev/null, or one descriptor onto another (`2>&1`, `>&2`, `2>&-`). */
function harmlessRedirect(node: TsNode): boolean {
	const parts = named(node).filter((c) => c.type !== "file_descriptor");
	if (parts.length !== 1) return false;
	const destination = literalWord(parts[0]);
	const operator = node.children.find((c) => c !== null && !c.isNamed)?.text ?? "";
	if (destination === "/dev/null") return operator !== "<" && operator !== "<>";
	return (operator === ">&" || operator === "<&") && destination !== undefined && /^(\d+|-)$/.test(destination);
}

function readCommand(node: TsNode, note: (why: string) => void): SimpleCommand {
	const words: string[] = [];
	let literal = true;
	let assignments = 0;
	if (hasBareDollar(node)) {
		literal = false;
		note('$"…" quoting');
	}
	for (const child of named(node)) {
		if (child.type === "variable_assignment") {
			assignments++;
			note("a variable assignment before the command");
			continue;
		}
		if (child.type === "file_redirect" || child.type === "herestring_redirect") {
			if (child.type === "herestring_redirect") note("a here-string");
			else if (!harmlessRedirect(child)) note("a redirect to a file");
			continue;
		}
		const target = child.type === "command_name" ? (named(child)[0] ?? child) : child;
		const value = literalWord(target);
		if (value === undefined) {
			literal = false;
			note(whyNotLiteral(target));
			words.push(target.text);
		} else {
			words.push(value);
		}
	}
	return { words, literal, assignments };
}

function whyNotLiteral(node: TsNode): string {
	const stack = [node];
	while (stack.length > 0) {
		const n = stack.pop() as TsNode;
		if (WHY[n.type]) return WHY[n.type];
		stack.push(...named(n));
	}
	return node.type === "word" ? "a glob or brace pattern at the start of a word" : `a ${node.type.replace(/_/g, " ")}`;
}

/** A `$` token the grammar keeps apart (`$"…"`, a lone `$` before quotes). */
const hasBareDollar = (node: TsNode): boolean => node.children.some((c) => c !== null && !c.isNamed && c.type === "$");

/** Backslash escapes outside quotes: `\x` is `x`, a backslash-newline joins lines. */
function unescapeBare(text: string): string {
	return text.replace(/\\(\n|.)/gs, (_m, ch: string) => (ch === "\n" ? "" : ch));
}

/**
 * The value of a word after quote removal, or undefined when the shell would change it (expansions,
 * substitutions, `$'…'`, and globs or braces that could expand to names — a file named `--pre=x` — and
 * so to options).
 */
export function literalWord(node: TsNode): string | undefined {
	switch (node.type) {
		case "word":
		case "number": {
			// A glob at a word's start could expand to any name (a file named `--pre=x`), braces to any words.
			const bare = node.text.replace(/\\./gs, "x");
			if (/^[*?[]/.test(bare) || /\{[^}]*(,|\.\.)[^}]*\}/.test(bare)) return undefined;
			return unescapeBare(node.text);
		}
		case "raw_string":
			return node.text.slice(1, -1);
		case "string": {
			if (hasBareDollar(node)) return undefined;
			if (named(node).some((c) => c.type !== "string_content")) return undefined;
			return node.text.slice(1, -1).replace(/\\([$`"\\\n])/g, (_m, ch: string) => (ch === "\n" ? "" : ch));
		}
		case "concatenation": {
			let out = "";
			// `{a,b}` comes as pieces ("{", "a,b", "}"); `{}` alone (find's placeholder) stays literal.
			if (/\{[^}]*(,|\.\.)[^}]*\}/.test(node.text.replace(/\\./gs, "x"))) return undefined;
			if (hasBareDollar(node)) return undefined;
			for (const part of named(node)) {
				const value = literalWord(part);
				if (value === undefined) return undefined;
				out += value;
			}
			// `a'b'` concatenates; tree-sitter keeps bare pieces as words.
			return out;
		}
		default:
			return undefined;
	}
}
