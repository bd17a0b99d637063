// `/mcp login <server>` and `/mcp logout <server>` through a session's submit: the sign-in runs in the
// background and reports in notices, the server restarts ready; logout deletes the tokens and the
// server needs sign-in again; bad usage is one error notice.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentSession } from "../../../../src/session/agent-session.js";
import { createFixture, type Fixture } from "../../../session/session-fixture.js";
import { writeGlobalSettings } from "../mcp-fixture.js";
import { type OAuthWorld, startOAuthWorld } from "./oauth-world.js";

const BROWSER_SCRIPT = fileURLToPath(new URL("../../../fixtures/mcp/follow-browser.mjs", import.meta.url));

let fx: Fixture | undefined;
let world: OAuthWorld | undefined;
afterEach(async () => {
	await fx?.cleanup();
	await world?.close();
	fx = undefined;
	world = undefined;
});

async function until(check: () => boolean): Promise<void> {
	for (let i = 0; !check(); i++) {
		if (i > 400) throw new Error("condition not met in time");
		await new Promise((r) => setTimeout(r, 25));
	}
}

const status = (session: AgentSession) => session.mcpServers()[0]?.status;

describe("/mcp login and /mcp logout", () => {
	it("signs in in the background, restarts the server, and logout makes it need sign-in again", async () => {
		fx = await createFixture();
		world = await startOAuthWorld({});
		writeGlobalSettings(fx, { mcpServers: { remote: { type: "http", url: world.mcpUrl } } });
		const session = await fx.open({ env: { ...fx.env, PATH: process.env.PATH ?? "", BROWSER: `${process.execPath} ${BROWSER_SCRIPT}` } });
		session.startMcpServers("interactive");
		await until(() => status(session) === "needs-login");

		await session.submit("/mcp login");
		expect(fx.notices().at(-1)).toBe("Usage: /mcp login <server>");
		await session.submit("/mcp login nope");
		expect(fx.notices().at(-1)).toBe('No MCP server "nope" (configured: remote)');

		await session.submit("/mcp login remote");
		await until(() => status(session) === "ready");
		expect(fx.notices().some((n) => n.startsWith('Opened your browser to sign in to MCP server "remote":\nhttp://127.0.0.1:'))).toBe(true);
		expect(fx.notices()).toContain('Signed in to MCP server "remote"; restarting it');
		expect(session.mcpServers()[0]?.tools).toEqual(["mcp__remote__whoami"]);

		await session.submit("/mcp logout remote");
		expect(fx.notices()).toContain('Signed out of MCP server "remote" (its stored tokens are deleted)');
		await until(() => status(session) === "needs-login");
		await session.submit("/mcp logout remote");
		expect(fx.notices().at(-1)).toBe('No sign-in is stored for MCP server "remote"');
		await session.submit("/mcp");
		expect(fx.notices().at(-1)).toMatch(/remote {2}needs-login .*\n {4}sign in with \/mcp login remote/);
	});

	it("a second /mcp login while one waits for the browser opens no other page; closing the session ends the wait", async () => {
		fx = await createFixture();
		world = await startOAuthWorld({});
		writeGlobalSettings(fx, { mcpServers: { remote: { type: "http", url: world.mcpUrl } } });
		// A browser that never comes back.
		const session = await fx.open({ env: { ...fx.env, PATH: process.env.PATH ?? "", BROWSER: "true" } });
		session.startMcpServers("interactive");
		await until(() => status(session) === "needs-login");
		await session.submit("/mcp login remote");
		await until(() => fx?.notices().some((n) => n.startsWith("Opened your browser")) === true);
		await session.submit("/mcp login remote");
		expect(fx.notices().at(-1)).toBe('A sign-in to MCP server "remote" is already waiting for the browser');
		await session.dispose();
		await until(() => fx?.notices().at(-1) === 'Sign-in to MCP server "remote" failed: sign-in cancelled');
		expect(world.log.tokenGrants).toEqual([]);
	});
});
