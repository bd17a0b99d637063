// Gemini's Google Search grounding (test/fixtures/google/README.md): the googleSearch tool beside the
// function declarations on Gemini 3, the grounding metadata read as a search block plus the text's
// citations, and nothing of it sent back (Gemini needs only the text).
import { describe, expect, it } from "vitest";
import { streamGoogle } from "../../../src/ai/providers/google.js";
import type { AssistantMessage, Context, Model, Tool } from "../../../src/ai/types.js";
import { collectEvents } from "../../helpers/assistant-events.js";
import { price, providerModel, sseFixture } from "../../helpers/provider-test.js";
import { scriptedServerPerTest } from "../../helpers/scripted-server-per-test.js";

const server = scriptedServerPerTest();

function model(overrides: Partial<Model> = {}): Model {
	const pro = { id: "gemini-3-pro-preview", api: "google-generative-ai", provider: "google", reasoning: false } as const;
	return providerModel({
		...pro,
		baseUrl: `${server.url}/v1beta`,
		cost: price(2, 12),
		contextWindow: 1_048_576,
		maxTokens: 65_536,
		...overrides,
	});
}

const webSearchTool: Tool = { name: "web_search", description: "Search the web", parameters: { type: "object" }, hosted: "web_search" };
const readTool: Tool = { name: "read", description: "Read a file", parameters: { type: "object" } };

function context(messages: Context["messages"] = [{ role: "user", content: "When did Node 24 become LTS?", timestamp: 1 }]): Context {
	return { messages, tools: [readTool, webSearchTool] };
}

async function groundedReply(m: Model = model()): Promise<AssistantMessage> {
	server.enqueue({ kind: "sse", chunks: [sseFixture("google", "grounding")] });
	return (await collectEvents(streamGoogle(m, context(), { apiKey: "g-test", maxRetries: 0 }))).message;
}

describe("Gemini Google Search grounding", () => {
	it("asks for googleSearch beside the other functions on Gemini 3; Gemini 2.5 keeps the function", async () => {
		await groundedReply();
		expect(server.requests[0].body.tools).toEqual([
			{ functionDeclarations: [{ name: "read", description: "Read a file", parametersJsonSchema: { type: "object" } }] },
			{ googleSearch: {} },
		]);
		await groundedReply(model({ id: "gemini-2.5-flash" }));
		expect(server.requests[1].body.tools).toHaveLength(1);
		expect(server.requests[1].body.tools[0].functionDeclarations.map((f: { name: string }) => f.name)).toEqual(["read", "web_search"]);
	});

	it("reads the grounding metadata as one search block after the text, the supported chunks as the text's citations", async () => {
		const message = await groundedReply();
		expect(message.stopReason).toBe("stop");
		const nodejs = { title: "nodejs.org", url: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQExampleNodejsOrg" };
		const github = { title: "github.com", url: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQExampleGithubCom" };
		expect(message.content).toEqual([
			{ type: "text", text: "Node.js 24 became the Active LTS line in October 2025.", citations: [nodejs, github] },
			{ type: "webSearch", id: "", query: "node.js 24 lts date", sources: [nodejs, github] },
		]);
	});

	it("sends only the text back in the next request", async () => {
		const message = await groundedReply();
		server.enqueue({ kind: "sse", chunks: [sseFixture("google", "text")] });
		const next = context([{ role: "user", content: "q", timestamp: 1 }, message, { role: "user", content: "thanks", timestamp: 2 }]);
		await collectEvents(streamGoogle(model(), next, { apiKey: "g-test", maxRetries: 0 }));
		expect(server.requests[1].body.contents[1]).toEqual({
			role: "model",
			parts: [{ text: "Node.js 24 became the Active LTS line in October 2025." }],
		});
	});

	it("reads a recorded grounded stream: the search block with the query and the five pages, the text's citations", async () => {
		// gemini-2.5-pro with googleSearch, recorded by pydantic-ai (test/fixtures/google/README.md):
		// nine text chunks carrying an empty `groundingMetadata`, the metadata whole on the last one.
		server.enqueue({ kind: "sse", chunks: [sseFixture("google", "recorded-grounding")] });
		const m = model({ id: "gemini-2.5-pro" });
		const message = (await collectEvents(streamGoogle(m, context(), { apiKey: "g-test", maxRetries: 0 }))).message;
		expect(message.stopReason).toBe("stop");
		expect(message.responseId).toBe("ftnJaMmAMcm-qtsPwvCCoAo");
		expect(message.content.map((c) => c.type)).toEqual(["text", "webSearch"]);
		const [text, search] = message.content;
		if (text.type !== "text" || search.type !== "webSearch") throw new Error("unexpected blocks");
		expect(text.text).toMatch(/^### Weather in San Francisco is Mild and Partly Cloudy Today\n\n\*\*San Francisco, CA\*\*/);
		expect(text.text).toMatch(/The chance of rain remains low throughout the day\.$/);
		expect(text.text).toHaveLength(926);
		expect(search.query).toBe("weather in San Francisco today");
		expect(search.sources.map((s) => s.title)).toEqual([
			"Weather information for San Francisco, CA, US",
			"timeanddate.com",
			"weather.gov",
			"wunderground.com",
			"accuweather.com",
		]);
		expect(search.sources[1].url).toBe(
			"https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQE9XF-Y6nU0j1wObrFC2SexrS5DFq99jug8F3RhftMwfKdkLkcSVMWq_H3qgRJRC02Lp0nIyyB7EtTA9TkUIOV4vzEh0VmWYIkoeQRmbB3K6IaR4luRiN1n0lni5mP4x4JjiXd7y8V__w50hGwbk3k=",
		);
		expect(new URL(search.sources[0].url).hostname).toBe("www.google.com");
		// Every page is cited by some support, first-cited first.
		expect(text.citations).toEqual(search.sources);
	});
});
