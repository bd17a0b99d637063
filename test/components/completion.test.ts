import { describe, expect, it } from "vitest";
import { completionsFor, type DirEntry } from "../../components/completion.js";

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

describe("completionsFor", () => {
	it("completes slash commands at the start of the input only", () => {
		const found = completionsFor("/m", 2, commands, listDir);
		expect(found.map((c) => c.label)).toEqual(["/model"]);
		expect(found[0]).toMatchObject({ text: "/model ", cursor: 7, detail: "[pattern]  Switch model" });
		expect(completionsFor("say /m", 6, commands, listDir)).toEqual([]);
		expect(completionsFor("/model x", 8, commands, listDir)).toEqual([]);
	});

	it("completes @paths, directories without a trailing space, hidden files only when asked", () => {
		expect(completionsFor("look at @", 9, commands, listDir).map((c) => c.label)).toEqual(["README.md", "src/"]);
		const inSrc = completionsFor("see @src/m", 10, commands, listDir);
		expect(inSrc.map((c) => c.label)).toEqual(["src/main.ts", "src/modes/"]);
		expect(inSrc[0]).toMatchObject({ text: "see @src/main.ts ", cursor: 17 });
		expect(inSrc[1].text).toBe("see @src/modes/");
		expect(completionsFor("@.g", 3, commands, listDir).map((c) => c.label)).toEqual([".git/"]);
		expect(completionsFor("@nope/x", 7, commands, listDir)).toEqual([]);
		expect(completionsFor("mail me@example", 15, commands, listDir)).toEqual([]);
	});
});
