// `stop_reason: "pause_turn"`: Anthropic paused a long server-side tool turn (web searches). The reply is
// resumed by sending the paused content back as the last, assistant, message with no user message after
// it; the continuation's blocks extend the same reply. Against a 127.0.0.1 server speaking the SSE protocol.
import { describe, expect, it } from "vitest";
import { runAgentLoop } from "../../../src/agent/agent-loop.js";
import type { AgentEvent, AgentMessage } from "../../../src/agent/types.js";
import { MAX_PAUSE_CONTINUATIONS, streamAnthropic } from "../../../src/ai/providers/anthropic.js";
import type { Context, Message, Model, Tool, WebSearchContent } from "../../../src/ai/types.js";
import { collectEvents } from "../../helpers/assistant-events.js";
import { sonnetModel, sseFixture } from "../../helpers/provider-test.js";
import { scriptedServerPerTest } from "../../helpers/scripted-server-per-test.js";

const fixture = (name: string) => sseFixture("anthropic", name);
const server = scriptedServerPerTest();

const model = (): Model => sonnetModel(server.url);

const webSearchTool: Tool = {
	name: "web_search",
	description: "Search the web",
	parameters: { type: "object", properties: { query: { type: "string" } } },
	hosted: "web_search",
};
const question: Context["messages"] = [{ role: "user", content: "what is new in node 24?", timestamp: 1 }];
const context = (): Context => ({ messages: [...question], tools: [webSearchTool] });

/** The content block a fixture opens with `content_block_start` of `type`. */
function wireBlock(name: string, type: string): Record<string, unknown> {
	for (const line of fixture(name).split("\n")) {
		if (!line.startsWith("data: ")) continue;
		const event = JSON.parse(line.slice(6));
		if (event.type === "content_block_start" && event.content_block.type === type) return event.content_block;
	}
	throw new Error(`${name} has no ${type} block`);
}

const serve = (...names: string[]) => server.enqueue(...names.map((name) => ({ kind: "sse" as const, chunks: [fixture(name)] })));

describe("Anthropic pause_turn", () => {
	it("resumes the paused turn: the second request ends with the paused content (search blocks as they came), no user message after it", async () => {
		serve("pause-turn", "pause-turn-continued");
		const { events, message } = await collectEvents(streamAnthropic(model(), context(), { apiKey: "k", maxRetries: 0 }));

		expect(server.requests).toHaveLength(2);
		const second = server.requests[1].body;
		expect(second.messages).toHaveLength(2);
		expect(second.messages[0]).toEqual({
			role: "user",
			content: [{ type: "text", text: "what is new in node 24?", cache_control: { type: "ephemeral" } }],
		});
		expect(second.messages[1]).toEqual({
			role: "assistant",
			content: [
				{ type: "text", text: "I'll look that up." },
				{ type: "server_tool_use", id: "srvtoolu_01PauseSearch00000000001", name: "web_search", input: { query: "node 24 release notes" } },
				wireBlock("pause-turn", "web_search_tool_result"),
			],
		});
		// The same request otherwise: tools, model and limits.
		expect(second.tools).toEqual(server.requests[0].body.tools);
		expect(second.model).toBe(server.requests[0].body.model);

		// One reply: one start, one done, the continuation's text after the search.
		expect(events.filter((e) => e.type === "start")).toHaveLength(1);
		expect(events.filter((e) => e.type === "done")).toHaveLength(1);
		expect(message.stopReason).toBe("stop");
		expect(message.content.map((b) => b.type)).toEqual(["text", "webSearch", "text"]);
		expect(message.content[2]).toMatchObject({ type: "text", text: "Node 24 ships npm 11 and V8 13.6." });
		expect((message.content[1] as WebSearchContent).sources).toEqual([
			{ title: "Node.js 24 release notes", url: "https://nodejs.org/en/blog/release/v24.0.0" },
		]);
		// Both requests are billed: the reply's usage is their sum.
		expect(message.usage).toMatchObject({ input: 2100 + 3400, output: 40 + 25 });
	});

	it("sends a search still waiting for its result back as its server_tool_use, and joins the result that opens the continuation", async () => {
		serve("pause-turn-mid-search", "pause-turn-mid-search-continued");
		const { message } = await collectEvents(streamAnthropic(model(), context(), { apiKey: "k", maxRetries: 0 }));
		expect(server.requests[1].body.messages[1]).toEqual({
			role: "assistant",
			content: [
				{ type: "server_tool_use", id: "srvtoolu_01PauseSearch00000000002", name: "web_search", input: { query: "node 24 release notes" } },
			],
		});
		expect(message.content.map((b) => b.type)).toEqual(["webSearch", "text"]);
		const search = message.content[0] as WebSearchContent;
		expect(search.query).toBe("node 24 release notes");
		// A later request replays the search whole.
		expect(search.replay).toEqual([
			{ type: "server_tool_use", id: "srvtoolu_01PauseSearch00000000002", name: "web_search", input: { query: "node 24 release notes" } },
			wireBlock("pause-turn-mid-search-continued", "web_search_tool_result"),
		]);
	});

	it(`stops resuming after ${MAX_PAUSE_CONTINUATIONS} continuations: the reply ends as an error naming the pause`, async () => {
		serve(...Array.from({ length: MAX_PAUSE_CONTINUATIONS + 1 }, () => "pause-turn"), "pause-turn-continued");
		const { message } = await collectEvents(streamAnthropic(model(), context(), { apiKey: "k", maxRetries: 0 }));
		expect(server.requests).toHaveLength(MAX_PAUSE_CONTINUATIONS + 1);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(
			`Anthropic paused the reply ${MAX_PAUSE_CONTINUATIONS + 1} times (stop_reason: pause_turn, server tools running long); stopped resuming it`,
		);
	});

	it("shows one continued reply in the agent's transcript", async () => {
		serve("pause-turn", "pause-turn-continued");
		const events: AgentEvent[] = [];
		const messages = await runAgentLoop(
			[{ role: "user", content: "what is new in node 24?", timestamp: 1 }],
			{ systemPrompt: "", messages: [], tools: [] },
			{ model: model(), convertToLlm: (m: AgentMessage[]) => m as Message[], apiKey: "k", maxRetries: 0 },
			(event) => {
				events.push(event);
			},
		);
		expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		const reply = messages[1];
		expect(reply.role === "assistant" && reply.content.map((b) => (b.type === "text" ? b.text : b.type))).toEqual([
			"I'll look that up.",
			"webSearch",
			"Node 24 ships npm 11 and V8 13.6.",
		]);
		const starts = events.filter((e) => e.type === "message_start" && e.message.role === "assistant");
		expect(starts).toHaveLength(1);
		expect(events.filter((e) => e.type === "turn_end")).toHaveLength(1);
	});
});
