// An MCP server's prompts over rpc (built CLI, the SDK's McpServer over stdio, scripted model on
// 127.0.0.1): `prompt` with `/mcp__<server>__<prompt> args` sends the prompt's messages, a missing
// argument fails the command with its usage, and `get_commands` lists the prompts with their arguments.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { featureServer } from "../../extensions/mcp/mcp-fixture.js";
import { textBody } from "../../helpers/openai-chunks.js";
import { putFile } from "../../helpers/put-file.js";
import { cliPerTest } from "../../helpers/rudder-cli.js";

const LONG = 90_000;
const cli = cliPerTest();

describe("MCP prompts over rpc", () => {
	it("prompt /mcp__features__review sends the prompt's messages; get_commands lists it", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		putFile(join(home.rudderHome, "settings.json"), JSON.stringify({ mcpServers: { features: featureServer() } }));
		server.enqueue({ kind: "sse", chunks: [textBody("Reviewed.")] });
		const client = cli.rpc();
		client.send({ id: "bad", type: "prompt", message: "/mcp__features__review" });
		expect(await client.waitFor((l) => l.type === "response" && l.id === "bad")).toMatchObject({
			success: false,
			error: "/mcp__features__review needs file (usage: /mcp__features__review <file> [focus])",
		});
		client.send({ id: "p", type: "prompt", message: "/mcp__features__review src/a.ts races" });
		await client.waitFor((l) => l.type === "agent_end");
		expect(server.requests[0].body.messages.at(-1)).toMatchObject({ role: "user", content: "Please review src/a.ts for races." });
		client.send({ id: "c", type: "get_commands" });
		const commands = await client.waitFor((l) => l.type === "response" && l.id === "c");
		expect(commands.data.mcpPrompts).toContainEqual({
			name: "mcp__features__review",
			description: "Review a file ^[[2Jcarefully (MCP server features)",
			args: "<file> [focus]",
		});
		expect((await client.end()).code).toBe(0);
	});
});
