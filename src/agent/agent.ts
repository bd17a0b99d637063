// The Agent: the one state box over the pure loop (docs/agent-contract.md §6). It keeps the transcript, the tools, the
// steering and follow-up queues and the active run; input goes down as method calls, state comes up
// as events.
import { streamSimple } from "../ai/stream.js";
import type { ImageContent, Model, SimpleStreamOptions, ThinkingBudgets, ThinkingLevel } from "../ai/types.js";
import { createFailureMessage, defaultConvertToLlm, failureEvents, runAgentLoop, runAgentLoopContinue } from "./agent-loop.js";
import { PendingMessageQueue } from "./pending-message-queue.js";
import type {
	AgentContext,
	AgentEvent,
	AgentLoopConfig,
	AgentMessage,
	AgentState,
	AgentTool,
	QueueMode,
	StreamFn,
	ToolExecutionMode,
} from "./types.js";

export type AgentListener = (event: AgentEvent, signal: AbortSignal) => void | Promise<void>;

export interface AgentOptions {
	/** Starting state; `tools` and `messages` are copied. Defaults: empty prompt, placeholder model, "off". */
	initialState?: Partial<Pick<AgentState, "systemPrompt" | "model" | "thinkingLevel" | "tools" | "messages">>;
	/** Turns the transcript into model messages before every call.
	 * Default: keep only user, assistant and toolResult messages. */
	convertToLlm?: AgentLoopConfig["convertToLlm"];
	/** Rewrites the messages for one request (pruning, compaction); never written back. Default: none. */
	transformContext?: AgentLoopConfig["transformContext"];
	/** Streams one reply. Default: `streamSimple`, which picks the provider by `model.api`. */
	streamFn?: StreamFn;
	/** Resolves the API key per call by provider name. The Agent has no `apiKey` option. Default: none. */
	getApiKey?: AgentLoopConfig["getApiKey"];
	/** Sees (and may replace) each request body. Forwarded to the stream function. Default: none. */
	onPayload?: SimpleStreamOptions["onPayload"];
	/** Sees each response's status and headers. Forwarded to the stream function. Default: none. */
	onResponse?: SimpleStreamOptions["onResponse"];
	/** Runs before each validated tool call; may block it or mutate its args. Default: none. */
	beforeToolCall?: AgentLoopConfig["beforeToolCall"];
	/** Runs after each executed tool call; may amend its result. Default: none. */
	afterToolCall?: AgentLoopConfig["afterToolCall"];
	/** How many steering messages one poll takes. Default: "one-at-a-time". */
	steeringMode?: QueueMode;
	/** How many follow-up messages one poll takes. Default: "one-at-a-time". */
	followUpMode?: QueueMode;
	/** Forwarded to providers for caching and routing. Default: none. */
	sessionId?: string;
	/** Token budgets per thinking level for providers that take budgets. Default: none. */
	thinkingBudgets?: ThinkingBudgets;
	/** Cap on one retry wait in providers. Default: the provider's (60 s). */
	maxRetryDelayMs?: number;
	/** Transport preference forwarded to providers. Default: "auto". */
	transport?: SimpleStreamOptions["transport"];
	/** Whether a batch of tool calls runs at once or one by one. Default: "parallel". */
	toolExecution?: ToolExecutionMode;
	/** Ours: after an abort, how long a tool or stream that ignores the signal may keep the run alive.
	 * Default: 500 ms. */
	abortGraceMs?: number;
	/** Ours: told when a subscriber throws; the run and later subscribers carry on regardless.
	 * Default: one `console.error` line. */
	onListenerError?: (error: unknown, event: AgentEvent) => void;
}

interface MutableAgentState {
	systemPrompt: string;
	model: Model;
	thinkingLevel: ThinkingLevel;
	tools: AgentTool<any>[];
	messages: AgentMessage[];
	isStreaming: boolean;
	streamingMessage?: AgentMessage;
	pendingToolCalls: ReadonlySet<string>;
	errorMessage?: string;
}

interface ActiveRun {
	promise: Promise<void>;
	resolve: () => void;
	abortController: AbortController;
	/** A `turn_start` without its `turn_end` yet, so a failure knows whether to open a turn. */
	turnOpen: boolean;
}

/** The placeholder model: it cannot stream, and a prompt without a real model fails with a clear error. */
export const DEFAULT_MODEL: Model = {
	id: "unknown",
	name: "unknown",
	api: "unknown",
	provider: "unknown",
	baseUrl: "",
	reasoning: false,
	input: [],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 0,
	maxTokens: 0,
};

export const ERRORS = {
	promptWhileRunning: "Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.",
	continueWhileRunning: "Agent is already processing. Wait for completion before continuing.",
	alreadyRunning: "Agent is already processing.",
	noMessages: "No messages to continue from",
	continueFromAssistant: "Cannot continue from message role: assistant",
} as const;

function reportListenerErrorToConsole(error: unknown, event: AgentEvent): void {
	const text = error instanceof Error ? error.message : String(error);
	console.error(`Agent listener failed on ${event.type}: ${text.split("\n")[0]}`);
}

function createMutableAgentState(initial: AgentOptions["initialState"] = {}): MutableAgentState {
	let tools = initial.tools?.slice() ?? [];
	let messages = initial.messages?.slice() ?? [];
	return {
		systemPrompt: initial.systemPrompt ?? "",
		model: initial.model ?? DEFAULT_MODEL,
		thinkingLevel: initial.thinkingLevel ?? "off",
		get tools() {
			return tools;
		},
		set tools(value: AgentTool<any>[]) {
			tools = value.slice();
		},
		get messages() {
			return messages;
		},
		set messages(value: AgentMessage[]) {
			messages = value.slice();
		},
		isStreaming: false,
		streamingMessage: undefined,
		pendingToolCalls: new Set<string>(),
		errorMessage: undefined,
	};
}

export class Agent {
	private readonly _state: MutableAgentState;
	/** Copy-on-write, so a listener that (un)subscribes during an event does not disturb the dispatch. */
	private listeners: AgentListener[] = [];
	private readonly steeringQueue: PendingMessageQueue;
	private readonly followUpQueue: PendingMessageQueue;
	private activeRun: ActiveRun | undefined;

	// Read when each run starts (docs/agent-contract.md §6); changing them mid-run affects the next run.
	convertToLlm: AgentLoopConfig["convertToLlm"];
	transformContext?: AgentLoopConfig["transformContext"];
	streamFn: StreamFn;
	getApiKey?: AgentLoopConfig["getApiKey"];
	onPayload?: SimpleStreamOptions["onPayload"];
	onResponse?: SimpleStreamOptions["onResponse"];
	beforeToolCall?: AgentLoopConfig["beforeToolCall"];
	afterToolCall?: AgentLoopConfig["afterToolCall"];
	sessionId?: string;
	thinkingBudgets?: ThinkingBudgets;
	transport: NonNullable<SimpleStreamOptions["transport"]>;
	maxRetryDelayMs?: number;
	toolExecution: ToolExecutionMode;
	abortGraceMs?: number;
	onListenerError: (error: unknown, event: AgentEvent) => void;

	constructor(options: AgentOptions = {}) {
		this._state = createMutableAgentState(options.initialState);
		this.convertToLlm = options.convertToLlm ?? defaultConvertToLlm;
		this.transformContext = options.transformContext;
		this.streamFn = options.streamFn ?? streamSimple;
		this.getApiKey = options.getApiKey;
		this.onPayload = options.onPayload;
		this.onResponse = options.onResponse;
		this.beforeToolCall = options.beforeToolCall;
		this.afterToolCall = options.afterToolCall;
		this.steeringQueue = new PendingMessageQueue(options.steeringMode ?? "one-at-a-time");
		this.followUpQueue = new PendingMessageQueue(options.followUpMode ?? "one-at-a-time");
		this.sessionId = options.sessionId;
		this.thinkingBudgets = options.thinkingBudgets;
		this.transport = options.transport ?? "auto";
		this.maxRetryDelayMs = options.maxRetryDelayMs;
		this.toolExecution = options.toolExecution ?? "parallel";
		this.abortGraceMs = options.abortGraceMs;
		this.onListenerError = options.onListenerError ?? reportListenerErrorToConsole;
	}

	get state(): AgentState {
		return this._state;
	}

	/** Adds a listener (once, like a Set); the returned function removes it and says whether it was there. */
	subscribe(listener: AgentListener): () => boolean {
		if (!this.listeners.includes(listener)) this.listeners = [...this.listeners, listener];
		return () => {
			const present = this.listeners.includes(listener);
			if (present) this.listeners = this.listeners.filter((l) => l !== listener);
			return present;
		};
	}

	/** The active run's abort signal, or undefined when idle. */
	get signal(): AbortSignal | undefined {
		return this.activeRun?.abortController.signal;
	}

	get steeringMode(): QueueMode {
		return this.steeringQueue.mode;
	}

	set steeringMode(mode: QueueMode) {
		this.steeringQueue.mode = mode;
	}

	get followUpMode(): QueueMode {
		return this.followUpQueue.mode;
	}

	set followUpMode(mode: QueueMode) {
		this.followUpQueue.mode = mode;
	}

	/** Queues a message for before the next model call of the current (or next) run. */
	steer(message: AgentMessage): void {
		this.steeringQueue.enqueue(message);
	}

	/** Queues a message to start another turn once the agent would otherwise stop. */
	followUp(message: AgentMessage): void {
		this.followUpQueue.enqueue(message);
	}

	clearSteeringQueue(): void {
		this.steeringQueue.clear();
	}

	clearFollowUpQueue(): void {
		this.followUpQueue.clear();
	}

	clearAllQueues(): void {
		this.steeringQueue.clear();
		this.followUpQueue.clear();
	}

	hasQueuedMessages(): boolean {
		return this.steeringQueue.hasItems() || this.followUpQueue.hasItems();
	}

	/**
	 * Replaces the transcript with a copy of `messages` (pi-agent-core's `replaceMessages`; 0.73.1
	 * spells it `state.messages = …`, which still works). For between runs: a run works on its own copy.
	 */
	replaceMessages(messages: readonly AgentMessage[]): void {
		this._state.messages = messages.slice();
	}

	/** Adds one message at the end of the transcript (pi-agent-core's `appendMessage`). No events. */
	appendMessage(message: AgentMessage): void {
		this._state.messages.push(message);
	}

	/** Ours: the queued messages, oldest first, so a UI can show them or put them back into the input. */
	getQueuedMessages(): { steering: readonly AgentMessage[]; followUp: readonly AgentMessage[] } {
		return { steering: this.steeringQueue.peek(), followUp: this.followUpQueue.peek() };
	}

	/**
	 * Aborts the active run; a no-op when idle. Queues are left intact: the run polls no queue after
	 * an abort, so queued messages stay queued for the UI to restore or send later.
	 */
	abort(): void {
		this.activeRun?.abortController.abort();
	}

	/** Resolves when the active run (including awaited `agent_end` listeners) has settled. Never rejects. */
	waitForIdle(): Promise<void> {
		return this.activeRun?.promise ?? Promise.resolve();
	}

	/**
	 * Empties the transcript, the run state and both queues. A run in progress is aborted and
	 * detached first, so none of its late events touch the fresh state.
	 */
	reset(): void {
		const run = this.activeRun;
		if (run) {
			this.activeRun = undefined;
			run.abortController.abort();
		}
		const s = this._state;
		s.messages = [];
		s.isStreaming = false;
		s.streamingMessage = undefined;
		s.pendingToolCalls = new Set();
		s.errorMessage = undefined;
		this.clearAllQueues();
	}

	prompt(message: AgentMessage | AgentMessage[]): Promise<void>;
	prompt(text: string, images?: ImageContent[]): Promise<void>;
	async prompt(input: string | AgentMessage | AgentMessage[], images?: ImageContent[]): Promise<void> {
		if (this.activeRun) throw new Error(ERRORS.promptWhileRunning);
		return this.runPromptMessages(normalizePromptInput(input, images));
	}

	/**
	 * Continues from the transcript: from a user/toolResult/custom last message it calls the model;
	 * from an assistant last message it sends queued steering, else queued follow-ups.
	 */
	async continue(): Promise<void> {
		if (this.activeRun) throw new Error(ERRORS.continueWhileRunning);
		const messages = this._state.messages;
		const last = messages[messages.length - 1];
		if (!last) throw new Error(ERRORS.noMessages);
		if (last.role === "assistant") {
			const steering = this.steeringQueue.drain();
			// Skipping the initial poll keeps one-at-a-time: the next steering message gets its own turn.
			if (steering.length > 0) return this.runPromptMessages(steering, true);
			const followUps = this.followUpQueue.drain();
			if (followUps.length > 0) return this.runPromptMessages(followUps, false);
			throw new Error(ERRORS.continueFromAssistant);
		}
		return this.runWithLifecycle((run) =>
			runAgentLoopContinue(
				this.contextSnapshot(),
				this.createLoopConfig(run, false),
				this.sinkFor(run),
				run.abortController.signal,
				this.streamFn,
			),
		);
	}

	private runPromptMessages(messages: AgentMessage[], skipInitialSteeringPoll = false): Promise<void> {
		return this.runWithLifecycle((run) =>
			runAgentLoop(
				messages,
				this.contextSnapshot(),
				this.createLoopConfig(run, skipInitialSteeringPoll),
				this.sinkFor(run),
				run.abortController.signal,
				this.streamFn,
			),
		);
	}

	private contextSnapshot(): AgentContext {
		const s = this._state;
		return { systemPrompt: s.systemPrompt, messages: s.messages.slice(), tools: s.tools.slice() };
	}

	private createLoopConfig(run: ActiveRun, skipInitialSteeringPoll: boolean): AgentLoopConfig {
		const s = this._state;
		let skipSteeringPoll = skipInitialSteeringPoll;
		return {
			model: s.model,
			reasoning: s.thinkingLevel === "off" ? undefined : s.thinkingLevel,
			sessionId: this.sessionId,
			onPayload: this.onPayload,
			onResponse: this.onResponse,
			transport: this.transport,
			thinkingBudgets: this.thinkingBudgets,
			maxRetryDelayMs: this.maxRetryDelayMs,
			toolExecution: this.toolExecution,
			abortGraceMs: this.abortGraceMs,
			beforeToolCall: this.beforeToolCall,
			afterToolCall: this.afterToolCall,
			convertToLlm: this.convertToLlm,
			transformContext: this.transformContext,
			getApiKey: this.getApiKey,
			// A detached run (after reset) must not drain the queues of the fresh state.
			getSteeringMessages: async () => {
				if (skipSteeringPoll) {
					skipSteeringPoll = false;
					return [];
				}
				return this.activeRun === run ? this.steeringQueue.drain() : [];
			},
			getFollowUpMessages: async () => (this.activeRun === run ? this.followUpQueue.drain() : []),
		};
	}

	private sinkFor(run: ActiveRun): (event: AgentEvent) => Promise<void> | undefined {
		return (event) => this.processEvent(run, event);
	}

	private async runWithLifecycle(executor: (run: ActiveRun) => Promise<unknown>): Promise<void> {
		if (this.activeRun) throw new Error(ERRORS.alreadyRunning);
		let resolve!: () => void;
		const promise = new Promise<void>((r) => {
			resolve = r;
		});
		const run: ActiveRun = { promise, resolve, abortController: new AbortController(), turnOpen: false };
		this.activeRun = run;
		const s = this._state;
		s.isStreaming = true;
		s.streamingMessage = undefined;
		// A successful run clears the previous run's error.
		s.errorMessage = undefined;
		try {
			await executor(run);
		} catch (error) {
			await this.handleRunFailure(run, error, run.abortController.signal.aborted);
		} finally {
			this.finishRun(run);
		}
	}

	/**
	 * Records a failure outside the model (stream function throws, convertToLlm throws, no provider)
	 * as an error assistant message with the full event sequence, so a UI has one path for it.
	 */
	private async handleRunFailure(run: ActiveRun, error: unknown, aborted: boolean): Promise<void> {
		if (this.activeRun !== run) return;
		const failure = createFailureMessage(this._state.model, error, aborted);
		for (const event of failureEvents(failure, run.turnOpen)) await this.processEvent(run, event);
	}

	private finishRun(run: ActiveRun): void {
		if (this.activeRun === run) {
			const s = this._state;
			s.isStreaming = false;
			s.streamingMessage = undefined;
			s.pendingToolCalls = new Set();
			this.activeRun = undefined;
		}
		run.resolve();
	}

	/**
	 * Reduces state, then calls listeners in order. Returns a promise only when a listener is async, so
	 * the per-token path costs no extra microtasks. Events of a run that is no longer active (reset,
	 * late tool updates) are dropped.
	 */
	private processEvent(run: ActiveRun, event: AgentEvent): Promise<void> | undefined {
		if (this.activeRun !== run) return undefined;
		this.reduce(run, event);
		const listeners = this.listeners;
		const signal = run.abortController.signal;
		for (let i = 0; i < listeners.length; i++) {
			let result: void | Promise<void>;
			try {
				result = listeners[i](event, signal);
			} catch (error) {
				this.reportListenerError(error, event);
				continue;
			}
			if (result && typeof (result as Promise<void>).then === "function") {
				return this.finishListeners(result, listeners, i + 1, event, signal);
			}
		}
		return undefined;
	}

	private async finishListeners(
		pending: Promise<void>,
		listeners: AgentListener[],
		from: number,
		event: AgentEvent,
		signal: AbortSignal,
	): Promise<void> {
		try {
			await pending;
		} catch (error) {
			this.reportListenerError(error, event);
		}
		for (let i = from; i < listeners.length; i++) {
			try {
				await listeners[i](event, signal);
			} catch (error) {
				this.reportListenerError(error, event);
			}
		}
	}

	private reportListenerError(error: unknown, event: AgentEvent): void {
		try {
			this.onListenerError(error, event);
		} catch {
			// A broken reporter must not break the run either.
		}
	}

	private reduce(run: ActiveRun, event: AgentEvent): void {
		const s = this._state;
		switch (event.type) {
			case "message_start":
			case "message_update":
				s.streamingMessage = event.message;
				break;
			case "message_end":
				s.streamingMessage = undefined;
				s.messages.push(event.message);
				break;
			case "tool_execution_start":
				s.pendingToolCalls = new Set(s.pendingToolCalls).add(event.toolCallId);
				break;
			case "tool_execution_end": {
				const next = new Set(s.pendingToolCalls);
				next.delete(event.toolCallId);
				s.pendingToolCalls = next;
				break;
			}
			case "turn_start":
				run.turnOpen = true;
				break;
			case "turn_end":
				run.turnOpen = false;
				if (event.message.role === "assistant" && event.message.errorMessage) s.errorMessage = event.message.errorMessage;
				break;
			case "agent_end":
				s.streamingMessage = undefined;
				break;
		}
	}
}

function normalizePromptInput(input: string | AgentMessage | AgentMessage[], images?: ImageContent[]): AgentMessage[] {
	if (Array.isArray(input)) return input;
	if (typeof input !== "string") return [input];
	return [{ role: "user", content: [{ type: "text", text: input }, ...(images ?? [])], timestamp: Date.now() }];
}
