// OpenAI Responses' server-side web_search, from a recorded stream (test/fixtures/openai-responses/README.md):
// each web_search_call item becomes a search block, url_citation annotations stay on the text, and the
// next request sends the web_search_call items back exactly as they came, in their place.
import { describe, expect, it } from "vitest";
import { streamOpenAIResponses } from "../../../src/ai/providers/openai-responses.js";
import type { AssistantMessage, Context, Model, Tool, WebSearchContent } from "../../../src/ai/types.js";
import { collectEvents } from "../../helpers/assistant-events.js";
import { price, providerModel, sseFixture } from "../../helpers/provider-test.js";
import { scriptedServerPerTest } from "../../helpers/scripted-server-per-test.js";

const fixture = (name: string) => sseFixture("openai-responses", name);
const server = scriptedServerPerTest();

function model(overrides: Partial<Model> = {}): Model {
	const mini = { id: "gpt-5-mini", api: "openai-responses", provider: "openai", reasoning: true } as const;
	return providerModel({
		...mini,
		baseUrl: `${server.url}/v1`,
		cost: price(0.25, 2),
		contextWindow: 400_000,
		maxTokens: 128_000,
		...overrides,
	});
}

const webSearchTool: Tool = {
	name: "web_search",
	description: "Search the web",
	parameters: { type: "object", properties: { query: { type: "string" } } },
	hosted: "web_search",
};

function context(messages: Context["messages"] = [{ role: "user", content: "tech news today?", timestamp: 1 }]): Context {
	return { messages, tools: [webSearchTool] };
}

/** The recorded web_search_call items, as output_item.done carried them. */
function recordedSearchItems(): Record<string, unknown>[] {
	const items: Record<string, unknown>[] = [];
	for (const line of fixture("web-search").split("\n")) {
		if (!line.startsWith("data: ")) continue;
		const event = JSON.parse(line.slice(6));
		if (event.type === "response.output_item.done" && event.item.type === "web_search_call") items.push(event.item);
	}
	return items;
}

async function searchReply(m: Model = model()): Promise<AssistantMessage> {
	server.enqueue({ kind: "sse", chunks: [fixture("web-search")] });
	return (await collectEvents(streamOpenAIResponses(m, context(), { apiKey: "sk-test", maxRetries: 0 }))).message;
}

describe("OpenAI Responses web search", () => {
	it("declares its own web_search tool and asks for the sources of each search; a compatible server gets the function", async () => {
		await searchReply();
		expect(server.requests[0].body.tools).toEqual([{ type: "web_search" }]);
		expect(server.requests[0].body.include).toEqual(["web_search_call.action.sources"]);
		await searchReply(model({ provider: "azure-proxy" }));
		expect(server.requests[1].body.tools[0]).toMatchObject({ type: "function", name: "web_search" });
		expect(server.requests[1].body.include).toBeUndefined();
	});

	it("reads every recorded web_search_call as a search block, and the url_citation annotations on the text", async () => {
		const message = await searchReply();
		expect(message.stopReason).toBe("stop");
		const searches = message.content.filter((b): b is WebSearchContent => b.type === "webSearch");
		expect(searches).toHaveLength(recordedSearchItems().length);
		expect(searches[0].query).toBe("tech news today December 5 2025");
		expect(searches[0].sources[0]).toEqual({ title: "www.wired.com", url: "https://www.wired.com/story/the-big-interview-2025-recap" });
		expect(searches[2].query).toBe("open https://techcrunch.com/2025/12/05/petco-confirms-security-lapse-exposed-customers-personal-data/");
		expect(searches[3].query).toBe('find "vercel" in https://www.wired.com/story/the-big-interview-2025-recap');
		const text = message.content.find((b) => b.type === "text");
		expect(text?.type === "text" && text.citations?.[0]).toEqual({
			title: "Petco confirms security lapse exposed customers’ personal data | TechCrunch",
			url: "https://techcrunch.com/2025/12/05/petco-confirms-security-lapse-exposed-customers-personal-data/?utm_source=openai",
		});
	});

	it("sends the web_search_call items back as they came, each after its reasoning item", async () => {
		const message = await searchReply();
		server.enqueue({ kind: "sse", chunks: [fixture("reasoning-text")] });
		const next = context([
			{ role: "user", content: "tech news today?", timestamp: 1 },
			message,
			{ role: "user", content: "more", timestamp: 2 },
		]);
		await collectEvents(streamOpenAIResponses(model(), next, { apiKey: "sk-test", maxRetries: 0 }));
		const input = server.requests[1].body.input as { type?: string }[];
		const sent = input.filter((item) => item.type === "web_search_call");
		expect(sent).toEqual(recordedSearchItems());
		const types = input.map((item) => item.type ?? "role");
		const firstSearch = types.indexOf("web_search_call");
		expect(types[firstSearch - 1]).toBe("reasoning");
		expect(types.at(-2)).toBe("message");
	});
});
