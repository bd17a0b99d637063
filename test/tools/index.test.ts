import { describe, expect, it } from "vitest";
import { validateToolArguments } from "../../src/ai/validation.js";
import { checkpointedToolNames, createAllTools, createCodingTools, toolNames } from "../../src/tools/index.js";

describe("tools index", () => {
	it("offers read, bash (with bash_output, kill_shell), edit, write, grep, find, web_fetch, web_search by default and all eleven by name", () => {
		expect(createCodingTools("/tmp").map((t) => t.name)).toEqual([
			"read",
			"bash",
			"bash_output",
			"kill_shell",
			"edit",
			"write",
			"grep",
			"find",
			"web_fetch",
			"web_search",
		]);
		const all = createAllTools("/tmp");
		expect(Object.keys(all)).toEqual([...toolNames]);
		for (const name of toolNames) expect(all[name].name).toBe(name);
	});

	it("gives every tool a schema the validator accepts and converts", () => {
		const all = createAllTools("/tmp");
		const args = validateToolArguments(all.read, { type: "toolCall", id: "1", name: "read", arguments: { path: "a", offset: "3" } });
		expect(args).toEqual({ path: "a", offset: 3 });
		expect(() => validateToolArguments(all.grep, { type: "toolCall", id: "1", name: "grep", arguments: {} })).toThrow(/pattern/);
	});
});

describe("checkpointedToolNames", () => {
	it("holds the built-in tools whose file changes the checkpoints see, never bash", () => {
		expect([...checkpointedToolNames].sort()).toEqual(
			["bash_output", "edit", "find", "grep", "kill_shell", "ls", "read", "web_fetch", "web_search", "write"].sort(),
		);
		expect(checkpointedToolNames.has("bash")).toBe(false);
	});
});
