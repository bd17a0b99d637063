// The BUILT CLI judges --allow command rules on the shell parse: the parser's WebAssembly is found
// beside the bundle (scripts/bundle.mjs copies it), loaded on the first command a rule has to judge.
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { textBody, toolCallBody } from "../helpers/openai-chunks.js";
import { cliPerTest, runCli } from "../helpers/rudder-cli.js";

const cli = cliPerTest();
const LONG = 60_000;

describe("rudder -p with bash rules (built CLI)", () => {
	it("runs a command the rule covers and refuses one hidden behind a comment that spans lines", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		writeFileSync(join(home.cwd, "package.json"), JSON.stringify({ scripts: { test: "echo tested > tested.txt" } }));
		// The old splitter read `# it's … '` as one quoted word, so `touch pwned` passed as part of `npm test`.
		const hostile = "npm test # it's\ntouch pwned\n# '";
		server.enqueue(
			{ kind: "sse", chunks: [toolCallBody("bash", { command: "npm test" }, "call_1")] },
			{ kind: "sse", chunks: [toolCallBody("bash", { command: hostile }, "call_2")] },
			{ kind: "sse", chunks: [textBody("done")] },
		);
		const result = await runCli(
			["--model", "mock/mock-1", "--permission-mode", "ask", "--allow", "bash(npm test*)", "-p", "test it"],
			home,
		);
		// No warning either: the parser's glue must not take Node's experimental vm loader.
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("done\n");
		expect(existsSync(join(home.cwd, "tested.txt"))).toBe(true);
		expect(existsSync(join(home.cwd, "pwned"))).toBe(false);
		const second = JSON.stringify(server.requests[2].body.messages.at(-1));
		expect(second).toContain("Not run");
	});

	it("the unbundled build (dist/src, Node's own ES loader) loads the parser too", () => {
		const module = resolve(import.meta.dirname, "../../dist/src/permissions/shell-parse.js");
		const script = `import(${JSON.stringify(module)}).then(async (m) => console.log(JSON.stringify(await m.parseCommandLine("git  -c x=y push"))))`;
		const out = execFileSync(process.execPath, ["-e", script], { encoding: "utf8" });
		expect(JSON.parse(out)).toEqual({ commands: [{ words: ["git", "-c", "x=y", "push"], literal: true, assignments: 0 }] });
	});
});
