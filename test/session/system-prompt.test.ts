import { expect, it } from "vitest";
import { buildSystemPrompt } from "../../src/session/system-prompt.js";

const tools = [
	{ name: "read", description: "Read a file.\nMore details the prompt should not repeat." },
	{ name: "bash", description: "Run a shell command." },
];

it("names the role, each tool on one line, cwd, date and OS, then context files under their paths", () => {
	const prompt = buildSystemPrompt({
		cwd: "/work/proj",
		tools,
		contextFiles: [
			{ path: "/home/u/.config/rudder/AGENTS.md", content: "Global rule." },
			{ path: "/work/proj/AGENTS.md", content: "Project rule." },
		],
		date: new Date("2026-03-04T10:00:00Z"),
		os: "linux",
	});
	expect(prompt).toMatch(/^You are Rudder, a coding assistant/);
	expect(prompt).toContain("- read: Read a file.\n- bash: Run a shell command.");
	expect(prompt).not.toContain("More details");
	expect(prompt).toContain("Current working directory: /work/proj");
	expect(prompt).toContain("Current date: 2026-03-04");
	expect(prompt).toContain("Operating system: linux");
	const global = prompt.indexOf("## /home/u/.config/rudder/AGENTS.md\n\nGlobal rule.");
	const project = prompt.indexOf("## /work/proj/AGENTS.md\n\nProject rule.");
	expect(global).toBeGreaterThan(prompt.indexOf("Operating system"));
	expect(project).toBeGreaterThan(global);
});

it("replaces the role with a custom prompt but keeps tools and environment, and appends extra text last", () => {
	const prompt = buildSystemPrompt({
		cwd: "/x",
		tools,
		contextFiles: [],
		customPrompt: "You are a pirate.",
		appendSystemPrompt: "Always rhyme.",
	});
	expect(prompt.startsWith("You are a pirate.")).toBe(true);
	expect(prompt).not.toContain("You are Rudder");
	expect(prompt).toContain("- bash: Run a shell command.");
	expect(prompt).toContain("Current working directory: /x");
	expect(prompt.endsWith("Always rhyme.")).toBe(true);
	expect(prompt).not.toContain("Project context");
});
