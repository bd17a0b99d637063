// Large MCP tool sets (200 tools of the SDK's McpServer over stdio): over the share of the context
// window the model is sent tool_search and the names only; a search loads the schemas it finds for the
// rest of the session (kept in the session file, so a resumed session sends them again); /mcp shows the
// share and how many tools are sent. Under the share, every tool goes and tool_search does not.
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../../src/ai/index.js";
import { estimateToolTokens } from "../../../src/extensions/mcp/tool-search.js";
import { createFixture, type Fixture } from "../../session/session-fixture.js";
import { featureServer, writeGlobalSettings } from "./mcp-fixture.js";

let fx: Fixture;
afterEach(async () => {
	await fx?.cleanup();
});

const sent = (fx: Fixture, call: number) => fx.faux.calls[call].context.tools ?? [];
const mcpSent = (fx: Fixture, call: number) => sent(fx, call).filter((t) => t.name.startsWith("mcp__"));
const tokens = (tools: readonly { name: string; description: string; parameters: unknown }[]) =>
	tools.reduce((n, t) => n + estimateToolTokens(t as never), 0);

describe("tool_search for large MCP tool sets", () => {
	it("sends tool_search and the names; a found tool is loaded, callable in the same run, and kept on resume", async () => {
		fx = await createFixture();
		writeGlobalSettings(fx, { permissions: { allow: ["mcp__*"] }, mcpServers: { features: featureServer(200) } });
		const session = await fx.open();
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("tool_search", { query: "t123 widget" })]),
			fauxAssistantMessage([fauxToolCall("mcp__features__t123", { id: "r1", action: "audit" })]),
			fauxAssistantMessage([fauxText("done")]),
		]);
		await session.prompt("audit record r1 with the t123 tool");
		// First request: no MCP schema at all, tool_search naming every tool.
		expect(mcpSent(fx, 0)).toEqual([]);
		const search = sent(fx, 0).find((t) => t.name === "tool_search");
		expect(search?.description).toContain("Not yet loaded (204):");
		expect(search?.description).toContain("mcp__features__t199");
		// The search's result carries the schema; the next request sends the loaded tool.
		const results = session.getState().messages.filter((m) => m.role === "toolResult") as { content: { text: string }[] }[];
		expect(results[0].content[0].text).toContain("mcp__features__t123: Tool number 123");
		expect(mcpSent(fx, 1).map((t) => t.name)).toEqual(["mcp__features__t123"]);
		expect(mcpSent(fx, 1)[0].parameters).toMatchObject({ required: ["id", "action"] });
		expect(results[1].content[0].text).toBe('"t123 audit r1"');

		// /mcp: the share before (every schema) and after (what is sent).
		await session.submit("/mcp");
		const listing = fx.notices().at(-1) ?? "";
		expect(listing).toMatch(
			/MCP tool schemas: ~\d+ tokens, \d+\.\d% of the 128000-token context \(limit 10%\); tool_search on: 1 of 204 tools sent/,
		);
		const budget = session.mcpToolBudget();
		expect(budget?.schemaTokens).toBeGreaterThan(12_800);
		expect(budget?.sentTokens).toBeLessThan(budget?.schemaTokens ?? 0);
		// The numbers for the note (RUDDER_PRINT_MEASURE=1): the 200 tools' share before and after.
		if (process.env.RUDDER_PRINT_MEASURE)
			console.log(listing.split("\n").at(-1), `(first request: ~${tokens(sent(fx, 0))} tokens of tools)`);

		// Resumed: the loaded tool is sent from the first request on.
		const file = session.getState().sessionFile;
		// Forked: the first session still holds the file.
		const resumed = await fx.open({ sessionMode: { kind: "file", path: file as string, fork: true } });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("again")])]);
		await resumed.prompt("hello");
		expect(mcpSent(fx, fx.faux.calls.length - 1).map((t) => t.name)).toEqual(["mcp__features__t123"]);
	});

	it("under the share every MCP tool is sent and tool_search is not", async () => {
		fx = await createFixture();
		writeGlobalSettings(fx, { permissions: { allow: ["mcp__*"] }, mcpServers: { features: featureServer(3) } });
		const session = await fx.open();
		fx.faux.setResponses([fauxAssistantMessage([fauxText("hi")])]);
		await session.prompt("hello");
		expect(sent(fx, 0).some((t) => t.name === "tool_search")).toBe(false);
		expect(mcpSent(fx, 0).length).toBe(7);
		await session.submit("/mcp");
		expect(fx.notices().at(-1)).toMatch(/limit 10%\); all 7 tools sent$/);
	});
});
