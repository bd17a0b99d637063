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
});
