// A tool call whose argument JSON was cut off must never run, whether the server then ends the reply
// as if all were well or the connection drops. Real 127.0.0.1 servers speak each provider's wire
// protocol; the loop runs the real bash tool in a temp folder, and a side-effect file tells whether the
// command ran. Before the fix, `{"command": "touch …` was repaired into a complete command and run.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NOT_RUN_TEXT, runAgentLoop } from "../../src/agent/agent-loop.js";
import type { AgentEvent, AgentMessage } from "../../src/agent/types.js";
import type { Message, Model, ToolResultMessage } from "../../src/ai/types.js";
import { createBashTool } from "../../src/tools/bash.js";
import { providerModel } from "../helpers/provider-test.js";
import { scriptedServerPerTest } from "../helpers/scripted-server-per-test.js";
import { type ScriptedReply, sse } from "../helpers/sse-server.js";
import { useTempFolder } from "../tools/temp-folder.js";

const server = scriptedServerPerTest();

type Ending = "finished" | "dropped" | "complete";

/** OpenAI chat completions: the arguments, then (unless dropped) finish_reason and [DONE]. */
function openaiReply(args: string, ending: Ending): ScriptedReply {
	const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "mock-1" };
	const chunk = (delta: object, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
	const call = { index: 0, id: "call_1", type: "function", function: { name: "bash", arguments: args } };
	const head = sse([chunk({ role: "assistant", content: null }), chunk({ tool_calls: [call] })]);
	// The pause lets the client parse the partial call before the socket goes.
	if (ending === "dropped") return { kind: "sse", chunks: [head], delayMs: 150, resetAfter: true };
	return { kind: "sse", chunks: [head, sse([chunk({}, "tool_calls")], { done: true })] };
}

/** Anthropic messages: a tool_use block, then (unless dropped) its stop and stop_reason tool_use. */
function anthropicReply(args: string, ending: Ending): ScriptedReply {
	const ev = (event: string, data: object) => ({ event, data: { type: event, ...data } });
	const message = {
		id: "msg_1",
		type: "message",
		role: "assistant",
		model: "claude-x",
		content: [],
		usage: { input_tokens: 5, output_tokens: 1 },
	};
	const head = sse([
		ev("message_start", { message }),
		ev("content_block_start", { index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "bash", input: {} } }),
		ev("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: args } }),
	]);
	// The pause lets the client parse the partial call before the socket goes.
	if (ending === "dropped") return { kind: "sse", chunks: [head], delayMs: 150, resetAfter: true };
	const tail = sse([
		ev("content_block_stop", { index: 0 }),
		ev("message_delta", { delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } }),
		ev("message_stop", {}),
	]);
	return { kind: "sse", chunks: [head, tail] };
}

/** A plain text answer that ends the run after the tool result. */
function openaiText(): ScriptedReply {
	const base = { id: "chatcmpl-2", object: "chat.completion.chunk", created: 1, model: "mock-1" };
	return {
		kind: "sse",
		chunks: [sse([{ ...base, choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] }], { done: true })],
	};
}

function anthropicText(): ScriptedReply {
	const ev = (event: string, data: object) => ({ event, data: { type: event, ...data } });
	const message = {
		id: "msg_2",
		type: "message",
		role: "assistant",
		model: "claude-x",
		content: [],
		usage: { input_tokens: 5, output_tokens: 1 },
	};
	return {
		kind: "sse",
		chunks: [
			sse([
				ev("message_start", { message }),
				ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
				ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: "ok" } }),
				ev("content_block_stop", { index: 0 }),
				ev("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } }),
				ev("message_stop", {}),
			]),
		],
	};
}

const providers = {
	"openai-completions": {
		model: (url: string): Model => providerModel({ id: "mock-1", api: "openai-completions", provider: "mock", baseUrl: `${url}/v1` }),
		reply: openaiReply,
		text: openaiText,
	},
	anthropic: {
		model: (url: string): Model => providerModel({ id: "claude-x", api: "anthropic-messages", provider: "anthropic", baseUrl: url }),
		reply: anthropicReply,
		text: anthropicText,
	},
} as const;

async function runWith(folder: string, provider: keyof typeof providers, args: string, ending: Ending) {
	const p = providers[provider];
	server.enqueue(p.reply(args, ending), p.text());
	const events: AgentEvent[] = [];
	const messages = await runAgentLoop(
		[{ role: "user", content: "go", timestamp: 1 }],
		{ systemPrompt: "", messages: [], tools: [createBashTool(folder)] },
		{
			model: p.model(server.url),
			convertToLlm: (m: AgentMessage[]) => m as Message[],
			apiKey: "test-key",
			maxRetries: 0,
		},
		(event) => {
			events.push(event);
		},
	);
	const results = messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
	return { events, results, ran: existsSync(join(folder, "side-effect")) };
}

const cutOff = '{"command": "touch side-effect';

describe.each(Object.keys(providers) as (keyof typeof providers)[])("cut-off tool arguments over %s", (provider) => {
	const tmp = useTempFolder();
	it("are answered with the parse error, not run, when the server ends the reply normally", async () => {
		const { results, ran, events } = await runWith(tmp.path, provider, cutOff, "finished");
		expect(ran).toBe(false);
		expect(results).toHaveLength(1);
		expect(results[0]?.isError).toBe(true);
		const text = results[0]?.content[0]?.type === "text" ? results[0].content[0].text : "";
		expect(text).toMatch(
			/^Tool call was not executed: its arguments were not complete, valid JSON when the reply ended \(Unterminated string in JSON at position \d+/,
		);
		expect(text).toContain("Issue the call again with complete arguments.");
		// The live display still got the repaired partial value.
		const end = events.find((e) => e.type === "message_end" && e.message.role === "assistant");
		const call = end?.type === "message_end" && end.message.role === "assistant" ? end.message.content[0] : undefined;
		expect(call).toMatchObject({ type: "toolCall", arguments: { command: "touch side-effect" } });
		expect(call && "argumentsError" in call && call.argumentsError).toMatch(/^Unterminated string/);
		// The run went on: the model got the error and answered.
		expect(server.requests).toHaveLength(2);
	});

	it("are not run when the connection drops mid-arguments", async () => {
		const { results, ran, events } = await runWith(tmp.path, provider, cutOff, "dropped");
		expect(ran).toBe(false);
		const streamed = events.some((e) => e.type === "message_update" && e.assistantMessageEvent.type === "toolcall_delta");
		expect(streamed).toBe(true);
		expect(results[0]).toMatchObject({ isError: true, content: [{ type: "text", text: NOT_RUN_TEXT.replyError }] });
	});

	it("run when complete (the same script with the closing quote and brace)", async () => {
		const { results, ran } = await runWith(tmp.path, provider, `${cutOff}"}`, "complete");
		expect(results[0]?.isError).toBe(false);
		expect(ran).toBe(true);
	});
});
