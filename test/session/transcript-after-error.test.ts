// After a request fails (an HTTP error leaves an empty failed reply), the reloaded transcript plus the
// next prompt must be a request every provider accepts: no two user turns in a row. Checked through
// each provider's own request builder.
import { afterEach, describe, expect, it } from "vitest";
import { type Context, fauxAssistantMessage, fauxToolCall, type Model } from "../../src/ai/index.js";
import { BUILTIN_MODELS } from "../../src/ai/models.js";
import { buildAnthropicRequest } from "../../src/ai/providers/anthropic.js";
import { buildGoogleRequest } from "../../src/ai/providers/google.js";
import { buildCompletionsBody } from "../../src/ai/providers/openai-completions.js";
import { buildResponsesBody } from "../../src/ai/providers/openai-responses.js";
import { loadSession, repairTranscript } from "../../src/session/session-load.js";
import { convertToLlm } from "../../src/session/session-messages.js";
import { createFixture, type Fixture } from "./session-fixture.js";

let fx: Fixture;
afterEach(async () => fx?.cleanup());

const modelOf = (api: string) => BUILTIN_MODELS.find((m) => m.api === api) as Model;

/** The role of each turn as the provider's body lists them (system and developer left out). */
const turnRoles: Record<string, (context: Context) => string[]> = {
	"anthropic-messages": (c) => (buildAnthropicRequest(modelOf("anthropic-messages"), c).messages as { role: string }[]).map((m) => m.role),
	"google-generative-ai": (c) => (buildGoogleRequest(modelOf("google-generative-ai"), c).contents as { role: string }[]).map((m) => m.role),
	"openai-completions": (c) =>
		(buildCompletionsBody(modelOf("openai-completions"), c).messages as { role: string }[])
			.map((m) => m.role)
			.filter((r) => r !== "system" && r !== "developer"),
	"openai-responses": (c) =>
		(buildResponsesBody(modelOf("openai-responses"), c).input as { role?: string; type?: string }[])
			.map((m) => m.role ?? m.type ?? "")
			.filter((r) => r !== "system" && r !== "developer"),
};

const repeatedUser = (roles: string[]) => roles.some((r, i) => i > 0 && r === "user" && roles[i - 1] === "user");

describe("the transcript after an HTTP error", () => {
	it("reloaded and prompted again, it has no two user turns in a row for any provider", async () => {
		fx = await createFixture();
		fx.faux.setResponses([fauxAssistantMessage([], { stopReason: "error", errorMessage: "HTTP 500: upstream failed" })]);
		await fx.session.prompt("first try");
		expect(fx.session.getState().messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		const file = fx.session.getState().sessionFile as string;
		await fx.session.dispose();

		const reloaded = repairTranscript(loadSession(file).messages);
		const next = [...reloaded, { role: "user" as const, content: [{ type: "text" as const, text: "second try" }], timestamp: 3 }];
		const context: Context = { systemPrompt: "sys", messages: convertToLlm(next) };
		// The failed prompt stays in the file (and on screen, marked failed) but is not sent again.
		expect(context.messages.map((m) => m.role)).toEqual(["user"]);
		expect(context.messages[0].content).toEqual([{ type: "text", text: "second try" }]);
		for (const [api, roles] of Object.entries(turnRoles)) {
			expect(modelOf(api), api).toBeDefined();
			const sent = roles(context);
			expect(sent.length, api).toBeGreaterThan(0);
			expect(repeatedUser(sent), `${api}: ${sent.join(",")}`).toBe(false);
		}
	});

	it("a session resumed after the error sends one user turn to the model", async () => {
		fx = await createFixture();
		fx.faux.setResponses([fauxAssistantMessage([], { stopReason: "error", errorMessage: "HTTP 429" })]);
		await fx.session.prompt("first try");
		const file = fx.session.getState().sessionFile as string;
		await fx.session.dispose();
		const resumed = await fx.open({ sessionMode: { kind: "file", path: file } });
		fx.faux.setResponses([fauxAssistantMessage("ok")]);
		await resumed.prompt("second try");
		expect(fx.faux.calls.at(-1)?.context.messages.map((m) => m.role)).toEqual(["user"]);
	});

	it("drops only the user messages that led to the failed request; an aborted one (Esc) keeps its prompt", () => {
		const user = (text: string, timestamp: number) => ({ role: "user" as const, content: text, timestamp });
		const failed = (stopReason: "error" | "aborted", timestamp: number) =>
			({ ...fauxAssistantMessage([], { stopReason, errorMessage: stopReason }), timestamp }) as const;
		const call = fauxAssistantMessage([fauxToolCall("read", { path: "a" }, { id: "c1" })]);
		const result = { role: "toolResult" as const, toolCallId: "c1", toolName: "read", content: [], isError: false, timestamp: 3 };
		const text = (messages: Context["messages"]) => messages.map((m) => `${m.role}: ${m.role === "user" ? JSON.stringify(m.content) : ""}`);
		// A tool loop whose next request failed after a steering message: the call and its result stay.
		expect(text(convertToLlm([user("go", 1), call, result, user("steer", 4), failed("error", 5), user("next", 6)]))).toEqual([
			'user: "go"',
			"assistant: ",
			"toolResult: ",
			'user: "next"',
		]);
		expect(text(convertToLlm([user("stopped", 1), failed("aborted", 2), user("next", 3)]))).toEqual([
			'user: [{"type":"text","text":"stopped"},{"type":"text","text":"next"}]',
		]);
	});
});
