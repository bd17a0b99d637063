// The editor's MCP servers and the todo list over ACP (built CLI, SDK client, scripted model on
// 127.0.0.1): `session/new` with a stdio and a streamable HTTP server (the SDK's McpServer) starts them
// without a trust prompt and the model calls their tools; an SSE server is named in a warning; the todo
// list goes out as `plan` updates, and again when the session is loaded.
import { afterEach, describe, expect, it } from "vitest";
import { featureServerPath } from "../../extensions/mcp/mcp-fixture.js";
import { type McpFeatureHttp, startFeatureHttpServer } from "../../helpers/mcp-feature-http.js";
import { textBody, toolCallBody } from "../../helpers/openai-chunks.js";
import { cliPerTest } from "../../helpers/rudder-cli.js";
import { type AcpTestClient, agentText, initialize, startAcp } from "./acp-client.js";

const LONG = 90_000;
const cli = cliPerTest();
const clients: AcpTestClient[] = [];
let http: McpFeatureHttp | undefined;
afterEach(async () => {
	for (const c of clients.splice(0)) c.child.kill("SIGKILL");
	await http?.close();
	http = undefined;
});

function start(home: Parameters<typeof startAcp>[0]): AcpTestClient {
	const c = startAcp(home, ["--mode", "acp", "--model", "mock/mock-1", "--permission-mode", "ask"]);
	clients.push(c);
	return c;
}

const toolMessages = (body: any) => body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.content);

describe("acp: the client's MCP servers and the plan", () => {
	it("session/new starts the editor's stdio and http servers (trusted, no prompt) and the model calls their tools", {
		timeout: LONG,
	}, async () => {
		const { server, home } = await cli.setUp();
		http = await startFeatureHttpServer({ tools: 2 });
		server.enqueue(
			{ kind: "sse", chunks: [toolCallBody("mcp__My_tools__t001", { id: "r1", action: "audit" }, "call_s")] },
			{ kind: "sse", chunks: [toolCallBody("mcp__web__t000", { id: "r2", action: "create" }, "call_h")] },
			{ kind: "sse", chunks: [textBody("Both ran.")] },
		);
		const c = start(home);
		const init = await initialize(c);
		expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: false });
		const { sessionId } = await c.agent.request("session/new", {
			cwd: home.cwd,
			mcpServers: [
				{
					name: "My tools",
					command: process.execPath,
					args: [featureServerPath, "--tools", "2"],
					env: [{ name: "FEATURE_SLOW_MS", value: "1" }],
				},
				{ type: "http", name: "web", url: http.url, headers: [] },
				{ type: "sse", name: "old", url: "http://127.0.0.1:9/sse", headers: [] },
			],
		});
		await c.waitForUpdate((n) => n.update.sessionUpdate === "agent_message_chunk");
		expect(agentText(c.updates)).toContain('Warning: The editor\'s MCP server "old" uses SSE, which Rudder does not speak');
		// The servers' prompts join the commands once they are up.
		const commands = await c.waitForUpdate(
			(n) =>
				n.update.sessionUpdate === "available_commands_update" &&
				n.update.availableCommands.some((a) => a.name === "mcp__my_tools__review"),
		);
		const review =
			commands.update.sessionUpdate === "available_commands_update" &&
			commands.update.availableCommands.find((a) => a.name === "mcp__my_tools__review");
		expect(review).toMatchObject({ input: { hint: "<file> [focus]" } });
		const response = await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "audit" }] });
		expect(response.stopReason).toBe("end_turn");
		// The model was offered the editor's tools and both calls ran on their servers.
		expect(toolMessages(server.requests[2].body)).toEqual(['"t001 audit r1"', '"t000 create r2"']);
		expect(c.updates.some((n) => n.update.sessionUpdate === "tool_call" && n.update.toolCallId === "call_s")).toBe(true);
		// No trust prompt: the servers are the client's.
		expect(agentText(c.updates)).not.toContain("not trusted");
		expect(await c.end()).toBe(0);
	});

	it("a server's form is declined with a warning (ACP cannot show one)", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		server.enqueue(
			{ kind: "sse", chunks: [toolCallBody("mcp__features__ask_form", {}, "call_f")] },
			{ kind: "sse", chunks: [textBody("Declined then.")] },
		);
		const c = start(home);
		await initialize(c);
		const { sessionId } = await c.agent.request("session/new", {
			cwd: home.cwd,
			mcpServers: [{ name: "features", command: process.execPath, args: [featureServerPath], env: [] }],
		});
		const response = await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "configure" }] });
		expect(response.stopReason).toBe("end_turn");
		expect(toolMessages(server.requests[1].body)).toEqual(['{"action":"decline"}']);
		expect(agentText(c.updates)).toContain('Warning: the MCP server "features" asked for input; declined (ACP cannot show forms)');
		expect(await c.end()).toBe(0);
	});

	it("todo_write's list is sent as plan updates, and again on session/load", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		const todos = [
			{ content: "Read the code", status: "completed" },
			{ content: "Fix the bug", status: "in_progress" },
			{ content: "Run the tests", status: "pending" },
		];
		server.enqueue(
			{ kind: "sse", chunks: [toolCallBody("todo_write", { todos }, "call_t")] },
			{ kind: "sse", chunks: [textBody("Planned.")] },
		);
		const first = start(home);
		await initialize(first);
		const { sessionId } = await first.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		await first.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "plan it" }] });
		const plan = await first.waitForUpdate((n) => n.update.sessionUpdate === "plan");
		const entries = todos.map((t) => ({ ...t, priority: "medium" }));
		expect(plan.update).toEqual({ sessionUpdate: "plan", entries });
		expect(await first.end()).toBe(0);

		const second = start(home);
		await initialize(second);
		await second.agent.request("session/load", { sessionId, cwd: home.cwd, mcpServers: [] });
		const again = await second.waitForUpdate((n) => n.update.sessionUpdate === "plan");
		expect(again.update).toEqual({ sessionUpdate: "plan", entries });
		expect(await second.end()).toBe(0);
	});
});
