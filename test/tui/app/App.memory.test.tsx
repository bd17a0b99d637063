// `#text` in the input: a line for an AGENTS.md, not a prompt. A picker asks which file (the project's
// nearest or the global one); the choice goes to the session's /memory command, which writes the line.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryTargets } from "../../../src/session/memory-file.js";
import { memoryLine, memoryPicker } from "../../../src/tui/overlays/memory-picker.js";
import { mountApp } from "./mount-app.js";

const ENTER = "\r";
const DOWN = "\x1b[B";
const ESC = "\x1b";

let root: string | undefined;
afterEach(() => {
	if (root) rmSync(root, { recursive: true, force: true });
	root = undefined;
});

async function mountWithMemory() {
	root = realpathSync(mkdtempSync(join(tmpdir(), "rudder-memory-app-")));
	const repo = join(root, "repo");
	mkdirSync(join(repo, ".git"), { recursive: true });
	const mounted = await mountApp({ rows: 30, columns: 100 });
	mounted.session.memory = memoryTargets(repo, { RUDDER_HOME: join(root, "config") });
	return { ...mounted, repo, config: join(root, "config") };
}

describe("#text", () => {
	it("asks which AGENTS.md, then adds the line there; nothing is sent to the model", async () => {
		const { frame, type, session, repo, config } = await mountWithMemory();
		await type("# always use pnpm");
		await type(ENTER);
		expect(frame()).toContain('Add "always use pnpm" to which AGENTS.md?');
		expect(frame()).toMatch(/project .*repo\/AGENTS\.md \(new\)/);
		expect(frame()).toMatch(/global .*config\/AGENTS\.md \(new\)/);
		await type(DOWN);
		await type(ENTER);
		await vi.waitFor(() => expect(frame()).toContain("Added to "));
		expect(readFileSync(join(config, "AGENTS.md"), "utf8")).toBe("- always use pnpm\n");
		// And the project's, the first choice.
		await type("#tests live next to the code");
		await type(ENTER);
		await type(ENTER);
		await vi.waitFor(() => expect(readFileSync(join(repo, "AGENTS.md"), "utf8")).toBe("- tests live next to the code\n"));
		expect(session.calls.filter((c) => c.method === "prompt")).toEqual([]);
	});

	it("Esc closes the question and writes nothing; a heading or several lines are a prompt, not a memory", async () => {
		const { frame, type, repo } = await mountWithMemory();
		await type("# not this one");
		await type(ENTER);
		expect(frame()).toContain("to which AGENTS.md?");
		await type(ESC);
		expect(frame()).not.toContain("to which AGENTS.md?");
		expect(() => readFileSync(join(repo, "AGENTS.md"))).toThrow();
		expect(memoryLine("## Heading")).toBeUndefined();
		expect(memoryLine("# title\nbody")).toBeUndefined();
		expect(memoryLine("#")).toBeUndefined();
		expect(memoryLine("  #  keep it short ")).toBe("keep it short");
	});

	it("shows a hostile line sanitised, on one row, in the question", () => {
		const picker = memoryPicker(
			[{ scope: "project", file: "/r/AGENTS\x1b[2J.md", root: "/r", exists: false }],
			"evil\x1b]0;owned\x07\ntext",
			() => {},
		);
		expect(picker.title).not.toMatch(/[\x07\x1b\n]/);
		expect(picker.title).toContain("⏎text");
		expect(picker.items[0].label).not.toContain("\x1b");
	});
});
