// The pure agent loop (docs/agent-contract.md §8): streams a reply, runs its tool calls, injects steering and
// follow-up messages, and repeats. It keeps no state between runs; the Agent wraps it.
//
// Where it differs from pi-agent-core 0.73.1 (docs/agent-contract.md §9), on purpose:
// - every tool call in the transcript gets exactly one result, also after an error/aborted reply;
// - an abort ends the run: no model call and no queue poll after it, and a tool that ignores the
//   signal is detached after `abortGraceMs`;
// - tool calls of a reply cut off by the length limit, or whose arguments are not complete JSON, are
//   not executed;
// - a stream that ends without a final message becomes an error message instead of hanging.
import { EventStream } from "../ai/event-stream.js";
import { streamSimple } from "../ai/stream.js";
import type { AssistantMessage, Context, Message, Model, ToolCall, ToolResultMessage } from "../ai/types.js";
import { createOutputMessage } from "../ai/usage.js";
import { validateToolArguments } from "../ai/validation.js";
import { onAbort } from "./abort-fanout.js";
import type {
	AgentContext,
	AgentEvent,
	AgentEventSink,
	AgentLoopConfig,
	AgentMessage,
	AgentTool,
	AgentToolResult,
	StreamFn,
} from "./types.js";

/** How long a tool (or stream) that ignores an abort may keep the run alive. */
export const DEFAULT_ABORT_GRACE_MS = 500;

/** Result texts the model reads for calls that did not run; one place so tests and UIs agree. */
export const NOT_RUN_TEXT = {
	aborted: "Tool call was not run: the run was aborted.",
	replyAborted: "Tool call was not run: the reply was aborted before it completed.",
	replyError: "Tool call was not run: the reply ended with an error before it completed.",
	length:
		"Tool call was not executed: the reply hit the output token limit before the call was complete. Issue the call again with complete arguments.",
	badArguments: (parseError: string) =>
		`Tool call was not executed: its arguments were not complete, valid JSON when the reply ended (${parseError}). Issue the call again with complete arguments.`,
} as const;

export const STREAM_ENDED_WITHOUT_RESULT = "Stream ended without a final message";
const REQUEST_ABORTED = "Request was aborted";

// ---------------------------------------------------------------------------------------------
// Entry points (docs/agent-contract.md §8)

/** Runs `prompts` against `context`; resolves with the run's new messages. The caller's array is not mutated. */
export async function runAgentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	const newMessages = [...prompts];
	const working: AgentContext = { ...context, messages: [...context.messages, ...prompts] };
	await emit({ type: "agent_start" });
	await emit({ type: "turn_start" });
	for (const message of prompts) await emitMessage(message, emit);
	await runLoop(working, newMessages, config, emit, signal, streamFn);
	return newMessages;
}

/**
 * Continues from the context's last message (user, toolResult or custom). Like the reference, the
 * loop appends into the caller's `context.messages`; pass a copy to avoid that.
 */
export async function runAgentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	assertCanContinue(context);
	const newMessages: AgentMessage[] = [];
	const working: AgentContext = { ...context };
	await emit({ type: "agent_start" });
	await emit({ type: "turn_start" });
	await runLoop(working, newMessages, config, emit, signal, streamFn);
	return newMessages;
}

/** `runAgentLoop` as an observational event stream; its result is `agent_end.messages`. */
export function agentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	return streamRun(config.model, signal, (emit) => runAgentLoop(prompts, context, config, emit, signal, streamFn));
}

/** `runAgentLoopContinue` as an event stream; throws synchronously on an invalid context. */
export function agentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	assertCanContinue(context);
	return streamRun(config.model, signal, (emit) => runAgentLoopContinue(context, config, emit, signal, streamFn));
}

function assertCanContinue(context: AgentContext): void {
	const last = context.messages[context.messages.length - 1];
	if (!last) throw new Error("Cannot continue: no messages in context");
	if (last.role === "assistant") throw new Error("Cannot continue from message role: assistant");
}

/**
 * The reference's stream hangs forever when the run rejects; ours ends it with the same complete
 * failure sequence the Agent emits, so a consumer always sees `agent_end`.
 */
function streamRun(
	model: Model,
	signal: AbortSignal | undefined,
	run: (emit: AgentEventSink) => Promise<AgentMessage[]>,
): EventStream<AgentEvent, AgentMessage[]> {
	const stream = new EventStream<AgentEvent, AgentMessage[]>(
		(e) => e.type === "agent_end",
		(e) => (e.type === "agent_end" ? e.messages : []),
	);
	let turnOpen = false;
	const emit = (event: AgentEvent) => {
		if (event.type === "turn_start") turnOpen = true;
		else if (event.type === "turn_end") turnOpen = false;
		stream.push(event);
	};
	run(emit).catch((error) => {
		const failure = createFailureMessage(model, error, signal?.aborted === true);
		for (const event of failureEvents(failure, turnOpen)) stream.push(event);
	});
	return stream;
}

// ---------------------------------------------------------------------------------------------
// Run failure (shared with the Agent)

/** The assistant message recorded when a run fails outside the model (docs/agent-contract.md §7). */
export function createFailureMessage(model: Pick<Model, "api" | "provider" | "id">, error: unknown, aborted: boolean): AssistantMessage {
	const message = createOutputMessage(model);
	message.content = [{ type: "text", text: "" }];
	message.stopReason = aborted ? "aborted" : "error";
	message.errorMessage = errorText(error);
	return message;
}

/**
 * The events that close a failed run so a UI has one path for every failure: the failure message
 * gets `message_start`/`message_end`, its turn a `turn_end` (and a `turn_start` if none is open).
 */
export function failureEvents(failure: AssistantMessage, turnOpen: boolean): AgentEvent[] {
	const events: AgentEvent[] = [];
	if (!turnOpen) events.push({ type: "turn_start" });
	events.push(
		{ type: "message_start", message: failure },
		{ type: "message_end", message: failure },
		{ type: "turn_end", message: failure, toolResults: [] },
		{ type: "agent_end", messages: [failure] },
	);
	return events;
}

// ---------------------------------------------------------------------------------------------
// Model messages

/** The Agent's default `convertToLlm`: the messages a model understands, in order. */
export function defaultConvertToLlm(messages: AgentMessage[]): Message[] {
	return messages.filter(isLlmMessage);
}

function isLlmMessage(m: AgentMessage): m is Message {
	return m.role === "user" || m.role === "assistant" || m.role === "toolResult";
}

/**
 * `defaultConvertToLlm` kept up to date as the run goes, instead of filtering the whole transcript
 * before every call (quadratic over a long run). Exact because, without a `transformContext`, only the
 * loop touches its working array, and only by appending or by filling the slot of the reply being
 * streamed, which lies past everything converted when the call was made.
 */
class DefaultLlmView {
	private converted = 0;
	private readonly kept: Message[] = [];

	sync(messages: AgentMessage[]): Message[] {
		for (let i = this.converted; i < messages.length; i++) {
			const m = messages[i] as AgentMessage;
			if (isLlmMessage(m)) this.kept.push(m);
		}
		this.converted = messages.length;
		// A copy: the provider may keep the context it was given.
		return this.kept.slice();
	}
}

// ---------------------------------------------------------------------------------------------
// The double while loop (docs/agent-contract.md §8)

async function runLoop(
	context: AgentContext,
	newMessages: AgentMessage[],
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal: AbortSignal | undefined,
	streamFn: StreamFn | undefined,
): Promise<void> {
	const llmView = config.convertToLlm === defaultConvertToLlm && !config.transformContext ? new DefaultLlmView() : undefined;
	let firstTurn = true;
	// After an abort the queues are not polled, so whatever is queued stays there for the UI.
	let pending = signal?.aborted ? [] : ((await config.getSteeringMessages?.()) ?? []);
	for (;;) {
		let hasMoreToolCalls = true;
		while (hasMoreToolCalls || pending.length > 0) {
			if (firstTurn) firstTurn = false;
			else await emit({ type: "turn_start" });
			// Drained messages are injected at once, even after an abort: they left the queue, so the
			// transcript is the only place they can still be.
			for (const message of pending) {
				await emitMessage(message, emit);
				appendToRun(message, context, newMessages);
			}
			pending = [];

			const assistant = await streamAssistantResponse(context, config, emit, signal, streamFn, llmView);
			newMessages.push(assistant);
			const toolCalls = assistant.content.filter((c): c is ToolCall => c.type === "toolCall");

			if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
				const text = assistant.stopReason === "aborted" ? NOT_RUN_TEXT.replyAborted : NOT_RUN_TEXT.replyError;
				const toolResults: ToolResultMessage[] = [];
				for (const toolCall of toolCalls) {
					const result = toolResultMessage(toolCall, errorOutcome(text));
					await emitMessage(result, emit);
					appendToRun(result, context, newMessages);
					toolResults.push(result);
				}
				await emit({ type: "turn_end", message: assistant, toolResults });
				await emit({ type: "agent_end", messages: newMessages });
				return;
			}

			hasMoreToolCalls = false;
			let toolResults: ToolResultMessage[] = [];
			if (toolCalls.length > 0) {
				const batch = await executeToolCalls(toolCalls, { assistant, context, config, emit, signal });
				toolResults = batch.messages;
				hasMoreToolCalls = !batch.terminate;
				for (const result of toolResults) appendToRun(result, context, newMessages);
			}
			await emit({ type: "turn_end", message: assistant, toolResults });

			if (signal?.aborted) break;
			if (await config.shouldStopAfterTurn?.({ message: assistant, toolResults, context, newMessages })) {
				await emit({ type: "agent_end", messages: newMessages });
				return;
			}
			if (signal?.aborted) break;
			pending = (await config.getSteeringMessages?.()) ?? [];
		}
		if (signal?.aborted) break;
		const followUps = (await config.getFollowUpMessages?.()) ?? [];
		if (followUps.length === 0) break;
		pending = followUps;
	}
	await emit({ type: "agent_end", messages: newMessages });
}

// ---------------------------------------------------------------------------------------------
// One model call (docs/agent-contract.md §8, §5)

async function streamAssistantResponse(
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal: AbortSignal | undefined,
	streamFn: StreamFn | undefined,
	llmView?: DefaultLlmView,
): Promise<AssistantMessage> {
	if (signal?.aborted) {
		// What a provider honouring the signal would answer, without asking it.
		const aborted = createOutputMessage(config.model);
		aborted.stopReason = "aborted";
		aborted.errorMessage = REQUEST_ABORTED;
		return emitWhole(context, aborted, emit);
	}
	const messages = config.transformContext ? await config.transformContext(context.messages, signal) : context.messages;
	const llmMessages = llmView ? llmView.sync(messages) : await config.convertToLlm(messages);
	const llmContext: Context = { systemPrompt: context.systemPrompt, messages: llmMessages, tools: context.tools };
	const apiKey = (config.getApiKey ? await config.getApiKey(config.model.provider) : undefined) || config.apiKey;
	const response = await (streamFn ?? streamSimple)(config.model, llmContext, { ...config, apiKey, signal });

	// A stream that ignores the abort is ended after the grace period, which ends the iteration below.
	const stopWatching = signal ? onAbortAfterGrace(signal, graceOf(config), () => response.end?.()) : undefined;
	let partial: AssistantMessage | undefined;
	let final: AssistantMessage | undefined;
	const last = context.messages.length;
	try {
		for await (const event of response) {
			const type = event.type;
			if (type === "start") {
				partial = event.partial;
				context.messages[last] = partial;
				const pending = emit({ type: "message_start", message: { ...partial } });
				if (pending) await pending;
			} else if (type === "done" || type === "error") {
				final = await response.result();
				break;
			} else if (partial) {
				partial = event.partial;
				context.messages[last] = partial;
				// Hot path (once per token): no await unless a listener is async.
				const pending = emit({ type: "message_update", message: { ...partial }, assistantMessageEvent: event });
				if (pending) await pending;
			}
		}
		if (!final) final = (await settledResult(response)) ?? endedWithoutResult(config.model, partial, signal, STREAM_ENDED_WITHOUT_RESULT);
	} catch (error) {
		// A stream's iterator is not supposed to throw; if it does, the reply is an error message.
		final = endedWithoutResult(config.model, partial, signal, errorText(error));
	} finally {
		stopWatching?.();
	}
	if (!partial) return emitWhole(context, final, emit);
	context.messages[last] = final;
	await emit({ type: "message_end", message: final });
	return final;
}

/** A message that arrives whole (a prompt, a queued message, a tool result): its start and end. */
async function emitMessage(message: AgentMessage, emit: AgentEventSink): Promise<void> {
	await emit({ type: "message_start", message });
	await emit({ type: "message_end", message });
}

/** The working context is what the next model call sees; `newMessages` is what the run returns. */
function appendToRun(message: AgentMessage, context: AgentContext, newMessages: AgentMessage[]): void {
	context.messages.push(message);
	newMessages.push(message);
}

async function emitWhole(context: AgentContext, message: AssistantMessage, emit: AgentEventSink): Promise<AssistantMessage> {
	context.messages.push(message);
	await emit({ type: "message_start", message: { ...message } });
	await emit({ type: "message_end", message });
	return message;
}

/** The stream's result if it already has one (`end(result)` resolves it before iteration stops). */
function settledResult(response: { result(): Promise<AssistantMessage> }): Promise<AssistantMessage | undefined> {
	return Promise.race([response.result(), new Promise<undefined>((resolve) => setImmediate(resolve, undefined))]);
}

function endedWithoutResult(
	model: Model,
	partial: AssistantMessage | undefined,
	signal: AbortSignal | undefined,
	reason: string,
): AssistantMessage {
	const message = partial ? { ...partial, content: [...partial.content] } : createOutputMessage(model);
	const aborted = signal?.aborted === true;
	message.stopReason = aborted ? "aborted" : "error";
	message.errorMessage = aborted ? REQUEST_ABORTED : reason;
	return message;
}

// ---------------------------------------------------------------------------------------------
// Tool calls (docs/agent-contract.md §8)

interface ToolOutcome {
	result: AgentToolResult<any>;
	isError: boolean;
}

interface PreparedCall {
	toolCall: ToolCall;
	tool: AgentTool<any>;
	args: any;
}

type Preparation = { kind: "immediate"; outcome: ToolOutcome } | ({ kind: "prepared" } & PreparedCall);

interface ToolBatch {
	messages: ToolResultMessage[];
	terminate: boolean;
}

/** What every step of running one reply's tool calls needs to know. */
interface ToolBatchScope {
	assistant: AssistantMessage;
	context: AgentContext;
	config: AgentLoopConfig;
	emit: AgentEventSink;
	signal: AbortSignal | undefined;
}

async function executeToolCalls(toolCalls: ToolCall[], scope: ToolBatchScope): Promise<ToolBatch> {
	const { config, context, emit } = scope;
	const sequential =
		config.toolExecution === "sequential" || toolCalls.some((call) => findTool(context, call.name)?.executionMode === "sequential");
	const outcomes = sequential ? await executeSequential(toolCalls, scope) : await executeParallel(toolCalls, scope);
	// Tool results are announced in source order in both modes.
	const messages: ToolResultMessage[] = [];
	for (let i = 0; i < toolCalls.length; i++) {
		const message = toolResultMessage(toolCalls[i], outcomes[i]);
		if (!sequential) await emitMessage(message, emit);
		messages.push(message);
	}
	return { messages, terminate: outcomes.length > 0 && outcomes.every((o) => o.result.terminate === true) };
}

async function executeSequential(toolCalls: ToolCall[], scope: ToolBatchScope): Promise<ToolOutcome[]> {
	const outcomes: ToolOutcome[] = [];
	for (const toolCall of toolCalls) {
		await emitToolStart(toolCall, scope.emit);
		const prepared = await prepareToolCall(toolCall, scope);
		const outcome = prepared.kind === "immediate" ? prepared.outcome : await runPrepared(prepared, scope);
		await emitToolEnd(toolCall, outcome, scope.emit);
		await emitMessage(toolResultMessage(toolCall, outcome), scope.emit);
		outcomes.push(outcome);
	}
	return outcomes;
}

async function executeParallel(toolCalls: ToolCall[], scope: ToolBatchScope): Promise<ToolOutcome[]> {
	// Every preflight (and beforeToolCall) finishes before any tool starts.
	const preparations: Preparation[] = [];
	for (const toolCall of toolCalls) {
		await emitToolStart(toolCall, scope.emit);
		const prepared = await prepareToolCall(toolCall, scope);
		if (prepared.kind === "immediate") await emitToolEnd(toolCall, prepared.outcome, scope.emit);
		preparations.push(prepared);
	}
	return Promise.all(
		preparations.map(async (prepared) => {
			if (prepared.kind === "immediate") return prepared.outcome;
			const outcome = await runPrepared(prepared, scope);
			await emitToolEnd(prepared.toolCall, outcome, scope.emit);
			return outcome;
		}),
	);
}

async function prepareToolCall(toolCall: ToolCall, { assistant, context, config, signal }: ToolBatchScope): Promise<Preparation> {
	// A reply cut by the length limit may hold arguments that parse but are cut short.
	if (assistant.stopReason === "length") return immediate(NOT_RUN_TEXT.length);
	// Cut-off arguments repaired for display would run a shorter command or path than the model meant.
	if (toolCall.argumentsError !== undefined) return immediate(NOT_RUN_TEXT.badArguments(toolCall.argumentsError));
	if (signal?.aborted) return immediate(NOT_RUN_TEXT.aborted);
	const tool = findTool(context, toolCall.name);
	if (!tool) return immediate(`Tool ${toolCall.name} not found`);
	try {
		let forValidation = toolCall;
		if (tool.prepareArguments) {
			const prepared = tool.prepareArguments(toolCall.arguments);
			if (prepared !== toolCall.arguments) forValidation = { ...toolCall, arguments: prepared };
		}
		const args = validateToolArguments(tool, forValidation);
		if (config.beforeToolCall) {
			const verdict = await config.beforeToolCall({ assistantMessage: assistant, toolCall, args, context }, signal);
			if (verdict?.block) return immediate(verdict.reason || "Tool execution was blocked");
		}
		return { kind: "prepared", toolCall, tool, args };
	} catch (error) {
		return immediate(errorText(error));
	}
}

/** Executes, then lets `afterToolCall` amend the result. Never throws for a tool's own failure. */
async function runPrepared(prepared: PreparedCall, { assistant, context, config, emit, signal }: ToolBatchScope): Promise<ToolOutcome> {
	if (signal?.aborted) return errorOutcome(NOT_RUN_TEXT.aborted);
	const executed = await executeTool(prepared, emit, signal, graceOf(config));
	if (executed.detached || !config.afterToolCall) return executed.outcome;
	const { result, isError } = executed.outcome;
	try {
		const amend = await config.afterToolCall(
			{ assistantMessage: assistant, toolCall: prepared.toolCall, args: prepared.args, result, isError, context },
			signal,
		);
		if (!amend) return executed.outcome;
		return {
			result: {
				...result,
				content: amend.content ?? result.content,
				details: amend.details ?? result.details,
				terminate: amend.terminate ?? result.terminate,
			},
			isError: amend.isError ?? isError,
		};
	} catch (error) {
		return errorOutcome(errorText(error));
	}
}

async function executeTool(
	{ toolCall, tool, args }: PreparedCall,
	emit: AgentEventSink,
	signal: AbortSignal | undefined,
	graceMs: number,
): Promise<{ outcome: ToolOutcome; detached: boolean }> {
	let live = true;
	let updateFailure: { error: unknown } | undefined;
	const updates: Promise<void>[] = [];
	const onUpdate = (partialResult: AgentToolResult<any>) => {
		// Once the call is settled (or detached), late updates have nowhere to go.
		if (!live) return;
		const pending = emit({
			type: "tool_execution_update",
			toolCallId: toolCall.id,
			toolName: toolCall.name,
			args: toolCall.arguments,
			partialResult,
		});
		if (pending)
			updates.push(
				pending.catch((error) => {
					updateFailure ??= { error };
				}),
			);
	};
	const execution = (async () => tool.execute(toolCall.id, args, signal, onUpdate))();
	let outcome: ToolOutcome;
	let detached = false;
	try {
		const settled = signal ? await withAbortGrace(execution, signal, graceMs) : await execution;
		if (settled === GRACE_EXPIRED) {
			detached = true;
			outcome = errorOutcome(
				`Tool ${toolCall.name} was aborted: it did not stop within ${graceMs} ms of the abort signal, so its result was discarded.`,
			);
		} else outcome = checkedResult(toolCall, settled);
	} catch (error) {
		outcome = errorOutcome(errorText(error));
	}
	live = false;
	await Promise.all(updates);
	if (updateFailure) throw updateFailure.error;
	return { outcome, detached };
}

/** The reference trusts any return value and fails the whole run on one without `content`. */
function checkedResult(toolCall: ToolCall, result: AgentToolResult<any>): ToolOutcome {
	if (!result || typeof result !== "object" || !Array.isArray(result.content)) {
		return errorOutcome(`Tool ${toolCall.name} returned an invalid result: expected an object with a content array`);
	}
	return { result, isError: false };
}

const GRACE_EXPIRED: unique symbol = Symbol("grace expired");

/** Settles like `work`, or with GRACE_EXPIRED once `graceMs` have passed since the abort. */
function withAbortGrace<T>(work: Promise<T>, signal: AbortSignal, graceMs: number): Promise<T | typeof GRACE_EXPIRED> {
	return new Promise((resolve, reject) => {
		const stop = onAbortAfterGrace(signal, graceMs, () => resolve(GRACE_EXPIRED));
		work.then(
			(value) => {
				stop();
				resolve(value);
			},
			(error) => {
				stop();
				reject(error);
			},
		);
	});
}

/** Calls `action` `graceMs` after `signal` aborts (or after now, if it already has); returns a canceller. */
function onAbortAfterGrace(signal: AbortSignal, graceMs: number, action: () => void): () => void {
	let timer: NodeJS.Timeout | undefined;
	const start = () => {
		timer = setTimeout(action, graceMs);
	};
	if (signal.aborted) start();
	const cancel = signal.aborted ? undefined : onAbort(signal, start);
	return () => {
		cancel?.();
		if (timer) clearTimeout(timer);
	};
}

async function emitToolStart(toolCall: ToolCall, emit: AgentEventSink): Promise<void> {
	await emit({ type: "tool_execution_start", toolCallId: toolCall.id, toolName: toolCall.name, args: toolCall.arguments });
}

async function emitToolEnd(toolCall: ToolCall, outcome: ToolOutcome, emit: AgentEventSink): Promise<void> {
	await emit({
		type: "tool_execution_end",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		result: outcome.result,
		isError: outcome.isError,
	});
}

function toolResultMessage(toolCall: ToolCall, { result, isError }: ToolOutcome): ToolResultMessage {
	// `terminate` is a runtime hint for the loop and is never written to the transcript.
	return {
		role: "toolResult",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		content: result.content,
		details: result.details,
		isError,
		timestamp: Date.now(),
	};
}

function findTool(context: AgentContext, name: string): AgentTool<any> | undefined {
	return context.tools?.find((tool) => tool.name === name);
}

function immediate(text: string): Preparation {
	return { kind: "immediate", outcome: errorOutcome(text) };
}

function errorOutcome(text: string): ToolOutcome {
	return { result: { content: [{ type: "text", text }], details: {} }, isError: true };
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function graceOf(config: AgentLoopConfig): number {
	return config.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS;
}
