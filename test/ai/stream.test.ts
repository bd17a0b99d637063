import { afterEach, describe, expect, it } from "vitest";
import { registerApiProvider, unregisterApiProvider } from "../../src/ai/api-registry.js";
import { createAssistantMessageEventStream } from "../../src/ai/event-stream.js";
import { getModel } from "../../src/ai/models.js";
import { completeSimple, isApiSupported, streamSimple } from "../../src/ai/stream.js";
import type { Context } from "../../src/ai/types.js";
import { createOutputMessage } from "../../src/ai/usage.js";

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 0 }] };

afterEach(() => unregisterApiProvider("test-api"));

describe("streamSimple", () => {
	it("throws synchronously when no provider speaks the model's api", () => {
		const model = { ...getModel("openai", "gpt-4o-mini"), api: "x" };
		expect(() => streamSimple(model, context)).toThrow(new Error("No API provider registered for api: x"));
		expect(isApiSupported("x")).toBe(false);
	});

	it("dispatches to the provider registered for the api, passing model, context and options", async () => {
		const seen: unknown[] = [];
		registerApiProvider({
			api: "test-api",
			streamSimple: (model, ctx, options) => {
				seen.push(model.id, ctx, options?.apiKey);
				const s = createAssistantMessageEventStream();
				const message = createOutputMessage(model);
				message.content.push({ type: "text", text: "from test-api" });
				s.push({ type: "done", reason: "stop", message });
				return s;
			},
		});
		const model = { ...getModel("openai", "gpt-4o-mini"), api: "test-api", id: "m1" };
		expect(isApiSupported("test-api")).toBe(true);
		const message = await completeSimple(model, context, { apiKey: "k" });
		expect(message.content).toEqual([{ type: "text", text: "from test-api" }]);
		expect(seen).toEqual(["m1", context, "k"]);
	});

	it("knows the built-in wire APIs without registration", () => {
		for (const api of ["openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai"]) {
			expect(isApiSupported(api)).toBe(true);
		}
	});
});
