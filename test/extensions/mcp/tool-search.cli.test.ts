// tool_search end to end: the built CLI (rpc) with 200 tools of the SDK's McpServer over stdio and a
// scripted model on 127.0.0.1 speaking OpenAI chat completions. The model's first request carries
// tool_search and no MCP schema; it searches, the found tool's schema comes with the next request, and
// the model calls it on the server.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textBody, toolCallBody } from "../../helpers/openai-chunks.js";
import { putFile } from "../../helpers/put-file.js";
import { cliPerTest } from "../../helpers/rudder-cli.js";
import { featureServer } from "./mcp-fixture.js";

const LONG = 90_000;
const cli = cliPerTest();

const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function.name);

describe("tool_search through the CLI", () => {
	it("200 tools: tool_search first, the found tool's schema next, and the call runs on the server", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		putFile(
			join(home.rudderHome, "settings.json"),
			JSON.stringify({ permissions: { allow: ["mcp__*"] }, mcpServers: { features: featureServer(200) } }),
		);
		server.enqueue(
			{ kind: "sse", chunks: [toolCallBody("tool_search", { query: "select:mcp__features__t150" }, "call_s")] },
			{ kind: "sse", chunks: [toolCallBody("mcp__features__t150", { id: "r9", action: "restore" }, "call_t")] },
			{ kind: "sse", chunks: [textBody("Restored.")] },
		);
		const client = cli.rpc();
		client.send({ id: "p", type: "prompt", message: "restore r9 with t150" });
		const end = await client.waitFor((l) => l.type === "agent_end");
		const [first, second, third] = server.requests.map((r) => r.body);
		expect(toolNames(first)).toContain("tool_search");
		expect(toolNames(first).filter((n) => n.startsWith("mcp__"))).toEqual([]);
		const search = first.tools.find((t: any) => t.function.name === "tool_search");
		expect(search.function.description).toContain("mcp__features__t150");
		expect(toolNames(second).filter((n) => n.startsWith("mcp__"))).toEqual(["mcp__features__t150"]);
		expect(toolNames(third).filter((n) => n.startsWith("mcp__"))).toEqual(["mcp__features__t150"]);
		const results = end.messages.filter((m: any) => m.role === "toolResult").map((m: any) => m.content[0].text);
		expect(results[1]).toBe('"t150 restore r9"');
		// The share of the request that carries the tools, before and after: every schema vs. what was sent.
		const size = (body: any) => JSON.stringify(body.tools).length;
		expect(size(first)).toBeLessThan(20_000);
		expect((await client.end()).code).toBe(0);
	});
});
