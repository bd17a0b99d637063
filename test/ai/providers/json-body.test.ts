// The request body in chunks: the same bytes JSON.stringify gives, without the whole text ever being
// one string; and a long session's request through a real provider and a real 127.0.0.1 server
// arrives byte-identical while no string the size of the body is made on the way.
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getHeapSpaceStatistics } from "node:v8";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonBody, withKnownJson } from "../../../src/ai/providers/json-body.js";
import { streamOpenAICompletions } from "../../../src/ai/providers/openai-completions.js";
import type { Context, Message } from "../../../src/ai/types.js";
import { collectEvents } from "../../helpers/assistant-events.js";
import { providerModel, sseFixture } from "../../helpers/provider-test.js";

/** Bytes in V8's large-object spaces, where a string of the whole body would sit. */
const largeObjectBytes = () =>
	getHeapSpaceStatistics()
		.filter((s) => s.space_name === "large_object_space" || s.space_name === "new_large_object_space")
		.reduce((n, s) => n + s.space_used_size, 0);

const text = (body: ReturnType<typeof jsonBody>) => Buffer.concat(body.chunks).toString("utf8");

/** V8 puts strings above this many bytes in its large-object space (old generation at once). */
const LARGE_OBJECT_BYTES = 128 * 1024;

describe("jsonBody", () => {
	it("gives JSON.stringify's bytes for any JSON value, and their exact count", () => {
		fc.assert(
			fc.property(fc.jsonValue(), (value) => {
				const body = jsonBody(value);
				expect(text(body)).toBe(JSON.stringify(value));
				expect(body.bytes).toBe(Buffer.byteLength(JSON.stringify(value)));
			}),
		);
	});

	it("gives JSON.stringify's bytes for bodies with members it leaves out or rewrites", () => {
		const date = new Date(Date.UTC(2026, 0, 2));
		const withToJson = { toJSON: (key: string) => `key:${key}` };
		const body = {
			model: "m",
			skipped: undefined,
			fn: () => 1,
			messages: [{ role: "user", content: "é 👋 世界 \u2028" }, undefined, () => 2, date, withToJson, [1, [2]]],
			when: date,
			custom: withToJson,
			tools: [],
			nested: { list: [undefined, { a: undefined }] },
		};
		expect(text(jsonBody(body))).toBe(JSON.stringify(body));
		expect(text(jsonBody([1, "two", { three: 3 }]))).toBe(JSON.stringify([1, "two", { three: 3 }]));
		expect(text(jsonBody("a string"))).toBe(JSON.stringify("a string"));
	});

	it("throws what JSON.stringify throws, and refuses a body that is not JSON", () => {
		const cyclic: Record<string, unknown> = { messages: [] };
		(cyclic.messages as unknown[]).push(cyclic);
		expect(() => jsonBody(cyclic)).toThrow(TypeError);
		expect(() => jsonBody({ n: 1n })).toThrow(TypeError);
		expect(() => jsonBody(undefined)).toThrow("request body is not JSON");
	});

	it("keeps every chunk of a 20 MiB body of many messages under V8's large-object size", () => {
		const messages = Array.from({ length: 2000 }, (_, i) => ({ role: "tool", tool_call_id: `c${i}`, content: `→ ${"x".repeat(5000)}` }));
		const body = jsonBody({ model: "m", messages, stream: true });
		expect(body.chunks.length).toBeGreaterThan(100);
		for (const chunk of body.chunks) expect(chunk.length).toBeLessThan(LARGE_OBJECT_BYTES);
		expect(text(body)).toBe(JSON.stringify({ model: "m", messages, stream: true }));
	});
});

/**
 * A model server that keeps a request's bytes only as a digest: a server in this process that made
 * the body one string would put that string in the heap the test measures.
 */
async function digestingServer(reply: string) {
	const seen: { sha256: string; contentLength: number; bytes: number }[] = [];
	const server = createServer(async (req, res) => {
		const hash = createHash("sha256");
		let bytes = 0;
		for await (const chunk of req) {
			hash.update(chunk as Buffer);
			bytes += (chunk as Buffer).length;
		}
		seen.push({ sha256: hash.digest("hex"), contentLength: Number(req.headers["content-length"]), bytes });
		res.writeHead(200, { "content-type": "text/event-stream" });
		res.end(reply);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("jsonBody with a run of known elements (a transcript's kept messages)", () => {
	const element = (i: number) => Object.freeze({ role: "user", content: `message ${i} — é` });
	const joined = (elements: unknown[]) => elements.map((e) => JSON.stringify(e)).join(",");

	it("writes the run as its chunks (the same memory, not serialised again) and the other elements as JSON.stringify does", () => {
		const messages = [0, 1, 2, 3, 4].map(element);
		const chunks = [Buffer.from(joined(messages.slice(1, 3)))];
		withKnownJson(messages, 1, 2, chunks);
		const body = jsonBody({ model: "m", messages });
		expect(text(body)).toBe(JSON.stringify({ model: "m", messages }));
		expect(body.chunks).toContain(chunks[0]);
		// At the start, and the whole array.
		const start = [0, 1].map(element);
		withKnownJson(start, 0, 2, [Buffer.from(joined(start))]);
		expect(text(jsonBody({ messages: start }))).toBe(JSON.stringify({ messages: start }));
	});

	it("sends what the chunks say, so the array is frozen: nobody changes an element of it in place", () => {
		const messages = [0, 1].map(element);
		withKnownJson(messages, 0, 2, [Buffer.from(joined(messages))]);
		expect(() => {
			(messages as unknown[])[0] = { role: "user", content: "changed" };
		}).toThrow(TypeError);
		// A copy someone made to change (an onPayload hook) is serialised as it is.
		const copy = [{ role: "user", content: "changed" }, messages[1]];
		expect(text(jsonBody({ messages: copy }))).toBe(JSON.stringify({ messages: copy }));
	});
});

describe("a long session's request through a provider", () => {
	let server: Awaited<ReturnType<typeof digestingServer>> | undefined;
	afterEach(async () => {
		vi.restoreAllMocks();
		await server?.close();
		server = undefined;
	});

	it("arrives byte-identical with its length, and no string the size of the body is made or held to send it", async () => {
		const messages: Message[] = [];
		for (let i = 0; i < 400; i++) {
			messages.push({ role: "user", content: `question ${i} — é 世界`, timestamp: i });
			messages.push({
				role: "toolResult",
				toolCallId: `call_${i}`,
				toolName: "read",
				content: [{ type: "text", text: `${i}: ${"line of a file\n".repeat(1000)}` }],
				isError: false,
				timestamp: i,
			});
		}
		const context: Context = { systemPrompt: "be brief", messages };
		server = await digestingServer(sseFixture("openai-completions", "text"));
		const model = providerModel({ id: "gpt-4o", api: "openai-completions", provider: "openai", baseUrl: `${server.url}/v1` });
		let sent: unknown;
		let beforeSend = 0;
		let inFlight = 0;
		const stringify = vi.spyOn(JSON, "stringify");
		await collectEvents(
			streamOpenAICompletions(model, context, {
				apiKey: "sk-test",
				onPayload: (payload) => {
					sent = payload;
					beforeSend = largeObjectBytes();
				},
				// The response's headers are in and the request's bytes are still referenced: a body made
				// as one string would be in the large-object space now, whatever the collector did since.
				onResponse: () => {
					inFlight = largeObjectBytes();
				},
			}),
		);
		const longest = Math.max(...stringify.mock.results.map((r) => (typeof r.value === "string" ? r.value.length : 0)));
		stringify.mockRestore();
		const expected = JSON.stringify(sent);
		expect(expected.length).toBeGreaterThan(6 * 2 ** 20);
		const bytes = Buffer.byteLength(expected);
		expect(server.seen).toEqual([{ sha256: createHash("sha256").update(expected).digest("hex"), contentLength: bytes, bytes }]);
		expect(inFlight - beforeSend).toBeLessThan(expected.length / 10);
		expect(longest).toBeLessThan(LARGE_OBJECT_BYTES / 2);
	});
});
