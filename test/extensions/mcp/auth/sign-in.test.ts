// Sign-in to protected MCP servers, end to end: the manager starts the server, which answers 401; the
// server shows "needs sign-in" with one notice; `signIn` (what /mcp login runs) opens $BROWSER, a
// script that follows the redirects through a real authorization server (SDK server-side helpers) to
// the loopback listener; the server restarts with the tokens and its tool answers. One test per
// variant the client must handle.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpAuthStore } from "../../../../src/extensions/mcp/auth/token-store.js";
import { parseMcpServers } from "../../../../src/extensions/mcp/config.js";
import { McpManager } from "../../../../src/extensions/mcp/manager.js";
import { type OAuthWorld, startOAuthWorld, type WorldOptions } from "./oauth-world.js";

const BROWSER_SCRIPT = fileURLToPath(new URL("../../../fixtures/mcp/follow-browser.mjs", import.meta.url));

interface Setup {
	world: OAuthWorld;
	manager: McpManager;
	notices: { level: string; text: string }[];
	env: Record<string, string>;
	browserLog: string;
	store: McpAuthStore;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});

async function setUp(options: WorldOptions, entry: Record<string, unknown> = {}): Promise<Setup> {
	const world = await startOAuthWorld(options);
	cleanups.push(() => world.close());
	const root = mkdtempSync(join(tmpdir(), "rudder-mcp-auth-"));
	cleanups.push(() => rmSync(root, { recursive: true, force: true }));
	const browserLog = join(root, "browser.log");
	const env = {
		PATH: process.env.PATH ?? "",
		RUDDER_HOME: root,
		BROWSER: `${process.execPath} ${BROWSER_SCRIPT}`,
		BROWSER_LOG: browserLog,
	};
	const notices: { level: string; text: string }[] = [];
	const manager = managerFor(world, env, entry, notices);
	return { world, manager, notices, env, browserLog, store: new McpAuthStore(env) };
}

/** A manager (as a new session would make) for the world's server, in the home `env` names. */
function managerFor(world: OAuthWorld, env: Record<string, string>, entry: Record<string, unknown>, notices: Setup["notices"]): McpManager {
	const servers = parseMcpServers({ srv: { type: "http", url: world.mcpUrl, ...entry } }, "settings.json", "global", env);
	const manager = new McpManager({
		servers,
		trust: { enableAllProjectMcpServers: false, enabledMcpjsonServers: [] },
		cwd: env.RUDDER_HOME,
		env,
		notify: (level, text) => notices.push({ level, text }),
		onToolsChanged: () => {},
	});
	cleanups.push(() => manager.dispose());
	return manager;
}

async function until(check: () => boolean): Promise<void> {
	for (let i = 0; !check(); i++) {
		if (i > 400) throw new Error("condition not met in time");
		await new Promise((r) => setTimeout(r, 25));
	}
}

const status = (s: Setup) => s.manager.servers()[0]?.status;

async function callWhoami(s: Setup): Promise<string> {
	const tool = s.manager.tools().find((t) => t.name === "mcp__srv__whoami");
	if (!tool) throw new Error("no whoami tool");
	const result = await tool.execute("call-1", {}, undefined);
	return (result.content[0] as { text: string }).text;
}

async function startAndSignIn(s: Setup): Promise<void> {
	s.manager.start("interactive");
	await until(() => status(s) === "needs-login");
	await s.manager.signIn("srv");
	await until(() => status(s) === "ready");
}

describe("MCP sign-in", () => {
	it("a server answering 401 needs sign-in (one notice); signing in via WWW-Authenticate discovery and registration makes it work", async () => {
		const s = await setUp({ prm: "www-authenticate" });
		s.manager.start("interactive");
		await until(() => status(s) === "needs-login");
		expect(s.notices.filter((n) => n.text.includes("needs sign-in"))).toEqual([
			{ level: "warning", text: 'MCP server "srv" needs sign-in: /mcp login srv' },
		]);
		expect(s.world.log.registrations).toBe(0);
		await s.manager.signIn("srv");
		await until(() => status(s) === "ready");
		expect(await callWhoami(s)).toMatch(/^hello client-/);
		expect(s.world.log.registrations).toBe(1);
		const [authorization] = s.world.log.authorizations;
		// The scope from WWW-Authenticate, the resource indicator of the server, a loopback redirect.
		expect(authorization).toMatchObject({ scope: "basic", resource: s.world.mcpUrl });
		expect(authorization.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
		expect(s.world.log.tokenGrants).toEqual([expect.objectContaining({ grant: "authorization_code", resource: s.world.mcpUrl })]);
		// The URL is given in a notice too (for SSH sessions), and the browser got exactly it.
		const urlNotice = s.notices.find((n) => n.text.includes("sign in to"));
		const browserUrl = readFileSync(s.browserLog, "utf8").trim();
		expect(urlNotice?.text).toContain(browserUrl);
		expect(browserUrl).toMatch(/code_challenge_method=S256/);
		// Tokens are stored 0600, and never in a notice.
		expect(statSync(s.store.file).mode & 0o777).toBe(0o600);
		const token = s.world.log.bearerTokens.at(-1) ?? "";
		expect(token).toMatch(/^at-/);
		expect(readFileSync(s.store.file, "utf8")).toContain(token);
		expect(JSON.stringify(s.notices)).not.toContain(token);
	});

	it("finds the metadata at the well-known path when WWW-Authenticate does not name it", async () => {
		const s = await setUp({ prm: "well-known" });
		await startAndSignIn(s);
		expect(await callWhoami(s)).toMatch(/^hello /);
	});

	it("falls back to OpenID discovery when the authorization server has no RFC 8414 document", async () => {
		const s = await setUp({ prm: "well-known", oidc: true });
		await startAndSignIn(s);
		expect(await callWhoami(s)).toMatch(/^hello /);
	});

	it("uses a pre-registered client from the entry's oauth and does not register", async () => {
		const s = await setUp(
			{ registration: false, preRegistered: { clientId: "rudder-test", clientSecret: "s3cret-value-123" } },
			{ oauth: { clientId: "rudder-test", clientSecret: "s3cret-value-123" } },
		);
		await startAndSignIn(s);
		expect(await callWhoami(s)).toBe("hello rudder-test");
		expect(s.world.log.registrations).toBe(0);
		expect(readFileSync(s.store.file, "utf8")).not.toContain("s3cret-value-123");
	});

	it("uses a client ID metadata document URL when the authorization server supports it", async () => {
		const cimd = "https://rudder.example/oauth/client.json";
		const s = await setUp({ cimdUrl: cimd, registration: false }, { oauth: { clientMetadataUrl: cimd } });
		await startAndSignIn(s);
		expect(await callWhoami(s)).toBe(`hello ${cimd}`);
		expect(s.world.log.authorizations[0]?.clientId).toBe(cimd);
	});

	it("refuses a server whose protected-resource document names another resource, before any authorization", async () => {
		const s = await setUp({ prmResource: "https://evil.example/mcp" });
		s.manager.start("interactive");
		await until(() => status(s) === "failed");
		expect(s.manager.servers()[0]?.error).toContain("https://evil.example/mcp");
		await s.manager.signIn("srv");
		expect(s.notices.at(-1)).toMatchObject({ level: "error" });
		expect(s.notices.at(-1)?.text).toContain('Sign-in to MCP server "srv" failed');
		expect(s.notices.at(-1)?.text).toContain("https://evil.example/mcp");
		expect(s.world.log.authorizations).toEqual([]);
		expect(s.world.log.registrations).toBe(0);
	});

	it("refreshes an expired token without asking again", async () => {
		const s = await setUp({ refresh: true });
		await startAndSignIn(s);
		s.world.expireTokens();
		// The call's 401 is answered by a refresh and the call is sent again: no browser, no notice.
		expect(await callWhoami(s)).toMatch(/^hello /);
		expect(s.world.log.tokenGrants.map((g) => g.grant)).toEqual(["authorization_code", "refresh_token"]);
		expect(s.world.log.authorizations).toHaveLength(1);
		expect(status(s)).toBe("ready");
	});

	it("a tool call refused for want of scope asks for the scope at the next sign-in (step-up)", async () => {
		const s = await setUp({ callScope: "write" });
		await startAndSignIn(s);
		expect(s.world.log.authorizations[0]?.scope).toBe("basic");
		await expect(callWhoami(s)).rejects.toThrow('needs more access for this call (scope "basic write")');
		expect(s.notices.filter((n) => n.text.includes("needs more access"))).toHaveLength(1);
		await s.manager.signIn("srv");
		await until(() => status(s) === "ready" && s.manager.tools().length > 0);
		expect(s.world.log.authorizations[1]?.scope).toBe("basic write");
		expect(await callWhoami(s)).toMatch(/^hello /);
	});

	it("a scope that sign-ins never obtain stops being suggested after the retry limit", async () => {
		const s = await setUp({ callScope: "write", grants: ["basic"] });
		await startAndSignIn(s);
		await expect(callWhoami(s)).rejects.toThrow("needs more access for this call");
		for (let round = 1; round <= 2; round++) {
			await s.manager.signIn("srv");
			await until(() => status(s) === "ready" && s.manager.tools().length > 0);
			const again = callWhoami(s);
			if (round === 1)
				await expect(again).rejects.toThrow(
					'needs more access for this call (scope "basic write"); the user can grant it with /mcp login srv',
				);
			else await expect(again).rejects.toThrow('refused the request for want of scope "basic write" even after signing in for it');
		}
		expect(s.world.log.authorizations.map((a) => a.scope)).toEqual(["basic", "basic write", "basic write"]);
		const notices = s.notices.filter((n) => n.text.includes('scope "')).map((n) => n.text);
		expect(notices).toEqual([
			'MCP server "srv" needs more access (scope "basic write"): /mcp login srv',
			'MCP server "srv" still refuses a call for want of scope "basic write" after signing in for it',
		]);
	});

	it("a server that now names another authorization server gets neither the refresh token nor a registration sent there", async () => {
		const s = await setUp({ refresh: true });
		await startAndSignIn(s);
		const other = await startOAuthWorld({ refresh: true });
		cleanups.push(() => other.close());
		s.world.pointTo(other.authUrl);
		s.world.expireTokens();
		// The next session: its start meets the expired token, and the server's metadata names the other server.
		const next = { ...s, manager: managerFor(s.world, s.env, {}, s.notices) };
		next.manager.start("headless");
		await until(() => status(next) === "needs-login");
		expect(other.log).toMatchObject({ registrations: 0, tokenGrants: [], authorizations: [] });
		expect(s.world.log.tokenGrants.map((g) => g.grant)).toEqual(["authorization_code"]);
	});
});
