// An HTTP error names where the request went, and a 404 on a path Rudder calls says what to change:
// real requests to a 127.0.0.1 server answering 404 as a server without that route does.
import { describe, expect, it } from "vitest";
import { notFoundHint, whereTo } from "../../../src/ai/providers/http-error-hint.js";
import { streamOpenAICompletions } from "../../../src/ai/providers/openai-completions.js";
import { streamOpenAIResponses } from "../../../src/ai/providers/openai-responses.js";
import type { Model } from "../../../src/ai/types.js";
import { collectEvents, finalMessage } from "../../helpers/assistant-events.js";
import { hello, providerModel } from "../../helpers/provider-test.js";
import { scriptedServerPerTest } from "../../helpers/scripted-server-per-test.js";

const server = scriptedServerPerTest();
const notFound = { kind: "status" as const, status: 404, body: '{"detail":"Not Found"}' };
const hostOf = () => server.url.slice("http://".length);

describe("HTTP errors say where and what to do", () => {
	it("a base URL without /v1 on a chat-completions server: names the URL and the baseUrl to try", async () => {
		server.enqueue(notFound);
		const model: Model = providerModel({ id: "qwen", api: "openai-completions", provider: "local", baseUrl: server.url });
		const message = finalMessage((await collectEvents(streamOpenAICompletions(model, hello(), { maxRetries: 0 }))).events);
		expect(server.requests[0].url).toBe("/chat/completions");
		expect(message.errorMessage).toBe(
			`local HTTP 404 from ${hostOf()}/chat/completions: Not Found. The base URL may be missing /v1: try "baseUrl": "${server.url}/v1" in models.json (or OPENAI_BASE_URL).`,
		);
	});

	it("the Responses API on a server that has only chat completions: says to set the api", async () => {
		server.enqueue(notFound);
		const model: Model = providerModel({ id: "gpt-5", api: "openai-responses", provider: "openai", baseUrl: `${server.url}/v1` });
		const message = finalMessage((await collectEvents(streamOpenAIResponses(model, hello(), { apiKey: "sk-x", maxRetries: 0 }))).events);
		expect(message.errorMessage).toBe(
			`OpenAI HTTP 404 from ${hostOf()}/v1/responses: Not Found. If this server speaks chat completions, set "api": "openai-completions" for it in models.json, or OPENAI_API=chat with OPENAI_BASE_URL.`,
		);
	});

	it("names host and path only: no query, no credentials in the URL", () => {
		expect(whereTo("https://user:pw@example.com:8443/v1/chat/completions?key=sk-abc")).toBe("example.com:8443/v1/chat/completions");
		expect(whereTo("not a url?key=1")).toBe("not a url");
	});

	it("gives no hint for a path Rudder does not know, nor for a versioned chat path", () => {
		expect(notFoundHint("http://h/v1/messages")).toBe("");
		expect(notFoundHint("http://h/v1/chat/completions")).toBe("");
		expect(notFoundHint("http://h/api/v2/chat/completions")).toBe("");
	});
});
