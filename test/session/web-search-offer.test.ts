// Which web_search a session offers, per request: the provider's own once the user allowed web search
// (one yes per session), a plain function before that or where a SearXNG endpoint backs it, nothing
// for a model that has neither. Through real sessions; the Anthropic one talks to a 127.0.0.1 server
// speaking its wire protocol, with the recorded web-search stream (test/fixtures/anthropic/README.md).
import { afterEach, describe, expect, it } from "vitest";
import type { Model, ToolResultMessage } from "../../src/ai/index.js";
import { fauxAssistantMessage, fauxText } from "../../src/ai/index.js";
import { offerWebSearch } from "../../src/session/web-search-offer.js";
import { sonnetModel, sseFixture } from "../helpers/provider-test.js";
import { scriptedServerPerTest } from "../helpers/scripted-server-per-test.js";
import { sse } from "../helpers/sse-server.js";
import { createFixture, type Fixture } from "./session-fixture.js";

let fx: Fixture;
afterEach(async () => {
	await fx?.cleanup();
});
const server = scriptedServerPerTest();

const search = { name: "web_search", description: "d", parameters: {}, hosted: "web_search" as const };
const read = { name: "read", description: "r", parameters: {} };
const claude = { api: "anthropic-messages", provider: "anthropic", id: "claude-sonnet-4-5" } as Model;
const local = { api: "openai-completions", provider: "ollama", id: "qwen3" } as Model;

describe("offerWebSearch", () => {
	it("keeps the hosted tool when allowed, offers a plain function when not yet allowed or backed by an endpoint, drops it otherwise", () => {
		const context = { messages: [], tools: [read, search] };
		expect(offerWebSearch(context, claude, { allowed: () => true, endpoint: false })).toBe(context);
		const asking = offerWebSearch(context, claude, { allowed: () => false, endpoint: false });
		expect(asking.tools?.map((t) => [t.name, t.hosted])).toEqual([
			["read", undefined],
			["web_search", undefined],
		]);
		expect(offerWebSearch(context, local, { allowed: () => true, endpoint: false }).tools?.map((t) => t.name)).toEqual(["read"]);
		expect(offerWebSearch(context, local, { allowed: () => true, endpoint: true }).tools?.[1]).not.toHaveProperty("hosted");
	});
});

/** An Anthropic reply that calls the web_search function (before the user allowed the hosted search). */
function callsWebSearch(): string {
	return sse([
		{ event: "message_start", data: { type: "message_start", message: { id: "msg_1", usage: { input_tokens: 5, output_tokens: 1 } } } },
		{
			event: "content_block_start",
			data: { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "web_search" } },
		},
		{
			event: "content_block_delta",
			data: { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"query":"tech news"}' } },
		},
		{ event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
		{ event: "message_delta", data: { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } } },
		{ event: "message_stop", data: { type: "message_stop" } },
	]);
}

describe("web search in a session", { timeout: 30_000 }, () => {
	it("asks once: the first call is a function the gate asks about, then Anthropic's own search runs and is replayed", async () => {
		fx = await createFixture();
		const model = sonnetModel(server.url);
		const session = await fx.open({
			model,
			apiKey: "sk-test",
			tools: ["web_search"],
			approvals: "prompt",
			permissionMode: "ask",
			sandboxFactory: () => undefined,
		});
		server.enqueue({ kind: "sse", chunks: [callsWebSearch()] });
		server.enqueue({ kind: "sse", chunks: [sseFixture("anthropic", "web-search")] });
		server.enqueue({ kind: "sse", chunks: [sseFixture("anthropic", "text")] });
		const run = session.prompt("tech news today?");
		const request = await fx.waitForEvent("approval_request");
		expect(request).toMatchObject({ tool: "web_search", reason: "web search asks once per session: the queries go to a search service" });
		session.respondToApproval(request.id, { decision: "allow" });
		await run;
		// Before the yes: a plain function. After it: Anthropic's own tool, with no second question.
		const searchTool = (i: number) => server.requests[i].body.tools.find((t: { name: string }) => t.name === "web_search");
		expect(searchTool(0)).toEqual({ name: "web_search", description: expect.any(String), input_schema: expect.any(Object) });
		expect(searchTool(1)).toEqual({ type: "web_search_20250305", name: "web_search", max_uses: 5 });
		const result = session.getState().messages.find((m): m is ToolResultMessage => m.role === "toolResult");
		expect(result?.content[0]).toMatchObject({ text: expect.stringMatching(/^Web search is allowed now/) });

		await session.prompt("and yesterday?");
		expect(fx.events.filter((e) => e.type === "approval_request")).toHaveLength(1);
		const replayed = server.requests[2].body.messages.flatMap((m: { content: { type: string }[] }) => m.content.map((b) => b.type));
		expect(replayed).toContain("server_tool_use");
		expect(replayed).toContain("web_search_tool_result");
		expect(JSON.stringify(server.requests[2].body)).toContain('"encrypted_content":"ErkeCio');
	});

	it("offers no web_search to a model without a search of its own when no endpoint is set, and the function when one is", async () => {
		fx = await createFixture();
		const plain = await fx.open({ tools: ["read", "web_search"] });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await plain.prompt("hi");
		expect(fx.faux.calls[0].context.tools?.map((t) => t.name)).not.toContain("web_search");
		expect(fx.faux.calls[0].context.tools?.map((t) => t.name)).toContain("read");

		await fx.cleanup();
		fx = await createFixture({ settings: { webSearch: { searxngUrl: "http://127.0.0.1:9/search" } } });
		const backed = await fx.open({ tools: ["read", "web_search"] });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await backed.prompt("hi");
		const offered = fx.faux.calls[0].context.tools?.find((t) => t.name === "web_search");
		expect(offered).toBeDefined();
		expect(offered).not.toHaveProperty("hosted");
	});
});
