import { describe, expect, it } from "vitest";
import { compileMatcher, matches } from "../../../src/extensions/hooks/matcher.js";
import { matchNames } from "../../../src/extensions/hooks/tool-names.js";

const matchesTool = (matcher: string, tool: string) => matches(matcher, matchNames(tool));

describe("hook matchers", () => {
	it("Claude Code's tool names match ours, through the table", () => {
		const table: [string, string][] = [
			["Bash", "bash"],
			["Edit", "edit"],
			["MultiEdit", "edit"],
			["Write", "write"],
			["Read", "read"],
			["Grep", "grep"],
			["Glob", "find"],
			["LS", "ls"],
		];
		for (const [claude, ours] of table) expect(matchesTool(claude, ours), `${claude} → ${ours}`).toBe(true);
		expect(matchesTool("Edit|Write", "write")).toBe(true);
		expect(matchesTool("Edit|Write", "bash")).toBe(false);
		// Our own names match too.
		expect(matchesTool("bash", "bash")).toBe(true);
	});

	it("plain names match exactly; anything else is a regular expression, not anchored, case-sensitive", () => {
		expect(matchesTool("Edit", "write")).toBe(false);
		expect(matchesTool("Ed", "edit")).toBe(false);
		expect(matchesTool("bash", "write")).toBe(false);
		expect(matchesTool("mcp__memory__.*", "mcp__memory__create")).toBe(true);
		expect(matchesTool("mcp__memory__.*", "mcp__github__create")).toBe(false);
		expect(matchesTool("mcp__.*__write.*", "mcp__fs__write_file")).toBe(true);
		expect(matchesTool("Noteb.*", "read")).toBe(false);
		expect(matchesTool("BASH", "bash")).toBe(false);
	});

	it("empty and * match everything; a broken expression is a problem and matches nothing", () => {
		expect(matchesTool("", "anything")).toBe(true);
		expect(matchesTool("*", "edit")).toBe(true);
		expect(compileMatcher("(")).toEqual({ problem: expect.stringMatching(/^is not a valid regular expression/) });
		expect(matches("(", ["("])).toBe(false);
	});

	it("a tool named like an Object property is only itself", () => {
		expect(matchNames("constructor")).toEqual(["constructor"]);
		expect(matchNames("toString")).toEqual(["toString"]);
	});
});
