import { describe, expect, it } from "vitest";
import { COMPLETION_ROWS, menuKey, menuRows, windowStart } from "../../../src/tui/input/CompletionMenu.js";
import { type CompletionSources, completionsFor, type DirEntry, MAX_COMPLETIONS } from "../../../src/tui/input/completion.js";
import { PathList } from "../../../src/tui/input/path-list.js";
import { PathSearch } from "../../../src/tui/input/path-search.js";
import { intentFor, parseKeyPress } from "../../../src/tui/keys/key-map.js";

const commands = [
	{ name: "model", description: "Switch model", args: "[pattern]" },
	{ name: "compact", description: "Summarise" },
	{ name: "quit", description: "Quit" },
];
const tree: Record<string, DirEntry[]> = {
	".": [
		{ name: "src", isDirectory: true },
		{ name: "README.md", isDirectory: false },
		{ name: ".git", isDirectory: true },
	],
	"src/": [
		{ name: "main.ts", isDirectory: false },
		{ name: "modes", isDirectory: true },
	],
};
const listDir = (dir: string) => {
	const entries = tree[dir];
	if (!entries) throw new Error("ENOENT");
	return entries;
};
const paths = [
	"README.md",
	"src/",
	"src/main.ts",
	"src/modes/",
	"src/modes/interactive.ts",
	"components/InputBox.tsx",
	"test/main.test.ts",
];
const sources: CompletionSources = { commands, listDir };
const search = new PathSearch({ limit: MAX_COMPLETIONS, onUpdate: () => {} });
const listing = PathList.of(paths);
const withPaths: CompletionSources = { commands, listDir, findPaths: (query) => search.find(query, listing) };

describe("completionsFor", () => {
	it("lists MCP resources after @ (first once a server is named) and MCP prompts with their arguments after /", () => {
		const resources = () => [
			{ ref: "docs:memo://notes", name: "notes" },
			{ ref: "docs:file:///guide.md", name: "guide" },
		];
		const mcp: CompletionSources = {
			commands: [...commands, { name: "mcp__docs__review", description: "Review (MCP server docs)", args: "<file> [focus]" }],
			listDir,
			findPaths: withPaths.findPaths,
			resources,
		};
		expect(completionsFor("see @docs:m", 11, mcp).map((c) => [c.label, c.detail])).toEqual([["@docs:memo://notes", "notes"]]);
		const chosen = completionsFor("see @docs:", 10, mcp)[0];
		expect(chosen.text).toBe("see @docs:memo://notes ");
		// Before a server is named, files come first and the resources after them.
		const mixed = completionsFor("@", 1, mcp).map((c) => c.label);
		expect(mixed.slice(-2)).toEqual(["@docs:memo://notes", "@docs:file:///guide.md"]);
		const prompt = completionsFor("/mcp__d", 7, mcp)[0];
		expect(prompt).toMatchObject({ label: "/mcp__docs__review", detail: "<file> [focus]  Review (MCP server docs)" });
		// Its argument is required: Enter on it does not run it bare.
		expect(prompt.submits).toBeUndefined();
	});

	it("completes slash commands at the start of the input only; Enter runs one without arguments", () => {
		const found = completionsFor("/m", 2, sources);
		expect(found.map((c) => c.label)).toEqual(["/model"]);
		expect(found[0]).toMatchObject({ text: "/model ", cursor: 7, detail: "[pattern]  Switch model" });
		// Optional arguments only: Enter runs it.
		expect(found[0].submits).toBe(true);
		expect(completionsFor("/q", 2, sources)[0].submits).toBe(true);
		const required = { commands: [{ name: "export", description: "Write", args: "<file>" }], listDir };
		expect(completionsFor("/ex", 3, required)[0].submits).toBeUndefined();
		expect(completionsFor("/export", 7, required)[0].submits).toBe(true);
		expect(completionsFor("say /m", 6, sources)).toEqual([]);
		expect(completionsFor("/model x", 8, sources)).toEqual([]);
	});

	it("offers every matching command, not the first five", () => {
		const many = Array.from({ length: 12 }, (_, i) => ({ name: `cmd${i}`, description: `d${i}` }));
		expect(completionsFor("/", 1, { commands: many, listDir })).toHaveLength(12);
	});

	it("completes @paths by folder listing, directories without a trailing space, hidden files only when asked", () => {
		expect(completionsFor("look at @", 9, sources).map((c) => c.label)).toEqual(["README.md", "src/"]);
		const inSrc = completionsFor("see @src/m", 10, sources);
		expect(inSrc.map((c) => c.label)).toEqual(["src/main.ts", "src/modes/"]);
		expect(inSrc[0]).toMatchObject({ text: "see @src/main.ts ", cursor: 17 });
		expect(inSrc[1].text).toBe("see @src/modes/");
		expect(completionsFor("@.g", 3, sources).map((c) => c.label)).toEqual([".git/"]);
		expect(completionsFor("@nope/x", 7, sources)).toEqual([]);
		expect(completionsFor("mail me@example", 15, sources)).toEqual([]);
	});

	it("fuzzy-matches the project's paths once they are known: not only prefixes", () => {
		expect(completionsFor("@inter", 6, withPaths)[0].label).toBe("src/modes/interactive.ts");
		expect(completionsFor("@ibox", 5, withPaths)[0].label).toBe("components/InputBox.tsx");
		const main = completionsFor("@main", 5, withPaths).map((c) => c.label);
		expect(main.slice(0, 2)).toEqual(["src/main.ts", "test/main.test.ts"]);
		expect(completionsFor("@zzz", 4, withPaths)).toEqual([]);
		// A folder path still lists that folder.
		expect(completionsFor("@src/", 5, withPaths).map((c) => c.label)).toEqual(["src/main.ts", "src/modes/"]);
	});
});

describe("completion menu keys", () => {
	const items = completionsFor("/", 1, {
		commands: [{ name: "export", description: "Write", args: "<file>" }, ...commands.slice(1)],
		listDir,
	});

	it("Up/Down select with wrap-around, Tab accepts, Enter accepts and runs argument-less commands, Esc closes", () => {
		expect(menuKey(items, 0, { type: "completionDown" })).toEqual({ kind: "select", selected: 1 });
		expect(menuKey(items, 0, { type: "completionUp" })).toEqual({ kind: "select", selected: 2 });
		expect(menuKey(items, 1, { type: "complete" })).toEqual({ kind: "accept", completion: items[1], submit: false });
		expect(menuKey(items, 1, { type: "completionAccept" })).toEqual({ kind: "accept", completion: items[1], submit: true });
		expect(menuKey(items, 0, { type: "completionAccept" })).toEqual({ kind: "accept", completion: items[0], submit: false });
		expect(menuKey(items, 0, { type: "completionClose" })).toEqual({ kind: "close" });
		// Esc while busy is the menu's first: the keys of an open menu go before the run's.
		expect(
			intentFor(parseKeyPress("\x1b"), { isStreaming: true, inputEmpty: false, sinceLastCtrlC: Infinity, completionOpen: true }),
		).toEqual({
			type: "completionClose",
		});
		expect(menuKey(items, 0, { type: "abort" })).toBeUndefined();
		expect(menuKey(items, 0, { type: "insert", text: "x" })).toBeUndefined();
		expect(menuKey([], 0, { type: "completionDown" })).toBeUndefined();
	});

	it("scrolls a window that keeps the selection in view", () => {
		expect(windowStart(20, 0)).toBe(0);
		expect(windowStart(20, COMPLETION_ROWS)).toBe(1);
		expect(windowStart(20, 19)).toBe(20 - COMPLETION_ROWS);
		expect(menuRows(3)).toBe(3);
		expect(menuRows(20)).toBe(COMPLETION_ROWS + 1);
	});
});
