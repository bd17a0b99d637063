// A transcript's wire form is converted and serialised once, then sent again as the same bytes by every
// later request: for every protocol the kept segments give exactly what converting the whole transcript
// gives (also after edits, compactions and rewinds), the bytes a 127.0.0.1 server receives are those of
// a request built from scratch, a changed message is converted again, Anthropic's cache mark moves to
// each request's last user turn without ever landing in the kept bytes, and nothing is kept once the
// transcript lets go of its messages.
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { StreamFunction } from "../../../src/ai/api-registry.js";
import { anthropicProtocol, buildAnthropicRequest, streamAnthropic } from "../../../src/ai/providers/anthropic.js";
import { buildGoogleRequest, googleProtocol, streamGoogle } from "../../../src/ai/providers/google.js";
import { buildCompletionsBody, chatProtocol, streamOpenAICompletions } from "../../../src/ai/providers/openai-completions.js";
import { buildResponsesBody, responsesProtocol, streamOpenAIResponses } from "../../../src/ai/providers/openai-responses.js";
import { deepFreeze, type HistoryProtocol, wireHistory } from "../../../src/ai/providers/wire-history.js";
import type { Api, AssistantMessage, Context, Message, Model, SimpleStreamOptions } from "../../../src/ai/types.js";
import { emptyUsage } from "../../../src/ai/usage.js";
import { collectGarbage } from "../../../src/tui/warm-up/collect-garbage.js";
import { collectEvents } from "../../helpers/assistant-events.js";
import { providerModel, sseFixture } from "../../helpers/provider-test.js";
import { scriptedServerPerTest } from "../../helpers/scripted-server-per-test.js";

const server = scriptedServerPerTest();
afterEach(() => vi.restoreAllMocks());

// ---- Transcripts of every kind of message ----

const IMAGE = { type: "image" as const, data: "aGk=", mimeType: "image/png" };
let clock = 0;

const reply = (
	api: Api,
	content: AssistantMessage["content"],
	stopReason: AssistantMessage["stopReason"] = "toolUse",
): AssistantMessage => ({
	role: "assistant",
	content,
	api,
	provider: "p",
	model: "m",
	usage: emptyUsage(),
	stopReason,
	timestamp: ++clock,
});

/** Makers of fresh messages (a new object each call), the kinds providers convert differently. */
const kinds: Record<string, (api: Api) => Message> = {
	prompt: () => ({ role: "user", content: `prompt ${++clock} — é`, timestamp: clock }),
	emptyPrompt: () => ({ role: "user", content: "", timestamp: ++clock }),
	promptWithImage: () => ({ role: "user", content: [{ type: "text", text: "look" }, IMAGE], timestamp: ++clock }),
	text: (api) => reply(api, [{ type: "text", text: `answer ${clock}` }], "stop"),
	toolCalls: (api) =>
		reply(api, [
			{ type: "text", text: "" },
			{ type: "toolCall", id: `call_${++clock}|fc_${clock}`, name: "read", arguments: { path: `f${clock}` } },
			{ type: "toolCall", id: `call.${++clock}`, name: "grep", arguments: { pattern: "x" } },
		]),
	thinkingOnly: (api) => reply(api, [{ type: "thinking", thinking: "hmm", thinkingSignature: "sig" }]),
	thinkingAndCall: (api) =>
		reply(api, [
			{ type: "thinking", thinking: "let me look", thinkingSignature: "sig" },
			{ type: "toolCall", id: `call_${++clock}`, name: "read", arguments: { path: "a" } },
		]),
	otherApiThinking: () => reply("other-api", [{ type: "thinking", thinking: "elsewhere", thinkingSignature: "s" }]),
	emptyFailed: (api) => reply(api, [], "error"),
	result: () => ({
		role: "toolResult",
		toolCallId: `call_${clock}`,
		toolName: "read",
		content: [{ type: "text", text: `contents ${++clock}` }],
		isError: false,
		timestamp: clock,
	}),
	imageResult: () => ({
		role: "toolResult",
		toolCallId: `call_${clock}`,
		toolName: "read",
		content: [{ type: "text", text: "a picture" }, IMAGE],
		isError: false,
		timestamp: ++clock,
	}),
	errorResult: () => ({
		role: "toolResult",
		toolCallId: `call_${clock}`,
		toolName: "bash",
		content: [{ type: "text", text: "exit 1" }],
		isError: true,
		timestamp: ++clock,
	}),
};

const model = (api: Api, fields: Partial<Model> = {}) =>
	providerModel({ id: "m", api, provider: "p", baseUrl: `${server.url}/v1`, reasoning: true, ...fields });

/** Each protocol, made as its provider makes it for a transcript. */
const protocols: Record<string, { api: Api; protocol: (messages: readonly Message[]) => HistoryProtocol<unknown> }> = {
	chat: { api: "openai-completions", protocol: (m) => chatProtocol(model("openai-completions"), m) },
	"chat, thinking replayed": {
		api: "openai-completions",
		protocol: (m) => chatProtocol(model("openai-completions", { compat: { replayReasoning: true } }), m),
	},
	"chat, thinking replayed in the tool loop": {
		api: "openai-completions",
		protocol: (m) => chatProtocol(model("openai-completions", { compat: { replayReasoning: "tool-loop" } }), m),
	},
	responses: { api: "openai-responses", protocol: () => responsesProtocol(model("openai-responses")) },
	anthropic: { api: "anthropic-messages", protocol: () => anthropicProtocol(model("anthropic-messages")) },
	google: { api: "google-generative-ai", protocol: () => googleProtocol(model("google-generative-ai")) },
};

/** A step of a session: a new message, or an edit of what is there (a pruned result, a rewind, a compaction). */
const step = fc.oneof(
	{ weight: 8, arbitrary: fc.constantFrom(...Object.keys(kinds)).map((kind) => ({ kind })) },
	{ weight: 1, arbitrary: fc.record({ replaceAt: fc.nat(), kind: fc.constantFrom(...Object.keys(kinds)) }) },
	{ weight: 1, arbitrary: fc.record({ dropFrom: fc.nat() }) },
);

describe("wireHistory", () => {
	for (const [name, { api, protocol }] of Object.entries(protocols)) {
		it(`gives what converting the whole transcript gives, request after request (${name})`, () => {
			fc.assert(
				fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
					let messages: Message[] = [];
					for (const s of steps) {
						if ("dropFrom" in s) messages = messages.slice(0, s.dropFrom % (messages.length + 1));
						else if ("replaceAt" in s && messages.length > 0) {
							messages = [...messages];
							messages[s.replaceAt % messages.length] = (kinds[s.kind] as (api: Api) => Message)(api);
						} else messages = [...messages, (kinds[s.kind] as (api: Api) => Message)(api)];
						const p = protocol(messages);
						const history = wireHistory(messages, p);
						expect(history.elements).toEqual(p.convert(messages, 0, messages.length));
						const kept = history.elements.slice(0, history.kept);
						expect(Buffer.concat(history.bytes(history.kept)).toString()).toBe(kept.map((e) => JSON.stringify(e)).join(","));
						for (const element of kept) expect(Object.isFrozen(element)).toBe(true);
					}
				}),
				{ numRuns: 150 },
			);
		});
	}

	it("converts only the messages after the kept ones, and all of them again under another key", () => {
		const convert = vi.fn((messages: readonly Message[], from: number, to: number) =>
			messages.slice(from, to).map((m) => ({ role: m.role })),
		);
		const protocol = (key: string): HistoryProtocol<unknown> => ({ key, startsSegment: (m) => m.role === "user", convert });
		const messages: Message[] = [kinds.prompt?.("x") as Message, kinds.text?.("x") as Message, kinds.prompt?.("x") as Message];
		wireHistory(messages, protocol("a"));
		messages.push(kinds.text?.("x") as Message, kinds.prompt?.("x") as Message);
		convert.mockClear();
		const history = wireHistory(messages, protocol("a"));
		expect(history.kept).toBe(4);
		// The segment that began last time (kept now), then the new open one.
		expect(convert.mock.calls.map(([, from, to]) => [from, to])).toEqual([
			[2, 4],
			[4, 5],
		]);
		convert.mockClear();
		wireHistory(messages, protocol("b"));
		expect(convert.mock.calls.map(([, from, to]) => [from, to])).toEqual([
			[0, 2],
			[2, 4],
			[4, 5],
		]);
	});

	it("deepFreeze leaves primitives alone and freezes nested arrays", () => {
		expect(deepFreeze("text")).toBe("text");
		const value = deepFreeze({ a: [{ b: 1 }] });
		expect(() => {
			(value.a[0] as { b: number }).b = 2;
		}).toThrow(TypeError);
	});
});

// ---- Over the wire ----

interface Provider {
	api: Api;
	stream: StreamFunction;
	fixture: [string, string];
	baseUrl: () => string;
	/** The body a request built from scratch sends. */
	build: (model: Model, context: Context, options: SimpleStreamOptions) => unknown;
}

const providers: Record<string, Provider> = {
	"OpenAI chat": {
		api: "openai-completions",
		stream: streamOpenAICompletions,
		fixture: ["openai-completions", "text"],
		baseUrl: () => `${server.url}/v1`,
		build: buildCompletionsBody,
	},
	"OpenAI Responses": {
		api: "openai-responses",
		stream: streamOpenAIResponses,
		fixture: ["openai-responses", "incomplete"],
		baseUrl: () => `${server.url}/v1`,
		build: buildResponsesBody,
	},
	Anthropic: {
		api: "anthropic-messages",
		stream: streamAnthropic,
		fixture: ["anthropic", "text"],
		baseUrl: () => server.url,
		build: buildAnthropicRequest,
	},
	Google: {
		api: "google-generative-ai",
		stream: streamGoogle,
		fixture: ["google", "text"],
		baseUrl: () => `${server.url}/v1beta`,
		build: buildGoogleRequest,
	},
};

async function send(provider: Provider, context: Context, options: SimpleStreamOptions = {}): Promise<string> {
	server.enqueue({ kind: "sse", chunks: [sseFixture(...provider.fixture)] });
	const m = providerModel({ id: "m-1", api: provider.api, provider: "p", baseUrl: provider.baseUrl() });
	await collectEvents(provider.stream(m, context, { apiKey: "k", maxRetries: 0, ...options }));
	return server.requests.at(-1)?.rawBody as string;
}

/** What a request built from scratch sends: new message objects, so nothing kept is used. */
const fromScratch = (provider: Provider, context: Context, options: SimpleStreamOptions = {}) =>
	JSON.stringify(
		provider.build(
			providerModel({ id: "m-1", api: provider.api, provider: "p", baseUrl: provider.baseUrl() }),
			structuredClone(context),
			options,
		),
	);

/** A prompt, a reply with a tool call and its (large) result. */
function round(api: Api, i: number, size = 200): Message[] {
	return [
		{ role: "user", content: `prompt ${i}`, timestamp: i },
		reply(api, [{ type: "toolCall", id: `call_${i}`, name: "read", arguments: { path: `f${i}` } }]),
		{
			role: "toolResult",
			toolCallId: `call_${i}`,
			toolName: "read",
			content: [{ type: "text", text: `result ${i}: ${"é line\n".repeat(size)}` }],
			isError: false,
			timestamp: i,
		},
	];
}

describe("the wire form of a long history, across requests", () => {
	for (const [name, provider] of Object.entries(providers)) {
		it(`sends the bytes of a request built from scratch, without serialising the kept messages again (${name})`, async () => {
			const messages: Message[] = [];
			const context: Context = { systemPrompt: "Be brief.", messages };
			for (let i = 0; i < 4; i++) {
				messages.push(...round(provider.api, i));
				const stringify = vi.spyOn(JSON, "stringify");
				const body = await send(provider, context);
				const made = stringify.mock.results.map((r) => String(r.value));
				stringify.mockRestore();
				expect(body).toBe(fromScratch(provider, context));
				// The results before the last round were kept: none of them was serialised again.
				for (let j = 0; j < i - 1; j++) expect(made.some((text) => text.includes(`result ${j}:`))).toBe(false);
			}
		});

		it(`converts a message again when it is replaced, and a compacted transcript from its start (${name})`, async () => {
			const messages: Message[] = [...round(provider.api, 0), ...round(provider.api, 1), ...round(provider.api, 2)];
			const context: Context = { messages };
			await send(provider, context);
			// A pruned tool result: a new object in the place of the old one.
			messages[2] = { ...(messages[2] as Extract<Message, { role: "toolResult" }>), content: [{ type: "text", text: "[pruned]" }] };
			const pruned = await send(provider, context);
			expect(pruned).toBe(fromScratch(provider, context));
			expect(pruned).toContain("[pruned]");
			expect(pruned).not.toContain("result 0:");
			// A compaction: a summary first, then the recent messages, the same objects as before.
			const compacted: Context = { messages: [{ role: "user", content: "summary of rounds 0 and 1", timestamp: 9 }, ...messages.slice(6)] };
			const after = await send(provider, compacted);
			expect(after).toBe(fromScratch(provider, compacted));
			expect(after).not.toContain("result 1:");
		});
	}

	it("moves Anthropic's cache mark to each request's last user turn, never into the kept bytes", async () => {
		const anthropic = providers.Anthropic as Provider;
		const messages: Message[] = [];
		const context: Context = { systemPrompt: "Be brief.", messages };
		const marked = (body: string) =>
			(JSON.parse(body).messages as { role: string; content: { cache_control?: unknown }[] }[]).flatMap((message, i) =>
				message.content.flatMap((block, j) => (block.cache_control ? [[i, j]] : [])),
			);
		for (let i = 0; i < 3; i++) {
			messages.push(...round("anthropic-messages", i, 5));
			for (const options of [{}, { cacheRetention: "long" as const }]) {
				const body = await send(anthropic, context, options);
				expect(body).toBe(fromScratch(anthropic, context, options));
				// One mark, on the last block of the last user turn (this round's tool result).
				const last = JSON.parse(body).messages.length - 1;
				expect(marked(body)).toEqual([[last, 0]]);
			}
			const none = await send(anthropic, context, { cacheRetention: "none" });
			expect(marked(none)).toEqual([]);
			expect(none).toBe(fromScratch(anthropic, context, { cacheRetention: "none" }));
		}
		// A transcript that ends in a reply: the mark lands on a kept turn, which is sent as a marked copy.
		messages.push(
			reply("anthropic-messages", [{ type: "text", text: "done" }], "stop"),
			reply("anthropic-messages", [{ type: "text", text: "and more" }], "stop"),
		);
		await send(anthropic, context);
		const ended = await send(anthropic, context);
		expect(ended).toBe(fromScratch(anthropic, context));
		expect(marked(ended)).toEqual([[JSON.parse(ended).messages.length - 3, 0]]);
		const again = await send(anthropic, { ...context, messages: [...messages, { role: "user", content: "next", timestamp: 99 }] });
		expect(marked(again)).toEqual([[JSON.parse(again).messages.length - 1, 0]]);
	});

	it("keeps nothing once the transcript lets go of its messages", async () => {
		const refs: WeakRef<object>[] = [];
		await (async () => {
			const messages = [...round("openai-completions", 0, 1000), ...round("openai-completions", 1, 1000)];
			let wire: object | undefined;
			const onPayload = (body: unknown) => {
				wire = (body as { messages: object[] }).messages[0];
			};
			await send(providers["OpenAI chat"] as Provider, { messages }, { onPayload });
			refs.push(new WeakRef(messages[0] as object), new WeakRef(wire as object));
		})();
		// A WeakRef's target is kept until the end of the job that made it.
		await new Promise((r) => setTimeout(r, 0));
		await new Promise((r) => setTimeout(r, 0));
		expect(collectGarbage()).toBe(true);
		expect(refs.map((r) => r.deref())).toEqual([undefined, undefined]);
	});
});
