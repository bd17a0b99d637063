// A scripted provider: replies are registered ahead and streamed in chunks at a chosen rate. Used by
// tests, benchmarks and the offline demo; it honours abort at start and between chunks.
import { registerApiProvider, unregisterApiProvider } from "../api-registry.js";
import type { AssistantMessageEventStream } from "../event-stream.js";
import type {
	AssistantMessage,
	Context,
	Model,
	SimpleStreamOptions,
	StopReason,
	TextContent,
	ThinkingContent,
	ToolCall,
} from "../types.js";
import { runProviderStream } from "./assistant-builder.js";

export type FauxContentBlock = TextContent | ThinkingContent | ToolCall;

/** One scripted reply: fixed content, or a function of the request (to echo, or to assert on it). */
export type FauxResponse =
	| FauxReply
	| ((context: Context, options: SimpleStreamOptions | undefined, callIndex: number) => FauxReply | Promise<FauxReply>);

export interface FauxReply {
	content: FauxContentBlock[];
	/** Defaults to "toolUse" when the content has a tool call, else "stop". */
	stopReason?: StopReason;
	errorMessage?: string;
	usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
}

export interface FauxProviderOptions {
	/** Api name to register under; default "faux". */
	api?: string;
	provider?: string;
	modelId?: string;
	/** Stream speed; undefined streams as fast as the event loop allows. */
	tokensPerSecond?: number;
	/** Characters per streamed chunk (≈ one token). Default 4. */
	chunkSize?: number;
	/** What to do when no scripted reply is left: an error (default) or echo the last user text. */
	whenEmpty?: "error" | "echo";
}

export interface FauxProvider {
	model: Model;
	setResponses(responses: FauxResponse[]): void;
	appendResponses(responses: FauxResponse[]): void;
	getPendingResponseCount(): number;
	/** Every context the provider was called with, in order. */
	readonly calls: { context: Context; options?: SimpleStreamOptions }[];
	setTokensPerSecond(rate: number | undefined): void;
	unregister(): void;
}

export const fauxText = (text: string): TextContent => ({ type: "text", text });
export const fauxThinking = (thinking: string): ThinkingContent => ({ type: "thinking", thinking });
let fauxCallCounter = 0;
export const fauxToolCall = (name: string, args: Record<string, any>, id?: string): ToolCall => ({
	type: "toolCall",
	id: id ?? `call_${++fauxCallCounter}`,
	name,
	arguments: args,
});
export const fauxReply = (...content: FauxContentBlock[]): FauxReply => ({ content });

export function createFauxModel(overrides: Partial<Model> = {}): Model {
	return {
		id: "faux-1",
		name: "Faux (scripted)",
		api: "faux",
		provider: "faux",
		baseUrl: "",
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 },
		contextWindow: 128_000,
		maxTokens: 16_384,
		...overrides,
	};
}

export function registerFauxProvider(options: FauxProviderOptions = {}): FauxProvider {
	const api = options.api ?? "faux";
	const model = createFauxModel({ api, provider: options.provider ?? "faux", id: options.modelId ?? "faux-1" });
	let queue: FauxResponse[] = [];
	let rate = options.tokensPerSecond;
	const chunkSize = options.chunkSize ?? 4;
	const calls: FauxProvider["calls"] = [];

	const streamFaux = (m: Model, context: Context, opts?: SimpleStreamOptions): AssistantMessageEventStream => {
		const callIndex = calls.length;
		// Tools are kept by reference: an agent's tools carry `execute` functions, which cannot be cloned.
		calls.push({ context: { ...context, messages: structuredClone(context.messages) }, options: opts });
		const next = queue.shift();
		return runProviderStream(m, opts, async (b) => {
			const signal = opts?.signal;
			b.start();
			let reply: FauxReply;
			if (next === undefined) {
				if (options.whenEmpty !== "echo") throw new Error("No more faux responses queued");
				reply = { content: [fauxText(echoOf(context))] };
			} else reply = typeof next === "function" ? await next(context, opts, callIndex) : next;
			const pace = makePacer(rate, signal);
			for (const block of reply.content) {
				if (block.type === "text") {
					for (const piece of chunks(block.text, chunkSize)) {
						await pace();
						b.text(piece);
					}
					b.closeAll();
				} else if (block.type === "thinking") {
					for (const piece of chunks(block.thinking, chunkSize)) {
						await pace();
						b.thinking(piece, block.thinkingSignature);
					}
					b.closeAll();
				} else {
					await pace();
					const key = block.id;
					b.toolCallStart(key, block.id, block.name);
					for (const piece of chunks(JSON.stringify(block.arguments), chunkSize * 4)) {
						await pace();
						b.toolCallDelta(key, piece);
					}
					b.toolCallEnd(key);
				}
			}
			await pace();
			const input = Math.ceil(JSON.stringify(context.messages).length / 4);
			const output = Math.ceil(JSON.stringify(reply.content).length / 4);
			b.setUsage({ input, output, ...reply.usage });
			const stop = reply.stopReason;
			if (stop === "error" || stop === "aborted") throw new Error(reply.errorMessage ?? "faux error");
			b.finish(stop ?? "stop");
		});
	};

	registerApiProvider({ api, streamSimple: streamFaux });
	return {
		model,
		calls,
		setResponses: (r) => {
			queue = [...r];
		},
		appendResponses: (r) => {
			queue.push(...r);
		},
		getPendingResponseCount: () => queue.length,
		setTokensPerSecond: (r) => {
			rate = r;
		},
		unregister: () => unregisterApiProvider(api),
	};
}

function* chunks(text: string, size: number): Generator<string> {
	for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

function echoOf(context: Context): string {
	for (let i = context.messages.length - 1; i >= 0; i--) {
		const m = context.messages[i];
		if (m.role !== "user") continue;
		const text = typeof m.content === "string" ? m.content : m.content.map((c) => (c.type === "text" ? c.text : "")).join("");
		return `You said: ${text}`;
	}
	return "Hello from the faux model.";
}

/**
 * Waits until the next chunk is due. Without a rate it yields one macrotask, so an abort between
 * chunks is seen; it throws once the signal is aborted.
 */
function makePacer(rate: number | undefined, signal: AbortSignal | undefined): () => Promise<void> {
	const start = performance.now();
	let sent = 0;
	return () =>
		new Promise<void>((resolve, reject) => {
			if (signal?.aborted) return reject(new Error("Request was aborted"));
			const due = rate ? start + (sent++ * 1000) / rate : 0;
			const wait = Math.max(0, due - performance.now());
			const finish = () => {
				signal?.removeEventListener("abort", onAbort);
				if (signal?.aborted) reject(new Error("Request was aborted"));
				else resolve();
			};
			const timer = wait > 0 ? setTimeout(finish, wait) : setImmediate(finish);
			const onAbort = () => {
				if (wait > 0) clearTimeout(timer as NodeJS.Timeout);
				else clearImmediate(timer as NodeJS.Immediate);
				reject(new Error("Request was aborted"));
			};
			signal?.addEventListener("abort", onAbort, { once: true });
		});
}

export type { AssistantMessage };
