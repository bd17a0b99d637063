// The bench mock speaks each app's wire protocol: a reply streamed over real HTTP parses, as SSE, into
// the events each API documents and reassembles into exactly the seeded text; side calls answer apart.
import { createParser } from "eventsource-parser";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error the bench is plain JavaScript run by node without a build
import { startMock } from "../../bench/lib/mock-server.mjs";
// @ts-expect-error the bench is plain JavaScript
import { tokenStream } from "../../bench/lib/token-stream.mjs";
// @ts-expect-error the bench is plain JavaScript
import { fillSchema } from "../../bench/lib/wire-protocols.mjs";

type Event = { event?: string; data: string };
type Mock = { origin: string; requests: { kind: string }[]; close: () => Promise<void> };
let mock: Mock | undefined;
afterEach(async () => {
	await mock?.close();
	mock = undefined;
});

async function post(path: string, body: unknown): Promise<{ events: Event[]; type: string; text: string }> {
	const res = await fetch(`${mock?.origin}${path}`, { method: "POST", body: JSON.stringify(body) });
	const text = await res.text();
	const events: Event[] = [];
	const parser = createParser({ onEvent: (e) => events.push({ event: e.event, data: e.data }) });
	parser.feed(text);
	return { events, type: res.headers.get("content-type") ?? "", text };
}

const expected = (tokens: number): string => [...tokenStream(tokens, 1000)].join("");
// The seeded text closes an open code block with one more token.
const tokenCount = (tokens: number): number => [...tokenStream(tokens, 1000)].length;

describe("the bench mock's wire protocols", () => {
	it("OpenAI chat completions: content deltas, a stop chunk with usage, then [DONE]", async () => {
		mock = await startMock({ plan: () => ({ tokens: 120, rate: 0 }) });
		const { events } = await post("/v1/chat/completions", { stream: true });
		expect(events.at(-1)?.data).toBe("[DONE]");
		const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
		expect(chunks[0].choices[0].delta.role).toBe("assistant");
		expect(chunks.map((c) => c.choices[0].delta.content ?? "").join("")).toBe(expected(120));
		expect(chunks.at(-1).choices[0].finish_reason).toBe("stop");
		expect(chunks.at(-1).usage.completion_tokens).toBe(tokenCount(120));
	});

	it("Anthropic Messages: message_start, text_delta events of one block, message_delta, message_stop", async () => {
		mock = await startMock({ plan: () => ({ tokens: 80, rate: 0 }) });
		const { events } = await post("/v1/messages?beta=true", { model: "claude-x", stream: true });
		const names = events.map((e) => e.event);
		expect(names.slice(0, 2)).toEqual(["message_start", "content_block_start"]);
		expect(names.slice(-3)).toEqual(["content_block_stop", "message_delta", "message_stop"]);
		for (const e of events) expect(JSON.parse(e.data).type).toBe(e.event);
		const text = events
			.filter((e) => e.event === "content_block_delta")
			.map((e) => JSON.parse(e.data).delta.text)
			.join("");
		expect(text).toBe(expected(80));
		expect(JSON.parse(events[0].data).message.model).toBe("claude-x");
	});

	it("OpenAI Responses: output_text deltas, and response.completed carrying the whole text", async () => {
		mock = await startMock({ plan: () => ({ tokens: 60, rate: 0 }) });
		const { events } = await post("/v1/responses", { model: "mock-1", stream: true, input: [] });
		expect(events[0].event).toBe("response.created");
		expect(events.at(-1)?.event).toBe("response.completed");
		const deltas = events.filter((e) => e.event === "response.output_text.delta").map((e) => JSON.parse(e.data).delta);
		expect(deltas.join("")).toBe(expected(60));
		const done = JSON.parse(events.at(-1)?.data ?? "{}").response;
		expect(done.status).toBe("completed");
		expect(done.output[0].content[0].text).toBe(expected(60));
		const seq = events.map((e) => JSON.parse(e.data).sequence_number);
		expect(seq).toEqual(seq.map((_, i) => i));
	});

	it("Codex's title request (a JSON schema) streams a title apart from the planned replies", async () => {
		let planned = 0;
		mock = await startMock({
			plan: () => {
				planned += 1;
				return { tokens: 10, rate: 0 };
			},
		});
		const schema = { type: "object", properties: { title: { type: "string", minLength: 1 } }, required: ["title"] };
		const { events } = await post("/v1/responses", { stream: true, text: { format: { type: "json_schema", schema } } });
		const title = events.filter((e) => e.event === "response.output_text.delta").map((e) => JSON.parse(e.data).delta);
		expect(JSON.parse(title.join("")).title.length).toBeGreaterThan(0);
		expect(planned).toBe(0);
		expect(mock?.requests[0].kind).toBe("side-stream");
	});

	it("Gemini: streamGenerateContent chunks end with finishReason STOP; the classifier gets JSON in its schema", async () => {
		mock = await startMock({ plan: () => ({ tokens: 50, rate: 0 }) });
		const { events } = await post("/v1beta/models/gemini-x:streamGenerateContent?alt=sse", { contents: [] });
		const chunks = events.map((e) => JSON.parse(e.data));
		expect(chunks.map((c) => c.candidates[0].content.parts[0].text).join("")).toBe(expected(50));
		expect(chunks.at(-1).candidates[0].finishReason).toBe("STOP");
		const schema = {
			type: "OBJECT",
			properties: { reasoning: { type: "STRING" }, model_choice: { type: "STRING", enum: ["flash", "pro"] } },
		};
		const res = await fetch(`${mock?.origin}/v1beta/models/gemini-lite:generateContent`, {
			method: "POST",
			body: JSON.stringify({ generationConfig: { responseJsonSchema: schema } }),
		});
		const answer = JSON.parse((await res.json()).candidates[0].content.parts[0].text);
		expect(answer.model_choice).toBe("flash");
		expect(typeof answer.reasoning).toBe("string");
	});

	it("a reply paced at a rate takes about tokens / rate, and reports progress every tenth", async () => {
		const seen: number[] = [];
		mock = await startMock({ plan: () => ({ tokens: 100, rate: 1000 }), onProgress: (_i: number, sent: number) => seen.push(sent) });
		const t0 = performance.now();
		await post("/v1/chat/completions", { stream: true });
		expect(performance.now() - t0).toBeGreaterThanOrEqual(90);
		expect(seen).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
	});

	it("fillSchema: the first enum value, typed defaults, nested objects", () => {
		expect(
			fillSchema({
				type: "object",
				properties: { a: { enum: ["x", "y"] }, b: { type: "boolean" }, n: { type: "integer" }, o: { properties: { s: {} } } },
			}),
		).toEqual({ a: "x", b: false, n: 0, o: { s: "Bench reply" } });
	});
});
