// An MCP server's question over rpc (built CLI, a 127.0.0.1 model, the feature server over streamable
// HTTP): a client that opted in (`--rpc-approvals`) gets `elicitation_request` and answers with
// `elicitation_response`, checked against the form; without opting in, and in -p, it is declined with
// a notice and the run goes on.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type McpFeatureHttp, startFeatureHttpServer } from "../../helpers/mcp-feature-http.js";
import { textBody, toolCallBody } from "../../helpers/openai-chunks.js";
import { putFile } from "../../helpers/put-file.js";
import { type CliHome, cliPerTest, runCli } from "../../helpers/rudder-cli.js";

const LONG = 90_000;
const cli = cliPerTest();
let mcp: McpFeatureHttp | undefined;
afterEach(async () => {
	await mcp?.close();
	mcp = undefined;
});

async function withFeatureServer(home: CliHome): Promise<void> {
	mcp = await startFeatureHttpServer();
	putFile(
		join(home.rudderHome, "settings.json"),
		JSON.stringify({ permissions: { allow: ["mcp__*"] }, mcpServers: { features: { type: "http", url: mcp.url } } }),
	);
}

const toolResultsOf = (end: any) => end.messages.filter((m: any) => m.role === "toolResult").map((m: any) => m.content[0].text);

describe("MCP elicitation over rpc", () => {
	it("elicitation_request → elicitation_response accept; content the form forbids is refused", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		await withFeatureServer(home);
		const client = cli.rpc(["--rpc-approvals"]);
		server.enqueue({ kind: "sse", chunks: [toolCallBody("mcp__features__ask_form", {}, "call_f")] });
		server.enqueue({ kind: "sse", chunks: [textBody("ok")] });
		client.send({ id: "p1", type: "prompt", message: "configure" });
		const asked = await client.waitFor((l) => l.type === "elicitation_request");
		expect(asked).toMatchObject({ server: "features", mode: "form", message: "Configure the ^[]0;pwned^Gdeployment^[[2J" });
		expect(asked.fields.map((f: any) => f.key)).toEqual(["name", "port", "verbose", "color"]);
		client.send({ type: "elicitation_response", id: asked.id, action: "accept", content: { name: "Bo", port: "many" } });
		expect(await client.waitFor((l) => l.type === "response" && l.command === "elicitation_response")).toMatchObject({
			success: false,
			error: "Port: must be a number",
		});
		client.send({ type: "elicitation_response", id: asked.id, action: "accept", content: { name: "Bo", port: 22, verbose: false } });
		const end = await client.waitFor((l) => l.type === "agent_end");
		expect(JSON.parse(toolResultsOf(end)[0])).toEqual({
			action: "accept",
			content: { name: "Bo", port: 22, verbose: false, color: "green" },
		});
		expect(client.lines.some((l) => l.type === "elicitation_end" && l.action === "accept")).toBe(true);
		expect((await client.end()).code).toBe(0);
	});

	it("without --rpc-approvals, and in -p, the question is declined with a notice", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		await withFeatureServer(home);
		const client = cli.rpc();
		server.enqueue({ kind: "sse", chunks: [toolCallBody("mcp__features__ask_form", {}, "call_f")] });
		server.enqueue({ kind: "sse", chunks: [textBody("ok")] });
		client.send({ id: "p1", type: "prompt", message: "configure" });
		const end = await client.waitFor((l) => l.type === "agent_end");
		expect(JSON.parse(toolResultsOf(end)[0])).toEqual({ action: "decline" });
		expect(client.lines.some((l) => l.type === "elicitation_request")).toBe(false);
		expect(client.lines.find((l) => l.type === "notice" && l.text.includes("asked for input"))?.text).toContain(
			'The MCP server "features" asked for input and was declined: nobody can answer in this mode',
		);
		await client.end();

		// The HTTP fixture serves one session: a fresh one for the second client.
		await mcp?.close();
		await withFeatureServer(home);
		server.enqueue({ kind: "sse", chunks: [toolCallBody("mcp__features__ask_form", {}, "call_g")] });
		server.enqueue({ kind: "sse", chunks: [textBody("printed")] });
		const printed = await runCli(["-p", "--model", "mock/mock-1", "--no-session", "configure"], home);
		expect(printed.code).toBe(0);
		expect(printed.stdout).toContain("printed");
		expect(printed.stderr).toContain('The MCP server "features" asked for input and was declined');
	});
});
