// A scripted provider with pi-ai 0.73.1's public shape: replies are `AssistantMessage`s (or functions
// that return one) queued ahead and streamed in token-sized chunks at a chosen rate. Used by tests,
// benchmarks and the offline demo; it honours abort at start and between chunks.
import { getApiProvider, registerApiProvider, type StreamFunction, unregisterApiProvider } from "../api-registry.js";
import type { AssistantMessageEventStream } from "../event-stream.js";
import type {
	AssistantMessage,
	Context,
	Message,
	Model,
	SimpleStreamOptions,
	StopReason,
	TextContent,
	ThinkingContent,
	ToolCall,
	Usage,
} from "../types.js";
import { emptyUsage } from "../usage.js";
import { type AssistantBuilder, runProviderStream } from "./assistant-builder.js";

export type FauxContentBlock = TextContent | ThinkingContent | ToolCall;

/** One model the registration serves; everything but the id has a default. */
export interface FauxModelDefinition {
	id: string;
	name?: string;
	reasoning?: boolean;
	input?: ("text" | "image")[];
	cost?: { input: number; output: number; cacheRead: number; cacheWrite: number };
	contextWindow?: number;
	maxTokens?: number;
}

/** Builds the reply for one call: to echo the request, or to assert on it. */
export type FauxResponseFactory = (
	context: Context,
	options: SimpleStreamOptions | undefined,
	state: { callCount: number },
	model: Model,
) => AssistantMessage | Promise<AssistantMessage>;

export type FauxResponseStep = AssistantMessage | FauxResponseFactory;

export interface RegisterFauxProviderOptions {
	/** Api name to register under; default a fresh unique one, so registrations never collide. */
	api?: string;
	/** Default "faux". */
	provider?: string;
	/** Default one model, "faux-1". */
	models?: FauxModelDefinition[];
	/** Stream speed in tokens (≈ 4 characters) a second; undefined streams as fast as the event loop allows. */
	tokensPerSecond?: number;
	/** Tokens per streamed chunk, picked at random in [min, max] for each chunk. Default 3–5. */
	tokenSize?: { min?: number; max?: number };
}

export interface FauxProviderRegistration {
	api: string;
	models: [Model, ...Model[]];
	/** The first model, or the one with `modelId` (undefined when there is none). */
	getModel(): Model;
	getModel(modelId: string): Model | undefined;
	state: { callCount: number };
	/** Replaces the queue of replies not yet used. */
	setResponses(responses: FauxResponseStep[]): void;
	appendResponses(responses: FauxResponseStep[]): void;
	getPendingResponseCount(): number;
	unregister(): void;
	// Rudder additions (not in pi-ai):
	/** Every context the provider was called with, in order. */
	readonly calls: { context: Context; options?: SimpleStreamOptions }[];
	setTokensPerSecond(rate: number | undefined): void;
}

const DEFAULT_PROVIDER = "faux";
const DEFAULT_MODEL: FauxModelDefinition = { id: "faux-1", name: "Faux Model" };
const ZERO_COST = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
let registrationCounter = 0;
let toolCallCounter = 0;
/** Messages whose usage was given (also all zeros): reported as given instead of estimated. */
const scriptedUsage = new WeakSet<AssistantMessage>();

export const fauxText = (text: string): TextContent => ({ type: "text", text });
export const fauxThinking = (thinking: string): ThinkingContent => ({ type: "thinking", thinking });

export function fauxToolCall(name: string, args: ToolCall["arguments"], options: { id?: string } = {}): ToolCall {
	return { type: "toolCall", id: options.id ?? `faux_call_${++toolCallCounter}`, name, arguments: args };
}

export interface FauxAssistantMessageOptions {
	stopReason?: StopReason;
	errorMessage?: string;
	responseId?: string;
	timestamp?: number;
	/** Rudder addition: counts to report instead of the estimate (cost is computed from the model). A
	 * message built by hand keeps its usage when any count in it is non-zero. */
	usage?: Partial<Pick<Usage, "input" | "output" | "cacheRead" | "cacheWrite">>;
}

/**
 * A scripted reply: a string becomes one text block. `stopReason` defaults to "stop" (as in pi-ai; a
 * reply with tool calls still runs them). The provider fills in api, provider and model when it streams.
 */
export function fauxAssistantMessage(
	content: string | FauxContentBlock | FauxContentBlock[],
	options: FauxAssistantMessageOptions = {},
): AssistantMessage {
	const usage = emptyUsage();
	Object.assign(usage, options.usage);
	const message: AssistantMessage = {
		role: "assistant",
		content: typeof content === "string" ? [fauxText(content)] : Array.isArray(content) ? content : [content],
		api: "faux",
		provider: DEFAULT_PROVIDER,
		model: DEFAULT_MODEL.id,
		usage,
		stopReason: options.stopReason ?? "stop",
		...(options.errorMessage !== undefined ? { errorMessage: options.errorMessage } : {}),
		...(options.responseId !== undefined ? { responseId: options.responseId } : {}),
		timestamp: options.timestamp ?? Date.now(),
	};
	if (options.usage) scriptedUsage.add(message);
	return message;
}

function toModel(def: FauxModelDefinition, api: string, provider: string): Model {
	return {
		id: def.id,
		name: def.name ?? def.id,
		api,
		provider,
		baseUrl: "http://localhost:0",
		reasoning: def.reasoning ?? false,
		input: def.input ?? ["text", "image"],
		cost: def.cost ?? { ...ZERO_COST },
		contextWindow: def.contextWindow ?? 128_000,
		maxTokens: def.maxTokens ?? 16_384,
	};
}

export function registerFauxProvider(options: RegisterFauxProviderOptions = {}): FauxProviderRegistration {
	const api = options.api ?? `faux-${process.pid}-${++registrationCounter}`;
	const provider = options.provider ?? DEFAULT_PROVIDER;
	const defs = options.models?.length ? options.models : [DEFAULT_MODEL];
	const models = defs.map((d) => toModel(d, api, provider)) as [Model, ...Model[]];
	const minTokens = Math.max(1, Math.min(options.tokenSize?.min ?? 3, options.tokenSize?.max ?? 5));
	const maxTokens = Math.max(minTokens, options.tokenSize?.max ?? 5);
	const chunkChars = () => 4 * (minTokens + Math.floor(Math.random() * (maxTokens - minTokens + 1)));
	let queue: FauxResponseStep[] = [];
	let rate = options.tokensPerSecond;
	const state = { callCount: 0 };
	const calls: FauxProviderRegistration["calls"] = [];
	const promptCache = new Map<string, string>();

	const streamFaux: StreamFunction = (m, context, opts): AssistantMessageEventStream => {
		state.callCount++;
		// Tools are kept by reference: an agent's tools carry `execute` functions, which cannot be cloned.
		calls.push({ context: { ...context, messages: structuredClone(context.messages) }, options: opts });
		const step = queue.shift();
		const callState = { callCount: state.callCount };
		return runProviderStream(m, opts, async (b) => {
			const prompt = promptText(context);
			if (step === undefined) {
				b.setUsage(estimateUsage(prompt, "", opts, promptCache));
				throw new Error("No more faux responses queued");
			}
			const reply = typeof step === "function" ? await step(context, opts, callState, m) : step;
			b.start();
			const pace = makePacer(() => rate, opts?.signal);
			await streamBlocks(b, reply, pace, chunkChars);
			const estimate = estimateUsage(prompt, replyText(reply), opts, promptCache);
			b.setUsage(scriptedUsage.has(reply) || hasCounts(reply.usage) ? pickCounts(reply.usage) : estimate);
			if (reply.responseId) b.output.responseId = reply.responseId;
			if (reply.stopReason === "error" || reply.stopReason === "aborted") {
				throw new Error(reply.errorMessage ?? "faux error");
			}
			b.finish(reply.stopReason);
		});
	};

	const entry = { api, streamSimple: streamFaux };
	registerApiProvider(entry);
	function getModel(): Model;
	function getModel(modelId: string): Model | undefined;
	function getModel(modelId?: string): Model | undefined {
		return modelId === undefined ? models[0] : models.find((m) => m.id === modelId);
	}
	return {
		api,
		models,
		getModel,
		state,
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
		// Only our own entry: a later registration under the same api stays.
		unregister: () => {
			if (getApiProvider(api) === entry) unregisterApiProvider(api);
		},
	};
}

/** Streams a scripted reply's blocks in chunks of a few tokens, at the pace set. */
async function streamBlocks(
	b: AssistantBuilder,
	reply: AssistantMessage,
	pace: (tokens: number) => Promise<void>,
	chunkChars: () => number,
) {
	for (const block of reply.content) {
		if (block.type === "webSearch") {
			await pace(1);
			b.webSearch(block);
			continue;
		}
		if (block.type === "toolCall") {
			await pace(1);
			b.toolCallStart(block.id, block.id, block.name);
			for (const piece of chunks(JSON.stringify(block.arguments), chunkChars)) {
				await pace(piece.length / 4);
				b.toolCallDelta(block.id, piece);
			}
			b.toolCallEnd(block.id);
			continue;
		}
		const text = block.type === "text" ? block.text : block.thinking;
		for (const piece of chunks(text, chunkChars)) {
			await pace(piece.length / 4);
			if (block.type === "text") b.text(piece, block.textSignature);
			else b.thinking(piece, block.thinkingSignature);
		}
		b.closeAll();
	}
}

function hasCounts(usage: Usage | undefined): usage is Usage {
	return !!usage && usage.input + usage.output + usage.cacheRead + usage.cacheWrite > 0;
}

function pickCounts(u: Usage) {
	return { input: u.input, output: u.output, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite };
}

function* chunks(text: string, size: () => number): Generator<string> {
	for (let i = 0; i < text.length; ) {
		const n = size();
		yield text.slice(i, i + n);
		i += n;
	}
}

const estimateTokens = (text: string) => Math.ceil(text.length / 4);

function messageText(m: Message): string {
	if (m.role === "assistant") return replyText(m);
	const content = typeof m.content === "string" ? [{ type: "text" as const, text: m.content }] : m.content;
	const body = content.map((c) => (c.type === "text" ? c.text : `[image:${c.mimeType}]`)).join("\n");
	return m.role === "toolResult" ? `${m.toolName}\n${body}` : body;
}

function replyText(m: AssistantMessage): string {
	return m.content
		.map((c) =>
			c.type === "text"
				? c.text
				: c.type === "thinking"
					? c.thinking
					: c.type === "webSearch"
						? `search:${c.query}`
						: `${c.name}:${JSON.stringify(c.arguments)}`,
		)
		.join("\n");
}

/** The request as text, in a stable order, so a longer conversation shares a prefix with the shorter one. */
function promptText(context: Context): string {
	const parts = context.systemPrompt ? [`system:${context.systemPrompt}`] : [];
	for (const m of context.messages) parts.push(`${m.role}:${messageText(m)}`);
	if (context.tools?.length) parts.push(`tools:${context.tools.map((t) => t.name).join(",")}`);
	return parts.join("\n\n");
}

/**
 * About one token per 4 characters. With a session id (and caching not off) the part of the prompt
 * shared with that session's previous prompt counts as a cache read and the rest as a cache write.
 */
function estimateUsage(prompt: string, reply: string, opts: SimpleStreamOptions | undefined, cache: Map<string, string>) {
	const output = estimateTokens(reply);
	const sessionId = opts?.sessionId;
	if (!sessionId || opts?.cacheRetention === "none") return { input: estimateTokens(prompt), output, cacheRead: 0, cacheWrite: 0 };
	const previous = cache.get(sessionId);
	cache.set(sessionId, prompt);
	if (previous === undefined) return { input: 0, output, cacheRead: 0, cacheWrite: estimateTokens(prompt) };
	let shared = 0;
	while (shared < previous.length && shared < prompt.length && previous[shared] === prompt[shared]) shared++;
	return { input: 0, output, cacheRead: estimateTokens(prompt.slice(0, shared)), cacheWrite: estimateTokens(prompt.slice(shared)) };
}

/**
 * Waits until a chunk of `tokens` is due at the current rate. Without a rate it yields one macrotask,
 * so an abort between chunks is seen; it throws once the signal is aborted.
 */
function makePacer(rate: () => number | undefined, signal: AbortSignal | undefined): (tokens: number) => Promise<void> {
	const start = performance.now();
	let sentTokens = 0;
	return (tokens) =>
		new Promise<void>((resolve, reject) => {
			if (signal?.aborted) return reject(new Error("Request was aborted"));
			const r = rate();
			const due = r ? start + (sentTokens * 1000) / r : 0;
			sentTokens += tokens;
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
