// A model on 127.0.0.1 speaking OpenAI chat completions that answers each request by what it holds:
// the test's `reply` function sees the request body (system prompt, messages) and returns the SSE body,
// or a promise of it (to hold a reply until the test lets it go). For tests where several agents
// (a main agent and sub-agents, told apart by their system prompt) call the model at once.
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Model } from "../../src/ai/index.js";
import { sse } from "./sse-server.js";

export interface ChatRequest {
	system: string;
	messages: { role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown[] }[];
	/** Every message's text, joined (for "does this request contain X"). */
	text: string;
	/** The names of the tools offered. */
	tools: string[];
}

/** What a reply is: a body to send, or `stall` (headers and a first chunk, then nothing until the socket closes). */
export type RoutedReply = string | { stall: true };

export interface RoutedModelServer {
	url: string;
	model: Model;
	requests: ChatRequest[];
	openSockets(): number;
	close(): Promise<void>;
}

export async function startRoutedModelServer(
	reply: (request: ChatRequest) => RoutedReply | Promise<RoutedReply>,
): Promise<RoutedModelServer> {
	const requests: ChatRequest[] = [];
	const sockets = new Set<Socket>();
	const server: Server = createServer(async (req, res) => {
		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
		const messages = body.messages as ChatRequest["messages"];
		const system = messages
			.filter((m) => m.role === "system" || m.role === "developer")
			.map((m) => contentText(m.content))
			.join("\n");
		const tools = ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
		const request: ChatRequest = { system, messages, text: JSON.stringify(messages), tools };
		requests.push(request);
		const answer = await reply(request);
		res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
		if (typeof answer === "string") {
			res.end(answer);
			return;
		}
		res.write(sse([{ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] }]));
	});
	server.on("connection", (s) => {
		sockets.add(s);
		s.on("close", () => sockets.delete(s));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		requests,
		model: mockModel(url),
		openSockets: () => sockets.size,
		close: () =>
			new Promise<void>((resolve) => {
				for (const s of sockets) s.destroy();
				server.close(() => resolve());
			}),
	};
}

/** The model "mock/mock-1" at a server speaking OpenAI chat completions at `url`. */
export function mockModel(url: string): Model {
	return {
		id: "mock-1",
		name: "mock-1",
		api: "openai-completions",
		provider: "mock",
		baseUrl: `${url}/v1`,
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 100_000,
		maxTokens: 4096,
	};
}

function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (Array.isArray(content)) return content.map((c) => (typeof c?.text === "string" ? c.text : "")).join("");
	return "";
}

const base = { id: "chatcmpl-test", object: "chat.completion.chunk", created: 1_753_804_211, model: "mock-1" };
const usage = { ...base, choices: [], usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } };

/** A reply calling the given tools in one message (so the agent runs them as one batch). */
export function toolCallsReply(calls: { id: string; name: string; args: object }[]): string {
	return sse(
		[
			{ ...base, choices: [{ index: 0, delta: { role: "assistant", content: null }, finish_reason: null }] },
			...calls.map((call, index) => ({
				...base,
				choices: [
					{
						index: 0,
						delta: {
							tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args) } }],
						},
						finish_reason: null,
					},
				],
			})),
			{ ...base, choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
			usage,
		],
		{ done: true },
	);
}

/** A text reply. */
export function textReply(text: string): string {
	return sse(
		[
			{ ...base, choices: [{ index: 0, delta: { role: "assistant", content: text }, finish_reason: null }] },
			{ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
			usage,
		],
		{ done: true },
	);
}

/** Tool results the request carries, by tool call id. */
export function toolResults(request: ChatRequest): Map<string, string> {
	return new Map(request.messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id ?? "", contentText(m.content)]));
}
