// Anthropic's server-side web search, from a recorded stream (test/fixtures/anthropic/README.md):
// the search becomes one block with its results, the text keeps its citations, and the next request
// sends the server_tool_use and web_search_tool_result blocks back exactly as they came.
import { describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/ai/providers/anthropic.js";
import type { AssistantMessage, Context, Model, Tool, WebSearchContent } from "../../../src/ai/types.js";
import { collectEvents } from "../../helpers/assistant-events.js";
import { sonnetModel, sseFixture } from "../../helpers/provider-test.js";
import { scriptedServerPerTest } from "../../helpers/scripted-server-per-test.js";

const fixture = (name: string) => sseFixture("anthropic", name);
const server = scriptedServerPerTest();

const model = sonnetModel;

const webSearchTool: Tool = {
	name: "web_search",
	description: "Search the web",
	parameters: { type: "object", properties: { query: { type: "string" } } },
	hosted: "web_search",
};
const readTool: Tool = { name: "read", description: "Read a file", parameters: { type: "object", properties: {} } };

function context(messages: Context["messages"] = [{ role: "user", content: "tech news today?", timestamp: 1 }]): Context {
	return { messages, tools: [readTool, webSearchTool] };
}

/** The recorded web_search_tool_result block, as the wire carried it. */
function recordedResultBlock(): Record<string, unknown> {
	for (const line of fixture("web-search").split("\n")) {
		if (!line.startsWith("data: ")) continue;
		const event = JSON.parse(line.slice(6));
		if (event.type === "content_block_start" && event.content_block.type === "web_search_tool_result") return event.content_block;
	}
	throw new Error("fixture has no web_search_tool_result");
}

async function searchReply(m: Model): Promise<{ message: AssistantMessage; eventTypes: string[] }> {
	server.enqueue({ kind: "sse", chunks: [fixture("web-search")] });
	const { events, message } = await collectEvents(streamAnthropic(m, context(), { apiKey: "sk-test", maxRetries: 0 }));
	return { message, eventTypes: events.map((e) => e.type) };
}

describe("Anthropic web search", () => {
	it("declares its own web_search tool in place of the function, and only for Anthropic itself", async () => {
		await searchReply(model(server.url));
		expect(server.requests[0].body.tools).toEqual([
			{ name: "read", description: "Read a file", input_schema: { type: "object", properties: {} } },
			{ type: "web_search_20250305", name: "web_search", max_uses: 5 },
		]);
		await searchReply(model(server.url, { provider: "my-gateway" }));
		expect(server.requests[1].body.tools[1]).toEqual({
			name: "web_search",
			description: "Search the web",
			input_schema: webSearchTool.parameters,
		});
	});

	it("reads the recorded search as one block with its query and results, then one text (Anthropic's cited pieces joined) with the cited pages", async () => {
		const { message, eventTypes } = await searchReply(model(server.url));
		expect(message.stopReason).toBe("stop");
		expect(eventTypes.filter((t) => t === "websearch")).toHaveLength(1);
		const search = message.content[0] as WebSearchContent;
		expect(search.type).toBe("webSearch");
		expect(search.id).toBe("srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k");
		expect(search.query).toBe("tech news today September 26 2025");
		expect(search.sources).toHaveLength(10);
		expect(search.sources[2]).toEqual({
			title: "The all-new Apple Ginza opens this Friday, September 26, in Tokyo - Apple",
			url: "https://www.apple.com/newsroom/2025/09/the-all-new-apple-ginza-opens-this-friday-september-26-in-tokyo/",
		});
		expect(message.content.map((b) => b.type)).toEqual(["webSearch", "text"]);
		const cited = message.content.flatMap((b) => (b.type === "text" ? (b.citations ?? []) : []));
		expect(cited.map((c) => c.url)).toContain(
			"https://www.apple.com/newsroom/2025/09/the-all-new-apple-ginza-opens-this-friday-september-26-in-tokyo/",
		);
		const text = message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
		expect(text).toContain("Apple today announced the grand reopening of Apple Ginza");
	});

	it("sends the search and its encrypted results back in the next request, before the text, as they came", async () => {
		const { message } = await searchReply(model(server.url));
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		const next = context([
			{ role: "user", content: "tech news today?", timestamp: 1 },
			message,
			{ role: "user", content: "and yesterday?", timestamp: 2 },
		]);
		await collectEvents(streamAnthropic(model(server.url), next, { apiKey: "sk-test", maxRetries: 0 }));
		const assistant = server.requests[1].body.messages[1];
		expect(assistant.role).toBe("assistant");
		expect(assistant.content[0]).toEqual({
			type: "server_tool_use",
			id: "srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k",
			name: "web_search",
			input: { query: "tech news today September 26 2025" },
		});
		expect(assistant.content[1]).toEqual(recordedResultBlock());
		expect(assistant.content[1].content[0].encrypted_content).toMatch(/^ErkeCioICBgCIi/);
		expect(assistant.content).toHaveLength(3);
		expect(assistant.content[2].type).toBe("text");
		expect(assistant.content[2].text).toMatch(/^Based on my search results, here are the key tech news developments from today/);
		expect(assistant.content[2].text).toContain("\n\nKey highlights include:\n- Microsoft shook up its AI stack");
	});

	it("gives another API's model the search as text, not Anthropic's blocks", async () => {
		const { message } = await searchReply(model(server.url));
		server.enqueue({ kind: "sse", chunks: [fixture("text")] });
		const foreign = { ...message, api: "openai-responses", provider: "openai" } as AssistantMessage;
		await collectEvents(
			streamAnthropic(model(server.url), context([{ role: "user", content: "hi", timestamp: 1 }, foreign]), { apiKey: "k", maxRetries: 0 }),
		);
		const first = server.requests[1].body.messages[1].content[0];
		expect(first.type).toBe("text");
		expect(first.text).toMatch(/^Searched the web for "tech news today September 26 2025"; results:\n- The Latest AI News/);
		expect(JSON.stringify(server.requests[1].body)).not.toContain("encrypted_content");
	});

	it("cleans hostile titles, queries and URLs: no escape or invisible character, no script URL, look-alike hosts in punycode", async () => {
		server.enqueue({ kind: "sse", chunks: [fixture("web-search-hostile")] });
		const { message } = await collectEvents(streamAnthropic(model(server.url), context(), { apiKey: "k", maxRetries: 0 }));
		const search = message.content[0] as WebSearchContent;
		const shown = JSON.stringify([search.query, search.sources, message.content[1]]);
		expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b\u202e]/u);
		expect(search.query).toBe("x^[]52;c;cm0gLXJmIH4=^G");
		expect(search.sources).toEqual([
			{ title: "Docs^[]0;pwned^G⟪U+202E⟫evil⟪U+200B⟫ next line", url: "https://example.com/a?b=%E2%80%AE" },
			{ title: "Look-alike", url: "https://xn--exmple-4nf.com/" },
		]);
		expect((message.content[1] as { citations?: unknown }).citations).toEqual([
			{ title: "Docs^[[2J", url: "https://example.com/a?b=%E2%80%AE" },
		]);
		// What goes back to Anthropic is what came, untouched: it is the vendor's own data.
		expect(((search.replay ?? [])[1] as { content: { url: string }[] }).content[1].url).toBe("javascript:alert(1)");
	});
});
