import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentTool } from "../../../src/agent/types.js";
import { unregisterApiProvider } from "../../../src/ai/api-registry.js";
import { DEMO_API, demoReply, registerDemoProvider } from "../../../src/ai/providers/demo.js";
import { streamSimple } from "../../../src/ai/stream.js";
import type { AssistantMessage, AssistantMessageEvent, Context, Message, Model, ToolCall } from "../../../src/ai/types.js";
import { emptyUsage } from "../../../src/ai/usage.js";
import { validateToolCall } from "../../../src/ai/validation.js";
import { createBashTool } from "../../../src/tools/bash.js";
import { createLsTool } from "../../../src/tools/ls.js";
import { createReadTool } from "../../../src/tools/read.js";
import { renderMarkdown } from "../../../src/tui/markdown/render-markdown.js";
import { collectEvents } from "../../helpers/assistant-events.js";

let cwd: string;
let model: Model;
let tools: AgentTool[];

beforeAll(() => {
	cwd = mkdtempSync(join(tmpdir(), "rudder-demo-"));
	writeFileSync(join(cwd, "notes.md"), "# Notes\n\nfirst line\n");
	writeFileSync(join(cwd, "package.json"), '{"name": "x"}\n');
	mkdirSync(join(cwd, "src"));
	model = registerDemoProvider({ tokensPerSecond: 0 });
	tools = [createLsTool(cwd), createReadTool(cwd)];
});
afterAll(() => {
	unregisterApiProvider(DEMO_API);
	rmSync(cwd, { recursive: true, force: true });
});

const user = (text: string): Message => ({ role: "user", content: text, timestamp: Date.now() });

async function run(context: Context, signal?: AbortSignal): Promise<{ events: AssistantMessageEvent[]; message: AssistantMessage }> {
	return collectEvents(streamSimple(model, context, { signal }));
}

const textOf = (m: AssistantMessage) => m.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const toolCallOf = (m: AssistantMessage) => m.content.find((c): c is ToolCall => c.type === "toolCall");

/** Runs the tool the demo asked for, as the agent loop would, and returns the tool result message. */
async function execute(call: ToolCall): Promise<Message> {
	const tool = tools.find((t) => t.name === call.name) as AgentTool;
	const args = validateToolCall(tools, call);
	try {
		const result = await tool.execute(call.id, args);
		return {
			role: "toolResult",
			toolCallId: call.id,
			toolName: call.name,
			content: result.content,
			details: result.details,
			isError: false,
			timestamp: Date.now(),
		};
	} catch (error) {
		const text = (error as Error).message;
		return {
			role: "toolResult",
			toolCallId: call.id,
			toolName: call.name,
			content: [{ type: "text", text }],
			isError: true,
			timestamp: Date.now(),
		};
	}
}

describe("the demo model", () => {
	it("is labelled as an offline demo and costs nothing", () => {
		expect(model).toMatchObject({ provider: "demo", api: "rudder-demo", name: "Demo (offline, scripted)" });
		expect(model.cost).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
	});

	it("echoes a prompt as streamed markdown with a heading, a list and a code block", async () => {
		const { events, message } = await run({ messages: [user("hello there")], tools });
		expect(message.stopReason).toBe("stop");
		const text = textOf(message);
		expect(text).toMatch(/^## /m);
		expect(text).toMatch(/^- /m);
		expect(text).toMatch(/^```ts\n[\s\S]*hello there[\s\S]*\n```$/m);
		expect(text).toContain("> hello there");
		expect(text).toMatch(/demo/i);
		expect(text).toContain("no model was called");
		expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(20);
		expect(events[0].type).toBe("start");
		expect(events.at(-1)?.type).toBe("done");
		expect(message.usage.cost.total).toBe(0);
	});

	it("lists files with the real ls tool, then summarises the result in markdown", async () => {
		const prompt = user("what files are here?");
		const first = await run({ messages: [prompt], tools });
		expect(first.message.stopReason).toBe("toolUse");
		expect(textOf(first.message)).toMatch(/demo/i);
		const call = toolCallOf(first.message) as ToolCall;
		expect(call).toMatchObject({ name: "ls", arguments: { path: "." } });

		const result = await execute(call);
		expect(result).toMatchObject({ isError: false });
		const second = await run({ messages: [prompt, first.message, result], tools });
		expect(second.message.stopReason).toBe("stop");
		const summary = textOf(second.message);
		expect(summary).toContain("### `.`: 3 entries (1 folder, 2 files shown)");
		expect(summary).toContain("- `notes.md`");
		expect(summary).toContain("- `package.json`");
		expect(summary).toContain("- `src/`");
		expect(toolCallOf(second.message)).toBeUndefined();
	});

	it("reads a named file with the real read tool and shows it in a code block", async () => {
		const prompt = user("please read the file notes.md.");
		const first = await run({ messages: [prompt], tools });
		const call = toolCallOf(first.message) as ToolCall;
		expect(call).toMatchObject({ name: "read", arguments: { path: "notes.md" } });
		const result = await execute(call);
		const second = await run({ messages: [prompt, first.message, result], tools });
		expect(textOf(second.message)).toContain("### `notes.md`: 3 lines\n\n```md\n# Notes\n\nfirst line\n```");
	});

	it("reports a failing tool instead of pretending", async () => {
		const prompt = user("read missing.txt");
		const first = await run({ messages: [prompt], tools });
		const result = await execute(toolCallOf(first.message) as ToolCall);
		expect(result).toMatchObject({ isError: true });
		const second = await run({ messages: [prompt, first.message, result], tools });
		expect(textOf(second.message)).toContain("### `read` failed");
		// Plain output is fenced without a language, so the app prints no "  text" label row above it.
		expect(textOf(second.message)).toMatch(/### `read` failed\n\n```\n/);
		const rows = renderMarkdown(textOf(second.message), 80).map((row) => row.map((s) => s.text).join(""));
		expect(rows.filter((row) => row.trim() === "text")).toEqual([]);
	});

	it("does not call a tool the session did not enable", async () => {
		const { message } = await run({ messages: [user("list the files")] });
		expect(toolCallOf(message)).toBeUndefined();
		expect(textOf(message)).toContain("neither `ls` nor `bash` is enabled");
		expect(message.stopReason).toBe("stop");
	});

	it("lists files through the real bash tool when ls is not enabled (the default tool set)", async () => {
		const defaultTools = [createReadTool(cwd), createBashTool(cwd)];
		const prompt = user("list the files");
		const first = await run({ messages: [prompt], tools: defaultTools });
		const call = toolCallOf(first.message) as ToolCall;
		expect(call).toMatchObject({ name: "bash", arguments: { command: "ls -la" } });
		const bash = defaultTools[1];
		const result = await bash.execute(call.id, validateToolCall(defaultTools, call));
		expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("notes.md") });
	});

	it("never runs out of replies, also with overlapping calls", async () => {
		const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => run({ messages: [user(`message ${i}`)] })));
		for (const [i, { message }] of replies.entries()) {
			expect(message.stopReason).toBe("stop");
			expect(textOf(message)).toContain(`> message ${i}`);
		}
	});

	it("streams slowly enough to watch by default, and stops on abort", async () => {
		const paced = registerDemoProvider();
		const controller = new AbortController();
		const stream = streamSimple(paced, { messages: [user("hi")] }, { signal: controller.signal });
		const started = performance.now();
		let deltas = 0;
		let elapsed = 0;
		const events: AssistantMessageEvent[] = [];
		for await (const event of stream) {
			events.push(event);
			if (event.type === "text_delta" && ++deltas === 13) {
				elapsed = performance.now() - started;
				controller.abort();
			}
		}
		// 12 chunk intervals at 60 tokens/s take ≥ 200 ms; a lower bound, so a slow machine cannot fail it.
		expect(elapsed).toBeGreaterThanOrEqual(150);
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
		expect(events.filter((e) => e.type === "text_delta").length).toBe(13);
		registerDemoProvider({ tokensPerSecond: 0 });
	});
});

describe("demoReply", () => {
	it("keeps echoed backticks inside the code block", () => {
		const reply = demoReply({ messages: [user("try ```rm -rf``` here")] });
		const text = reply.content[0].type === "text" ? reply.content[0].text : "";
		expect(text).toContain('````ts\nconst prompt = "try ```rm -rf``` here";');
		expect(text).toMatch(/\n````\n/);
	});

	it("is deterministic for the same conversation", () => {
		const context: Context = { messages: [user("same words")] };
		// Same content; the timestamp is the clock's, so two calls a millisecond apart may differ there.
		const content = (m: AssistantMessage) => ({ ...m, timestamp: 0 });
		expect(content(demoReply(context))).toEqual(content(demoReply(context)));
	});

	it("summarises ls output that was cut by the entry limit using the real count", () => {
		const call: ToolCall = { type: "toolCall", id: "c1", name: "ls", arguments: { path: "big" } };
		const names = Array.from({ length: 20 }, (_, i) => `f${i}`);
		const messages: Message[] = [
			user("ls big"),
			{
				role: "assistant",
				content: [call],
				api: DEMO_API,
				provider: "demo",
				model: "demo",
				usage: emptyUsage(),
				stopReason: "toolUse",
				timestamp: 0,
			},
			{
				role: "toolResult",
				toolCallId: "c1",
				toolName: "ls",
				content: [{ type: "text", text: `${names.join("\n")}\n\n[Showing 20 of 75 entries. Use limit=75 to see all]` }],
				details: { count: 75, entryLimitReached: 20 },
				isError: false,
				timestamp: 0,
			},
		];
		const reply = demoReply({ messages });
		const text = reply.content[0].type === "text" ? reply.content[0].text : "";
		expect(text).toContain("### `big`: 75 entries");
		expect(text).toContain("…and 63 more.");
		expect(text).not.toContain("Showing 20");
	});
});
