// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the MCP configuration syntax these tests use
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describeTransport, expandVariables, loadMcpConfig, parseMcpServers } from "../../../src/extensions/mcp/config.js";
import { agentToolName, toAgentToolResult } from "../../../src/extensions/mcp/tools.js";
import { readSettingsFile } from "../../../src/session/settings.js";
import { putFile } from "../../helpers/put-file.js";
import { createFixture, type Fixture } from "../../session/session-fixture.js";

let fx: Fixture;
afterEach(async () => {
	await fx?.cleanup();
});

describe("MCP configuration", () => {
	it("reads Claude Code's .mcp.json shapes: stdio (type optional) and http, with ${VAR} and ${VAR:-default}", () => {
		const servers = parseMcpServers(
			{
				gh: { command: "npx", args: ["-y", "server-github"], env: { TOKEN: "${GH_TOKEN}" } },
				web: { type: "http", url: "${BASE:-http://127.0.0.1:9}/mcp", headers: { Authorization: "Bearer ${GH_TOKEN}" }, timeout: 5000 },
			},
			"/p/.mcp.json",
			"mcp-json",
			{ GH_TOKEN: "ghp_abcdef" },
		);
		expect(servers[0]).toMatchObject({
			name: "gh",
			transport: { type: "stdio", command: "npx", args: ["-y", "server-github"], env: { TOKEN: "ghp_abcdef" } },
		});
		expect(servers[1]).toMatchObject({
			transport: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer ghp_abcdef" } },
			timeoutMs: 5000,
		});
		expect(servers[1].secrets).toEqual(["ghp_abcdef", "Bearer ghp_abcdef"]);
		expect(describeTransport(servers[0])).toBe("npx -y server-github (env: TOKEN)");
		expect(expandVariables("${UNSET}-x", {})).toBe("-x");
	});

	it("rejects a bad entry with one line naming the file and the field", () => {
		const bad = (servers: unknown) => () => parseMcpServers(servers, "/p/.mcp.json", "mcp-json", {});
		expect(bad({ gh: { args: [] } })).toThrow(
			'Invalid MCP configuration in /p/.mcp.json: "mcpServers.gh.command" must be a non-empty string',
		);
		expect(bad({ gh: { command: "x", args: "a b" } })).toThrow('"mcpServers.gh.args" must be an array of strings');
		expect(bad({ gh: { command: "x", comand: "y" } })).toThrow('"mcpServers.gh.comand" is not a known field');
		expect(bad({ "a b": { command: "x" } })).toThrow('"mcpServers.a b": the name must be 1-40 letters, digits, - or _');
		expect(bad({ s: { type: "sse", url: "http://x" } })).toThrow('"sse" servers are not supported');
		expect(bad({ w: { type: "http", url: "ftp://x" } })).toThrow('"mcpServers.w.url" must start with http:// or https://');
	});

	it("an http entry's oauth: a pre-registered client whose secret is a secret; bad fields named", () => {
		const [server] = parseMcpServers(
			{
				api: {
					type: "http",
					url: "https://api.example/mcp",
					oauth: { clientId: "rudder", clientSecret: "${API_SECRET}", callbackPort: 8976 },
				},
			},
			"/p/.mcp.json",
			"mcp-json",
			{ API_SECRET: "oauth-client-secret-42" },
		);
		expect(server?.transport).toMatchObject({ oauth: { clientId: "rudder", clientSecret: "oauth-client-secret-42", callbackPort: 8976 } });
		expect(server?.secrets).toContain("oauth-client-secret-42");
		const bad = (servers: unknown) => () => parseMcpServers(servers, "/p/.mcp.json", "mcp-json", {});
		const http = { type: "http", url: "https://a.example/mcp" };
		expect(bad({ a: { ...http, oauth: { callbackPort: 99999 } } })).toThrow(
			'"mcpServers.a.oauth.callbackPort" must be a port number (1-65535)',
		);
		expect(bad({ a: { ...http, oauth: { clientMetadataUrl: "http://a/x.json" } } })).toThrow(
			'"mcpServers.a.oauth.clientMetadataUrl" must be an https:// URL',
		);
		expect(bad({ a: { ...http, oauth: { clientID: "x" } } })).toThrow('"mcpServers.a.oauth.clientID" is not a known field');
		expect(bad({ a: { command: "x", oauth: { clientId: "x" } } })).toThrow('"mcpServers.a.oauth" applies to http servers only');
	});

	it("settings files accept mcpServers and report a bad one by file and field", async () => {
		fx = await createFixture();
		const file = join(fx.root, "settings.json");
		putFile(file, JSON.stringify({ mcpServers: { gh: { command: "" } }, enableAllProjectMcpServers: true }));
		expect(() => readSettingsFile(file)).toThrow(
			`Invalid settings in ${file}: "mcpServers" is invalid: "mcpServers.gh.command" must be a non-empty string`,
		);
		putFile(file, JSON.stringify({ mcpServers: { gh: { command: "x" } }, enabledMcpjsonServers: ["gh"] }));
		expect(readSettingsFile(file)).toMatchObject({ enabledMcpjsonServers: ["gh"] });
	});

	it("loads global settings, .mcp.json and project settings; a broken file is a warning and the rest still load", async () => {
		fx = await createFixture();
		putFile(
			join(fx.env.RUDDER_HOME, "settings.json"),
			JSON.stringify({ mcpServers: { a: { command: "global-a" }, b: { command: "global-b" } }, enableAllProjectMcpServers: true }),
		);
		putFile(join(fx.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { b: { command: "project-b" } } }));
		putFile(join(fx.cwd, ".rudder", "settings.json"), "{ not json");
		const loaded = loadMcpConfig({ cwd: fx.cwd, env: fx.env });
		expect(loaded.servers.map((s) => [s.name, s.source, s.transport.type === "stdio" && s.transport.command])).toEqual([
			["a", "global", "global-a"],
			["b", "mcp-json", "project-b"],
		]);
		expect(loaded.trust.enableAllProjectMcpServers).toBe(true);
		expect(loaded.warnings).toEqual([
			expect.stringMatching(/^Invalid JSON in .*\.rudder\/settings\.json: .* \(its MCP servers were not started\)$/),
		]);
	});
});

describe("MCP tools", () => {
	it("names tools mcp__server__tool within the providers' 64 characters, keeping long names apart", () => {
		expect(agentToolName("github", "create_issue")).toBe("mcp__github__create_issue");
		expect(agentToolName("fs", "read.file v2")).toBe("mcp__fs__read_file_v2");
		const long1 = agentToolName("server", `${"x".repeat(70)}a`);
		const long2 = agentToolName("server", `${"x".repeat(70)}b`);
		expect(long1).toHaveLength(64);
		expect(long1).not.toBe(long2);
	});

	it("maps text, images, resources and structured content into tool result content", () => {
		expect(
			toAgentToolResult({
				content: [
					{ type: "text", text: "a" },
					{ type: "image", data: "AAAA", mimeType: "image/png" },
					{ type: "resource", resource: { uri: "file:///x", text: "inline" } },
					{ type: "resource", resource: { uri: "file:///y", blob: "AAAA", mimeType: "application/pdf" } },
					{ type: "resource_link", uri: "file:///z", name: "z" },
					{ type: "audio", data: "AAAA", mimeType: "audio/wav" },
				],
			}).content,
		).toEqual([
			{ type: "text", text: "a" },
			{ type: "image", data: "AAAA", mimeType: "image/png" },
			{ type: "text", text: "inline" },
			{ type: "text", text: "[resource file:///y application/pdf, binary]" },
			{ type: "text", text: "[resource file:///z (z)]" },
			{ type: "text", text: "[audio audio/wav, 3 bytes]" },
		]);
		expect(toAgentToolResult({ content: [], structuredContent: { n: 1 } }).content).toEqual([{ type: "text", text: '{\n  "n": 1\n}' }]);
		const big = toAgentToolResult({ content: [{ type: "text", text: "line\n".repeat(5000) }] }).content[0];
		expect(big.type === "text" && big.text).toMatch(/\[Output cut at 2000 of 5001 lines \(50 KB cap\)\]$/);
	});
});
