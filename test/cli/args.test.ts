import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/cli/args.js";

const parse = (...args: string[]) => parseCliArgs(["node", "rudder", ...args], "9.8.7");
const run = (...args: string[]) => {
	const parsed = parse(...args);
	if (parsed.kind !== "run") throw new Error(`expected a run, got ${JSON.stringify(parsed)}`);
	return parsed.args;
};

describe("parseCliArgs", () => {
	it("takes positional words as the prompt", () => {
		expect(run("fix", "the", "bug")).toMatchObject({ message: "fix the bug", print: false, noSession: false });
	});

	it("-p takes an optional message and joins the positional words after it", () => {
		expect(run("-p", "hello", "world")).toMatchObject({ message: "hello world", print: true });
		expect(run("-p")).toMatchObject({ message: "", print: true });
	});

	it("reads every flag", () => {
		const args = run(
			"--provider",
			"openai",
			"--model",
			"gpt-5",
			"--api-key",
			"sk-x",
			"--thinking",
			"high",
			"-c",
			"--mode",
			"rpc",
			"--tools",
			"read, ls,,grep",
			"--system-prompt",
			"S",
			"--append-system-prompt",
			"A",
		);
		expect(args).toMatchObject({
			provider: "openai",
			model: "gpt-5",
			apiKey: "sk-x",
			thinking: "high",
			continue: true,
			resume: false,
			mode: "rpc",
			tools: ["read", "ls", "grep"],
			systemPrompt: "S",
			appendSystemPrompt: "A",
		});
	});

	it("reads the permission flags; --allow, --deny and --add-dir repeat", () => {
		expect(
			run(
				"--permission-mode",
				"auto-edit",
				"--allow",
				"bash(npm test*)",
				"--allow",
				"edit(src/**)",
				"--deny",
				"read(.env)",
				"--add-dir",
				"../lib",
				"--add-dir",
				"/tmp/x",
				"--trust-project",
			),
		).toMatchObject({
			permissionMode: "auto-edit",
			allow: ["bash(npm test*)", "edit(src/**)"],
			deny: ["read(.env)"],
			addDirs: ["../lib", "/tmp/x"],
			trustProject: true,
		});
		expect(run()).toMatchObject({ permissionMode: undefined, allow: [], deny: [], addDirs: [], trustProject: false });
		expect(parse("--permission-mode", "careful")).toMatchObject({ kind: "exit", code: 2 });
		expect(parse("--deny", "read(")).toMatchObject({
			kind: "exit",
			code: 2,
			stderr: expect.stringMatching(/^rudder: --deny: permission rule "read\(" must be/),
		});
	});

	it("tells --session <id> from --no-session", () => {
		expect(run("--session", "abc123")).toMatchObject({ session: "abc123", noSession: false });
		expect(run("--no-session")).toMatchObject({ session: undefined, noSession: true });
	});

	it("--list-models with and without a search", () => {
		expect(run("--list-models").listModels).toBe(true);
		expect(run("--list-models", "sonnet").listModels).toBe("sonnet");
		expect(run().listModels).toBeUndefined();
	});

	it("--mode acp, and the subcommand `rudder acp` as its spelling (flags after it still read)", () => {
		expect(run("--mode", "acp")).toMatchObject({ mode: "acp", message: "" });
		expect(run("acp", "--no-session", "--model", "mock/m")).toMatchObject({ mode: "acp", noSession: true, model: "mock/m", message: "" });
		// Only as the first word: elsewhere "acp" is part of the prompt.
		expect(run("explain", "acp")).toMatchObject({ mode: undefined, message: "explain acp" });
	});

	it("help and version end with code 0 and text for stdout", () => {
		expect(parse("-v")).toEqual({ kind: "exit", code: 0, stdout: "9.8.7\n", stderr: "" });
		const help = parse("--help");
		expect(help).toMatchObject({ kind: "exit", code: 0, stderr: "" });
		expect(help.kind === "exit" && help.stdout).toMatch(/--mode <mode>/);
	});

	it("bad usage is one line on stderr and code 2", () => {
		expect(parse("--thinking", "huge")).toEqual({
			kind: "exit",
			code: 2,
			stdout: "",
			stderr: expect.stringMatching(/^rudder: option '--thinking <level>' argument 'huge' is invalid\. .*\(see rudder --help\)\n$/),
		});
		expect(parse("--mode", "xml")).toMatchObject({ kind: "exit", code: 2 });
		expect(parse("--model")).toMatchObject({ kind: "exit", code: 2, stderr: expect.stringMatching(/argument missing/) });
	});
});
