// One place that turns "a provider saw text / thinking / tool-call bytes" into the exact event
// protocol of docs/agent-contract.md §1, so every provider emits the same sequences and closes its blocks the same way.
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "../event-stream.js";
import { parseToolArguments, StreamingJson } from "../partial-json.js";
import type {
	AssistantMessage,
	AssistantMessageEvent,
	Model,
	SimpleStreamOptions,
	StopReason,
	TextContent,
	ThinkingContent,
	ToolCall,
	WebSearchContent,
} from "../types.js";
import { calculateCost, createOutputMessage } from "../usage.js";

type DeltaEvent = Extract<AssistantMessageEvent, { type: "text_delta" | "thinking_delta" | "toolcall_delta" }>;

type OpenBlock =
	| { kind: "text"; index: number; block: TextContent }
	| { kind: "thinking"; index: number; block: ThinkingContent }
	| { kind: "toolCall"; index: number; block: ToolCall; json: StreamingJson };

/**
 * Builds one assistant message while it streams and pushes the matching events. Providers call the
 * `text`/`thinking`/`toolCall*` methods as bytes arrive; a block of another kind (or another tool call
 * key) closes the open block first. `finish` or `fail` ends the stream exactly once.
 *
 * Between `hold()` and `release()` (a provider's one socket read, which may carry a hundred SSE events
 * at 2,000 tok/s) the deltas of one block are merged into one delta event: every listener down to the
 * screen then runs once per read instead of once per token (docs/streaming.md, "One delta per read").
 * Any other event first pushes the merged delta, so the order of events is that of the wire.
 */
export class AssistantBuilder {
	readonly stream: AssistantMessageEventStream = createAssistantMessageEventStream();
	readonly output: AssistantMessage;
	private open: OpenBlock | undefined;
	/** Open tool calls by the provider's own key (index or id) for interleaved parallel calls. */
	private readonly toolCalls = new Map<string, Extract<OpenBlock, { kind: "toolCall" }>>();
	private started = false;
	private ended = false;
	/** Between `hold` and `release`: deltas wait in `held`, merged while they extend the same block. */
	private holding = false;
	private held: DeltaEvent | undefined;
	/** Events pushed so far: a provider reading a batch yields to the listeners after a call that pushed. */
	pushed = 0;

	constructor(readonly model: Model) {
		this.output = createOutputMessage(model);
	}

	start(): void {
		if (this.started) return;
		this.started = true;
		this.emit({ type: "start", partial: this.output });
	}

	text(delta: string, signature?: string): void {
		if (this.open?.kind !== "text") this.openBlock({ kind: "text", index: -1, block: { type: "text", text: "" } });
		const open = this.open as Extract<OpenBlock, { kind: "text" }>;
		if (signature) open.block.textSignature = signature;
		if (!delta) return;
		open.block.text += delta;
		this.pushDelta("text_delta", open.index, delta);
	}

	thinking(delta: string, signature?: string): void {
		if (this.open?.kind !== "thinking") {
			this.openBlock({ kind: "thinking", index: -1, block: { type: "thinking", thinking: "" } });
		}
		const open = this.open as Extract<OpenBlock, { kind: "thinking" }>;
		if (signature) open.block.thinkingSignature = (open.block.thinkingSignature ?? "") + signature;
		if (!delta) return;
		open.block.thinking += delta;
		this.pushDelta("thinking_delta", open.index, delta);
	}

	/** Adds to the signature of the open thinking block (Anthropic sends it after the text). */
	thinkingSignature(signature: string): void {
		if (this.open?.kind === "thinking") {
			this.open.block.thinkingSignature = (this.open.block.thinkingSignature ?? "") + signature;
		}
	}

	/** A whole redacted thinking block (opaque payload). */
	redactedThinking(payload: string): void {
		this.openBlock({
			kind: "thinking",
			index: -1,
			block: { type: "thinking", thinking: "", thinkingSignature: payload, redacted: true },
		});
		this.closeOpen();
	}

	/** Starts a tool call identified by the provider's `key` (stream index or id). */
	toolCallStart(key: string, id: string, name: string, extra?: Partial<ToolCall>): void {
		const block: ToolCall = { type: "toolCall", id, name, arguments: {}, ...extra };
		const open: Extract<OpenBlock, { kind: "toolCall" }> = { kind: "toolCall", index: -1, block, json: new StreamingJson() };
		this.openBlock(open);
		this.toolCalls.set(key, open);
	}

	hasToolCall(key: string): boolean {
		return this.toolCalls.has(key);
	}

	toolCallDelta(key: string, delta: string): void {
		const open = this.toolCalls.get(key);
		if (!open || !delta) return;
		open.block.arguments = open.json.append(delta);
		this.pushDelta("toolcall_delta", open.index, delta);
	}

	/**
	 * Ends one tool call. `args` replaces the streamed JSON when the provider sends whole arguments:
	 * parsed already (an object) or as text. Text that is not one complete JSON object marks the call
	 * with `argumentsError`, so the agent loop answers it with that error instead of running it.
	 */
	toolCallEnd(key: string, args?: Record<string, any> | string): void {
		const open = this.toolCalls.get(key);
		if (!open) return;
		this.toolCalls.delete(key);
		if (typeof args === "object") open.block.arguments = args;
		else {
			const parsed = parseToolArguments(args ?? open.json.raw);
			open.block.arguments = parsed.arguments;
			if (parsed.error !== undefined) open.block.argumentsError = parsed.error;
		}
		if (this.open === open) this.open = undefined;
		this.emit({ type: "toolcall_end", contentIndex: open.index, toolCall: open.block, partial: this.output });
	}

	/** A whole web search the provider ran (results included): closes what is open, adds it, says so. */
	webSearch(search: WebSearchContent): void {
		this.start();
		this.closeAll();
		const contentIndex = this.output.content.length;
		this.output.content.push(search);
		this.emit({ type: "websearch", contentIndex, search, partial: this.output });
	}

	/** Closes every open block (text, thinking and tool calls) in content order. */
	closeAll(): void {
		this.closeOpen();
		for (const key of [...this.toolCalls.keys()]) this.toolCallEnd(key);
	}

	/** Sets token counts (input excludes cached reads) and prices them. */
	setUsage(usage: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number }): void {
		const u = this.output.usage;
		if (usage.input !== undefined) u.input = usage.input;
		if (usage.output !== undefined) u.output = usage.output;
		if (usage.cacheRead !== undefined) u.cacheRead = usage.cacheRead;
		if (usage.cacheWrite !== undefined) u.cacheWrite = usage.cacheWrite;
		u.totalTokens = u.input + u.output + u.cacheRead + u.cacheWrite;
		calculateCost(this.model, u);
	}

	/** Ends the stream with `done`. A tool call in the content makes the reason `toolUse` unless cut by length. */
	finish(reason: Extract<StopReason, "stop" | "length" | "toolUse">): void {
		if (this.ended) return;
		this.start();
		this.closeAll();
		const hasToolCalls = this.output.content.some((c) => c.type === "toolCall");
		const final = reason === "stop" && hasToolCalls ? "toolUse" : reason;
		this.output.stopReason = final;
		this.ended = true;
		this.emit({ type: "done", reason: final, message: this.output });
	}

	/** Ends the stream with `error`; aborted when the signal says so. Never throws. */
	fail(error: unknown, signal?: AbortSignal): void {
		if (this.ended) return;
		this.ended = true;
		const aborted = signal?.aborted === true;
		this.open = undefined;
		this.toolCalls.clear();
		this.output.stopReason = aborted ? "aborted" : "error";
		this.output.errorMessage = aborted ? "Request was aborted" : error instanceof Error ? error.message : String(error);
		this.emit({ type: "error", reason: this.output.stopReason as "aborted" | "error", error: this.output });
	}

	get isEnded(): boolean {
		return this.ended;
	}

	/** From now until `release`, deltas of the same block are merged into one event. */
	hold(): void {
		this.holding = true;
	}

	/** Pushes the merged delta, if any, and passes each delta on as it comes again. */
	release(): void {
		this.holding = false;
		this.pushHeld();
	}

	private pushDelta(type: DeltaEvent["type"], contentIndex: number, delta: string): void {
		const held = this.held;
		if (held !== undefined && held.contentIndex === contentIndex && held.type === type) {
			held.delta += delta;
			return;
		}
		this.pushHeld();
		// One shape for the three delta types: the listeners' property loads stay monomorphic.
		const event = { type, contentIndex, delta, partial: this.output } as DeltaEvent;
		if (this.holding) this.held = event;
		else this.push(event);
	}

	private pushHeld(): void {
		const held = this.held;
		if (held === undefined) return;
		this.held = undefined;
		this.push(held);
	}

	/** Every event but a delta: the held delta goes first, so events keep the wire's order. */
	private emit(event: AssistantMessageEvent): void {
		this.pushHeld();
		this.push(event);
	}

	private push(event: AssistantMessageEvent): void {
		this.pushed++;
		this.stream.push(event);
	}

	private openBlock(open: OpenBlock): void {
		this.start();
		this.closeOpen();
		if (open.kind !== "toolCall") for (const key of [...this.toolCalls.keys()]) this.toolCallEnd(key);
		open.index = this.output.content.length;
		this.output.content.push(open.block);
		this.open = open;
		const type = open.kind === "text" ? "text_start" : open.kind === "thinking" ? "thinking_start" : "toolcall_start";
		this.emit({ type, contentIndex: open.index, partial: this.output });
	}

	private closeOpen(): void {
		const open = this.open;
		if (!open) return;
		this.open = undefined;
		if (open.kind === "text") {
			this.emit({ type: "text_end", contentIndex: open.index, content: open.block.text, partial: this.output });
		} else if (open.kind === "thinking") {
			this.emit({ type: "thinking_end", contentIndex: open.index, content: open.block.thinking, partial: this.output });
		}
		// Open tool calls are closed by toolCallEnd / closeAll, since providers may interleave them.
	}
}

/**
 * Runs a provider body that fills `builder`; any throw becomes the stream's `error` event, so a stream
 * function never throws. Returns the stream at once.
 */
export function runProviderStream(
	model: Model,
	options: SimpleStreamOptions | undefined,
	body: (builder: AssistantBuilder) => Promise<void>,
): AssistantMessageEventStream {
	const builder = new AssistantBuilder(model);
	void (async () => {
		try {
			if (options?.signal?.aborted) throw new Error("Request was aborted");
			await body(builder);
			if (!builder.isEnded) {
				if (options?.signal?.aborted) builder.fail(new Error("Request was aborted"), options.signal);
				else builder.finish("stop");
			}
		} catch (error) {
			builder.fail(error, options?.signal);
		}
	})();
	return builder.stream;
}
