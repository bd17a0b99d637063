// Signing in to a protected MCP server in a real terminal (tmux, the built app): the server shows
// "needs sign-in" in one notice, `/mcp login` opens $BROWSER (a script following the redirects through
// a real authorization server) and prints the address, and `/mcp` then lists the server ready with its
// tool. RUDDER_SAVE_CAPTURE=1 writes the screens next to this file.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type OAuthWorld, startOAuthWorld } from "../extensions/mcp/auth/oauth-world.js";
import { putFile } from "../helpers/put-file.js";
import { tmuxAppPerTest } from "../helpers/tmux-app.js";

const LONG = 90_000;
const BROWSER_SCRIPT = fileURLToPath(new URL("../fixtures/mcp/follow-browser.mjs", import.meta.url));
const term = tmuxAppPerTest("rudder-e2e-mcp-sign-in");
const { capture, sendText, sendKey, waitForScreen, start } = term;

let world: OAuthWorld | undefined;
afterEach(async () => {
	await world?.close();
	world = undefined;
});

const save = (name: string, screen: string) => {
	if (process.env.RUDDER_SAVE_CAPTURE) writeFileSync(join(import.meta.dirname, name), screen.replace(/\n+$/, "\n"));
};

describe("MCP sign-in in a real terminal (tmux)", () => {
	it("needs sign-in shows once; /mcp login signs in through the browser; /mcp lists the server ready", { timeout: LONG }, async () => {
		world = await startOAuthWorld({ prm: "www-authenticate" });
		const { home } = await term.setUp();
		home.env.BROWSER = `${process.execPath} ${BROWSER_SCRIPT}`;
		putFile(join(home.rudderHome, "settings.json"), JSON.stringify({ mcpServers: { remote: { type: "http", url: world.mcpUrl } } }));
		await start(["--model", "mock/mock-1"]);
		const needs = await waitForScreen((s) => s.includes("needs sign-in"), "the needs-sign-in notice");
		expect(needs.replace(/\s+/g, " ").split('MCP server "remote" needs sign-in: /mcp login remote')).toHaveLength(2);
		sendText("/mcp");
		sendKey("Enter");
		const before = await waitForScreen((s) => s.includes("sign in with /mcp login remote"), "/mcp before the sign-in");
		expect(before).toContain("remote  needs-login");
		save("capture-mcp-needs-sign-in.txt", before);

		sendText("/mcp login remote");
		sendKey("Enter");
		const signedIn = await waitForScreen((s) => s.includes("Signed in to MCP server"), "the sign-in's notices");
		const flat = signedIn.replace(/\s+/g, "");
		expect(signedIn).toContain('Opened your browser to sign in to MCP server "remote":');
		expect(flat).toContain(`${world.authUrl}/authorize?`.replace(/\s+/g, ""));
		save("capture-mcp-sign-in.txt", signedIn);

		await waitForScreen(() => true, "");
		for (let i = 0; i < 50; i++) {
			sendText("/mcp");
			sendKey("Enter");
			const screen = await waitForScreen((s) => s.includes("MCP servers:"), "/mcp after the sign-in");
			if (screen.includes("remote  ready")) break;
			await new Promise((r) => setTimeout(r, 100));
		}
		const after = capture();
		expect(after).toContain("remote  ready");
		expect(after).toContain("tools: mcp__remote__whoami");
		save("capture-mcp-after-sign-in.txt", after);
		// The token reached the server and never the screen.
		const token = world.log.bearerTokens.at(-1) ?? "";
		expect(token).toMatch(/^at-/);
		expect(after).not.toContain(token);
	});
});
