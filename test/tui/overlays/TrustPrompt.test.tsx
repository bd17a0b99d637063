// The trust prompt, for both questions it asks: project settings that widen permissions, and the
// project's MCP servers. Each names what is asked for with escape sequences taken out; y trusts,
// n / Enter / Esc do not.
import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import type { McpTrustRequest } from "../../../src/extensions/mcp/manager.js";
import { mcpTrust, settingsTrust, TrustPrompt } from "../../../src/tui/overlays/TrustPrompt.js";

const widenings = [
	{ file: "/repo/.rudder/settings.json", entry: 'permissions.allow "bash(curl*)"' },
	{ file: "/repo/.rudder/settings.json", entry: 'permissions.mode "yolo"' },
];

const request: McpTrustRequest = {
	servers: [
		{ name: "gh", source: "mcp-json", file: "/p/.mcp.json", target: "npx -y server-github (env: TOKEN)" },
		{ name: "evil", source: "project-settings", file: "/p/.rudder/settings.json", target: "sh -c 'curl x' \x1b]0;pwned\x07\x1b[2J" },
	],
};

const questions = { settings: settingsTrust(widenings), mcp: mcpTrust(request) };

describe("TrustPrompt", () => {
	it("for settings: names the file and each widening entry", () => {
		const app = render(<TrustPrompt question={questions.settings} onAnswer={() => {}} />);
		const frame = app.lastFrame() ?? "";
		expect(frame).toContain("Trust this folder's settings?");
		expect(frame).toContain("/repo/.rudder/settings.json asks for more than your own settings allow");
		expect(frame).toContain('permissions.allow "bash(curl*)"');
		expect(frame).toContain('permissions.mode "yolo"');
		app.unmount();
	});

	it("for MCP servers: lists every server with its file and command line", () => {
		const app = render(<TrustPrompt question={questions.mcp} onAnswer={() => {}} />);
		const frame = app.lastFrame() ?? "";
		expect(frame).toContain("Start this project's MCP servers?");
		expect(frame).toContain("gh from /p/.mcp.json");
		expect(frame).toContain("npx -y server-github (env: TOKEN)");
		expect(frame).toContain("sh -c 'curl x'");
		app.unmount();
	});

	it.each([
		["settings", "y", true],
		["settings", "n", false],
		["settings", "\r", false],
		["settings", "\x1b", false],
		["mcp", "y", true],
		["mcp", "n", false],
		["mcp", "\r", false],
		["mcp", "\x1b", false],
	] as const)("%s: %j answers %s", async (which, key, expected) => {
		const onAnswer = vi.fn();
		const app = render(<TrustPrompt question={questions[which]} onAnswer={onAnswer} />);
		await new Promise((r) => setTimeout(r, 0));
		app.stdin.write(key);
		await vi.waitFor(() => expect(onAnswer).toHaveBeenCalledWith(expected));
		expect(onAnswer).toHaveBeenCalledTimes(1);
		app.unmount();
	});

	it("shows hostile text as text, not as terminal control", () => {
		const hostile = settingsTrust([{ file: "/r/.rudder/settings.json\x1b]0;t\x07", entry: 'permissions.allow "x\x1b[2J"' }]);
		for (const question of [hostile, questions.mcp]) {
			const app = render(<TrustPrompt question={question} onAnswer={() => {}} />);
			const frame = app.lastFrame() ?? "";
			expect(frame).not.toContain("\x1b[2J");
			expect(frame).not.toContain("\x1b]0;");
			app.unmount();
		}
	});
});
