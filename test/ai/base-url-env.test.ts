// OPENAI_BASE_URL / OPENAI_API: a compatible server gets chat completions, OpenAI's own host the
// Responses API, and OPENAI_API says otherwise either way. The model is taken through the registry
// and streamed against a 127.0.0.1 server, so the request that would have been a 404 is the one checked.
import { describe, expect, it } from "vitest";
import { withBaseUrlEnv } from "../../src/ai/base-url-env.js";
import { getModel } from "../../src/ai/models.js";
import { streamSimple } from "../../src/ai/stream.js";
import { baseUrlEnvProblems } from "../../src/settings/base-url-env-problems.js";
import { UserModels } from "../../src/settings/user-models.js";
import { collectEvents, finalMessage } from "../helpers/assistant-events.js";
import { textBody } from "../helpers/openai-chunks.js";
import { hello } from "../helpers/provider-test.js";
import { scriptedServerPerTest } from "../helpers/scripted-server-per-test.js";

const gpt5 = getModel("openai", "gpt-5");
const server = scriptedServerPerTest();

describe("OPENAI_BASE_URL and OPENAI_API", () => {
	it("a chat-completions server at OPENAI_BASE_URL answers the built-in openai models", async () => {
		const registry = new UserModels({
			configDir: "/nonexistent/rudder-config",
			env: { OPENAI_API_KEY: "sk-local", OPENAI_BASE_URL: `${server.url}/v1` },
		});
		const model = registry.find("openai/gpt-5");
		expect(model).toMatchObject({ api: "openai-completions", baseUrl: `${server.url}/v1` });
		server.enqueue({ kind: "sse", chunks: [textBody("Hello from the compatible server.")] });
		const message = finalMessage(
			(await collectEvents(streamSimple(model as NonNullable<typeof model>, hello(), { apiKey: "sk-local" }))).events,
		);
		expect(message.errorMessage).toBeUndefined();
		expect(message.content).toEqual([{ type: "text", text: "Hello from the compatible server." }]);
		expect(server.requests[0].url).toBe("/v1/chat/completions");
		expect(server.requests[0].body.model).toBe("gpt-5");
		expect(server.requests[0].body).not.toHaveProperty("store");
	});

	it("keeps the Responses API on OpenAI's own host, and with OPENAI_API=responses anywhere", () => {
		expect(withBaseUrlEnv(gpt5, { OPENAI_BASE_URL: "https://api.openai.com/v1/" })).toMatchObject({
			api: "openai-responses",
			baseUrl: "https://api.openai.com/v1",
		});
		expect(withBaseUrlEnv(gpt5, { OPENAI_BASE_URL: "http://gateway:4000/v1", OPENAI_API: "responses" }).api).toBe("openai-responses");
		expect(withBaseUrlEnv(gpt5, {}).api).toBe("openai-responses");
	});

	it("OPENAI_API=chat switches the openai models to chat completions even without a base URL; others stay", () => {
		expect(withBaseUrlEnv(gpt5, { OPENAI_API: "chat" })).toMatchObject({ api: "openai-completions", baseUrl: "https://api.openai.com/v1" });
		const sonnet = getModel("anthropic", "claude-sonnet-4-5");
		expect(withBaseUrlEnv(sonnet, { OPENAI_API: "chat", OPENAI_BASE_URL: "http://x/v1" })).toEqual(sonnet);
	});

	it("names a bad OPENAI_API value as a start-up problem", () => {
		expect(baseUrlEnvProblems({ OPENAI_API: "completions" })).toEqual([
			{ file: "environment", field: "OPENAI_API", problem: 'must be "chat" or "responses", not "completions"' },
		]);
		expect(baseUrlEnvProblems({ OPENAI_API: "Chat" })).toEqual([]);
		const registry = new UserModels({ configDir: "/nonexistent/rudder-config", env: { OPENAI_API: "x" } });
		expect(registry.problems.map((p) => p.field)).toEqual(["OPENAI_API"]);
	});
});
