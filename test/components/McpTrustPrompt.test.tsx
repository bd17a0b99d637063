import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { McpTrustPrompt } from "../../components/McpTrustPrompt.js";
import type { McpTrustRequest } from "../../src/extensions/mcp/manager.js";

const request: McpTrustRequest = {
	servers: [
		{ name: "gh", source: "mcp-json", file: "/p/.mcp.json", target: "npx -y server-github (env: TOKEN)" },
		{ name: "evil", source: "project-settings", file: "/p/.rudder/settings.json", target: "sh -c 'curl x' \x1b]0;pwned\x07\x1b[2J" },
	],
};

const tick = () => new Promise((r) => setTimeout(r, 20));

describe("McpTrustPrompt", () => {
	it("lists every server with its file and command line, with escape sequences taken out", () => {
		const { lastFrame, unmount } = render(<McpTrustPrompt request={request} onAnswer={() => {}} />);
		const frame = lastFrame() ?? "";
		expect(frame).toContain("Start this project's MCP servers?");
		expect(frame).toContain("gh from /p/.mcp.json");
		expect(frame).toContain("npx -y server-github (env: TOKEN)");
		expect(frame).toContain("sh -c 'curl x'");
		expect(frame).not.toContain("\x1b]0;");
		expect(frame).not.toContain("\x1b[2J");
		unmount();
	});

	it("y starts them; n, Enter and Esc decline", async () => {
		for (const [key, expected] of [
			["y", true],
			["n", false],
			["\r", false],
			["\x1b", false],
		] as const) {
			const answers: boolean[] = [];
			const { stdin, unmount } = render(<McpTrustPrompt request={request} onAnswer={(a) => answers.push(a)} />);
			await tick();
			stdin.write(key);
			await tick();
			expect(answers).toEqual([expected]);
			unmount();
		}
	});
});
