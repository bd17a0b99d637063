import { describe, expect, it } from "vitest";
import { streamOpenAICompletions } from "../../../src/ai/providers/openai-completions.js";
import type { AssistantMessage, AssistantMessageEvent, Model, SimpleStreamOptions } from "../../../src/ai/types.js";
import { hello as helloWith, price, providerModel, sseFixture } from "../../helpers/provider-test.js";
import { type ScriptedServer, startScriptedServer } from "../../helpers/sse-server.js";

const textFixture = sseFixture("openai-completions", "text");
const hello = helloWith();

/** The text fixture up to (not including) its finish chunk: a reply still in progress. */
const openReply = textFixture.slice(0, textFixture.indexOf('"finish_reason":"stop"'));
const firstChunks = openReply.slice(0, openReply.lastIndexOf("data: "));

function testModel(server: ScriptedServer): Model {
	const gpt4o = { id: "gpt-4o", api: "openai-completions", provider: "openai", input: ["text"] } as const;
	return providerModel({ ...gpt4o, input: [...gpt4o.input], baseUrl: `${server.url}/v1`, cost: price(2.5, 10, 1.25), maxTokens: 1000 });
}

interface Outcome {
	events: AssistantMessageEvent[];
	terminal: AssistantMessageEvent[];
	message: AssistantMessage;
}

async function run(server: ScriptedServer, options: SimpleStreamOptions = {}, onEvent?: (e: AssistantMessageEvent) => void) {
	const events: AssistantMessageEvent[] = [];
	for await (const e of streamOpenAICompletions(testModel(server), hello, { apiKey: "sk-test", ...options })) {
		events.push(e);
		onEvent?.(e);
	}
	const terminal = events.filter((e) => e.type === "done" || e.type === "error");
	const last = terminal[0];
	const message = last?.type === "done" ? last.message : last?.type === "error" ? last.error : undefined;
	if (!message) throw new Error("no terminal event");
	return { events, terminal, message } satisfies Outcome;
}

/** Waits until the server holds no open socket. Keep-alive sockets close at the client's idle timeout (~4 s). */
async function socketsDrain(server: ScriptedServer): Promise<void> {
	const deadline = Date.now() + 20_000;
	while (server.openSockets() > 0) {
		if (Date.now() > deadline) throw new Error(`server still has ${server.openSockets()} open socket(s)`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

/** Runs `body` with its own server, so cases run concurrently, and always closes it. */
async function withServer(body: (server: ScriptedServer) => Promise<void>): Promise<void> {
	const server = await startScriptedServer();
	try {
		await body(server);
		await socketsDrain(server);
	} finally {
		await server.close();
	}
}

const TIMEOUT = 40_000;

/** A concurrent case with its own server, checked for leftover sockets and closed afterwards. */
function serverCase(name: string, body: (server: ScriptedServer) => Promise<void>): void {
	it(name, () => withServer(body), TIMEOUT);
}

describe.concurrent("streamSse faults through the OpenAI completions provider", () => {
	serverCase("401 becomes one line naming the provider and the env var, without retry", async (server) => {
		server.enqueue({
			kind: "status",
			status: 401,
			body: JSON.stringify({
				error: {
					message: "Incorrect API key provided: sk-test.\nYou can find your API key at https://platform.openai.com/account/api-keys.",
					type: "invalid_request_error",
					code: "invalid_api_key",
				},
			}),
		});
		const { terminal, message } = await run(server);
		expect(terminal).toHaveLength(1);
		expect(terminal[0]).toMatchObject({ type: "error", reason: "error" });
		expect(message.errorMessage).toBe(
			"OpenAI rejected the API key (HTTP 401): Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys. Check OPENAI_API_KEY or pass --api-key.",
		);
		expect(message.errorMessage).not.toContain("\n");
		expect(server.requests).toHaveLength(1);
	});

	serverCase("429 with retry-after: 0, then success: succeeds after 2 requests", async (server) => {
		server.enqueue(
			{ kind: "status", status: 429, headers: { "retry-after": "0" }, body: '{"error":{"message":"Rate limit reached"}}' },
			{ kind: "sse", chunks: [textFixture] },
		);
		const { terminal, message } = await run(server);
		expect(terminal).toHaveLength(1);
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "héllo 👋 世界" }]);
		expect(server.requests).toHaveLength(2);
	});

	serverCase("500, then success: retried after the backoff", async (server) => {
		server.enqueue({ kind: "status", status: 500, body: '{"error":{"message":"boom"}}' }, { kind: "sse", chunks: [textFixture] });
		const { terminal, message } = await run(server);
		expect(terminal).toHaveLength(1);
		expect(message.stopReason).toBe("stop");
		expect(server.requests).toHaveLength(2);
	});

	serverCase("500 on every try: gives up after maxRetries with the server's message", async (server) => {
		const busy = { kind: "status" as const, status: 503, headers: { "retry-after": "0" }, body: '{"error":{"message":"overloaded"}}' };
		server.enqueue(busy, busy, busy);
		const { terminal, message } = await run(server, { maxRetries: 2 });
		expect(terminal).toHaveLength(1);
		expect(message.errorMessage).toBe(`OpenAI HTTP 503 from ${server.url.slice("http://".length)}/v1/chat/completions: overloaded`);
		expect(server.requests).toHaveLength(3);
	});

	serverCase("retry-after beyond maxRetryDelayMs: an error at once, no waiting", async (server) => {
		server.enqueue({ kind: "status", status: 429, headers: { "retry-after": "3600" }, body: '{"error":{"message":"Slow down"}}' });
		const started = Date.now();
		const { terminal, message } = await run(server, { maxRetryDelayMs: 1000 });
		// Waiting would take an hour; anything under the test timeout proves it did not.
		expect(Date.now() - started).toBeLessThan(TIMEOUT);
		expect(terminal).toHaveLength(1);
		expect(message.errorMessage).toBe(`OpenAI HTTP 429 from ${server.url.slice("http://".length)}/v1/chat/completions: Slow down`);
		expect(server.requests).toHaveLength(1);
	});

	serverCase("connection reset before the first byte is retried", async (server) => {
		server.enqueue({ kind: "reset" }, { kind: "sse", chunks: [textFixture] });
		const { terminal, message } = await run(server);
		expect(terminal).toHaveLength(1);
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "héllo 👋 世界" }]);
		expect(server.requests).toHaveLength(2);
	});

	serverCase("connection reset mid-stream is an error, not retried", async (server) => {
		server.enqueue({ kind: "sse", chunks: [openReply], resetAfter: true }, { kind: "sse", chunks: [textFixture] });
		const { terminal, message } = await run(server);
		expect(terminal).toHaveLength(1);
		expect(terminal[0]).toMatchObject({ type: "error", reason: "error" });
		expect(message.errorMessage).toMatch(/^OpenAI: connection failed mid-stream: /);
		// How much of the body arrives before the reset is up to the kernel, so the content is not asserted.
		expect(server.requests).toHaveLength(1);
	});

	serverCase("a stalled stream ends with a 'stream stalled' error", async (server) => {
		server.enqueue({ kind: "sse", chunks: [openReply], stallAfter: true });
		const { terminal, message } = await run(server, { timeoutMs: 300 });
		expect(terminal).toHaveLength(1);
		expect(terminal[0]).toMatchObject({ type: "error", reason: "error" });
		expect(message.errorMessage).toBe("OpenAI: stream stalled (no data for 300ms)");
		expect(message.content).toEqual([{ type: "text", text: "héllo 👋 世界" }]);
	});

	serverCase("a server that accepts the request and never answers ends with 'stream stalled', not a 300 s hang", async (server) => {
		server.enqueue({ kind: "hang" });
		const started = Date.now();
		const { terminal, message } = await run(server, { timeoutMs: 300, maxRetries: 0 });
		expect(terminal).toHaveLength(1);
		expect(terminal[0]).toMatchObject({ type: "error", reason: "error" });
		expect(message.errorMessage).toBe("OpenAI: stream stalled (no data for 300ms)");
		expect(Date.now() - started).toBeLessThan(10_000);
	});

	serverCase("a malformed JSON line is an error quoting the raw snippet", async (server) => {
		const broken = 'data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"oops"\n\n';
		server.enqueue({ kind: "sse", chunks: [firstChunks, broken, "data: [DONE]\n\n"] });
		const { terminal, message } = await run(server);
		expect(terminal).toHaveLength(1);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(
			'OpenAI: malformed JSON in stream: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"oops"',
		);
	});

	serverCase("abort before the request: aborted, nothing sent", async (server) => {
		const controller = new AbortController();
		controller.abort();
		const { events, terminal, message } = await run(server, { signal: controller.signal });
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(terminal[0]).toMatchObject({ type: "error", reason: "aborted" });
		expect(message.errorMessage).toBe("Request was aborted");
		expect(server.requests).toHaveLength(0);
	});

	serverCase("abort during the stream: aborted promptly, partial text kept, socket closed", async (server) => {
		// The server stalls after a few chunks; only the abort can end this stream before the 60 s watchdog.
		server.enqueue({ kind: "sse", chunks: [firstChunks], stallAfter: true });
		const controller = new AbortController();
		let abortedAt = 0;
		const { terminal, message } = await run(server, { signal: controller.signal, timeoutMs: 60_000 }, (e) => {
			if (e.type === "text_delta" && abortedAt === 0) {
				abortedAt = Date.now();
				controller.abort();
			}
		});
		expect(Date.now() - abortedAt).toBeLessThan(10_000);
		expect(terminal).toHaveLength(1);
		expect(terminal[0]).toMatchObject({ type: "error", reason: "aborted" });
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBe("Request was aborted");
		expect(message.content[0]).toMatchObject({ type: "text" });
	});

	serverCase("abort while waiting to retry: aborted without a second request", async (server) => {
		server.enqueue({ kind: "status", status: 503, headers: { "retry-after": "30" }, body: "busy" });
		const controller = new AbortController();
		const stream = streamOpenAICompletions(testModel(server), hello, { apiKey: "k", signal: controller.signal });
		const poll = setInterval(() => {
			if (server.requests.length > 0) controller.abort();
		}, 20);
		try {
			const events: AssistantMessageEvent[] = [];
			for await (const e of stream) events.push(e);
			expect(events.at(-1)).toMatchObject({ type: "error", reason: "aborted" });
			expect(events.filter((e) => e.type === "error" || e.type === "done")).toHaveLength(1);
		} finally {
			clearInterval(poll);
		}
		expect(server.requests).toHaveLength(1);
	});
});
