// The built CLI with MCP servers configured: rpc `get_state` lists them, and print mode says once on
// stderr which project servers it did not start.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textBody } from "../../helpers/openai-chunks.js";
import { cliPerTest, runCli } from "../../helpers/rudder-cli.js";
import { markerLines, stdioServer } from "./mcp-fixture.js";

const LONG = 60_000;
const cli = cliPerTest();

describe("MCP servers through the CLI", () => {
	it("rpc get_state lists the servers with status and tools", { timeout: LONG }, async () => {
		const { home } = await cli.setUp();
		writeFileSync(join(home.rudderHome, "settings.json"), JSON.stringify({ mcpServers: { fx: stdioServer() } }));
		const client = cli.rpc();
		const ask = async (id: string) => {
			client.send({ id, type: "get_state" });
			return (await client.waitFor((l) => l.id === id)).data.mcpServers;
		};
		let servers = await ask("s0");
		for (let i = 1; servers[0]?.status === "starting" && i < 100; i++) {
			await new Promise((r) => setTimeout(r, 100));
			servers = await ask(`s${i}`);
		}
		expect(servers).toEqual([
			expect.objectContaining({
				name: "fx",
				source: "global",
				status: "ready",
				tools: expect.arrayContaining(["mcp__fx__echo", "mcp__fx__hang"]),
			}),
		]);
		expect((await client.end()).code).toBe(0);
	});

	it("print mode does not start an untrusted project server and says how to allow it, once", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		server.enqueue({ kind: "sse", chunks: [textBody("hi")] });
		const marker = join(home.rudderHome, "marker.txt");
		writeFileSync(join(home.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { proj: stdioServer(marker) } }));
		const result = await runCli(["-p", "hello", "--model", "mock/mock-1", "--no-session"], home);
		const lines = result.stderr.split("\n").filter((l) => l.includes("MCP"));
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain("Project MCP servers not started, not trusted yet: proj");
		expect(lines[0]).toContain(`"enabledMcpjsonServers": ["proj"] to ${join(home.rudderHome, "settings.json")}`);
		expect(result.stdout).toBe("hi\n");
		expect(result.code).toBe(0);
		expect(markerLines(marker)).toEqual([]);
	});
});
