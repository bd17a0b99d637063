// The session's sub-agents: each `task` call runs a fresh `Agent` with the definition's system prompt,
// its tool subset and the session's model, stream, keys and permission gate. Its abort signal is chained
// to the calling run's, so Esc stops the whole tree; at most `maxSubagents` run at once, the rest wait
// (status "queued"). While one runs it can be steered like the main agent (`steer` / `followUp` by id).

import { onAbort } from "../../agent/abort-fanout.js";
import { Agent } from "../../agent/index.js";
import type { AgentEvent, AgentLoopConfig, AgentMessage, AgentTool, QueueMode, StreamFn } from "../../agent/types.js";
import type { AssistantMessage, Model, ThinkingLevel } from "../../ai/index.js";
import type { ProcessSlots } from "../../tools/process-slots.js";
import { RedactedAgentEvents } from "../redacted-agent-events.js";
import type { SessionEvent } from "../types.js";
import type { AgentDefinition } from "./agent-definitions.js";
import { asAgent } from "./asking-agent.js";
import type { SubAgentInfo } from "./sub-agent-info.js";

export interface SubAgentRequest {
	definition: AgentDefinition;
	prompt: string;
	/** Shown in the UI; default the prompt's first line. */
	description?: string;
	parentToolCallId: string;
	parentAgentId?: string;
	/** The tools it may use, given its id (the definition's subset of the session's, `task` only where allowed). */
	tools: (agentId: string) => AgentTool[];
}

export interface SubAgentsDeps {
	model: () => Model;
	findModel: (spec: string) => Model | undefined;
	thinkingLevel: () => ThinkingLevel;
	/** The system prompt of a sub-agent: the definition's, then its tools, the environment and the permission mode. */
	systemPrompt: (definition: AgentDefinition, tools: readonly AgentTool[]) => string;
	streamFn: StreamFn;
	getApiKey: AgentLoopConfig["getApiKey"];
	convertToLlm: AgentLoopConfig["convertToLlm"];
	beforeToolCall: NonNullable<AgentLoopConfig["beforeToolCall"]>;
	afterToolCall: NonNullable<AgentLoopConfig["afterToolCall"]>;
	steeringMode: QueueMode;
	followUpMode: QueueMode;
	slots: ProcessSlots;
	emit: (event: SessionEvent) => void;
	/** Counts a reply's usage in the session totals (not in the main context's size). */
	addUsage: (message: AssistantMessage) => void;
	/** Keeps a finished message of a sub-agent (the session file's side branch). */
	record: (info: SubAgentInfo, message: AgentMessage) => void;
	/** Told when a listener of a sub-agent throws. */
	onListenerError: (error: unknown) => void;
	/**
	 * The user's SubagentStop hooks as one that would end: the instruction it goes on with, or undefined
	 * to end. `round` counts the times they already kept it going.
	 */
	stopHook: (
		round: number,
		agent: { agentId: string; agentType: string; lastAssistantMessage: string },
		signal?: AbortSignal,
	) => Promise<string | undefined>;
}

interface Running {
	agent: Agent;
	info: SubAgentInfo;
}

/** A sub-agent's finished messages so far, for the UI to show (Ctrl+O); kept for the session's life. */
export interface SubAgentMessages {
	info: SubAgentInfo;
	messages: readonly AgentMessage[];
}

const abortError = () => new Error("The sub-agent was stopped before it started.");

export class SubAgents {
	private readonly running = new Map<string, Running>();
	private readonly waiting = new Map<string, SubAgentInfo>();
	/** Every sub-agent that ran, with its finished messages, in start order. */
	private readonly transcripts = new Map<string, { info: SubAgentInfo; messages: AgentMessage[] }>();
	private count = 0;

	constructor(private readonly deps: SubAgentsDeps) {}

	/** Sub-agents waiting or running now, in start order. */
	list(): SubAgentInfo[] {
		return [...this.waiting.values(), ...[...this.running.values()].map((r) => this.snapshot(r.info))].sort(
			(a, b) => a.startedAt - b.startedAt,
		);
	}

	/** The finished messages of the sub-agent `agentId` (running or ended), with its latest state. */
	transcript(agentId: string): SubAgentMessages | undefined {
		const kept = this.transcripts.get(agentId);
		if (!kept) return undefined;
		const running = this.running.get(agentId);
		return { info: running ? this.snapshot(running.info) : { ...kept.info }, messages: kept.messages.slice() };
	}

	/** The id of the sub-agent started last (running or ended), if any. */
	lastStarted(): string | undefined {
		return [...this.transcripts.keys()].at(-1);
	}

	/** Throws, naming the running ones, unless `agentId` is running. */
	ensureRunning(agentId: string): void {
		this.find(agentId);
	}

	/** Queues `message` for before that sub-agent's next request. Throws when it is not running. */
	steer(agentId: string, message: AgentMessage): void {
		this.find(agentId).agent.steer(message);
	}

	/** Queues `message` to start another turn once that sub-agent would stop. */
	followUp(agentId: string, message: AgentMessage): void {
		this.find(agentId).agent.followUp(message);
	}

	/**
	 * Runs the request to its end; resolves with its final text. Rejects when it fails or `signal` (the
	 * calling run's) aborts; `onStatus` hears each change for the calling tool's updates.
	 */
	async run(request: SubAgentRequest, signal: AbortSignal | undefined, onStatus: (info: SubAgentInfo) => void): Promise<string> {
		const { definition } = request;
		const info: SubAgentInfo = {
			agentId: `${definition.name}-${++this.count}`,
			parentToolCallId: request.parentToolCallId,
			...(request.parentAgentId ? { parentAgentId: request.parentAgentId } : {}),
			name: definition.name,
			task: request.description?.trim() || firstLine(request.prompt),
			// Queued when every slot is taken; otherwise it gets one at once.
			status: this.deps.slots.isFull ? "queued" : "running",
			startedAt: Date.now(),
			elapsedMs: 0,
			tokens: 0,
		};
		const report = (type: "subagent_start" | "subagent_update" | "subagent_end", extra: object = {}) => {
			const shown = this.snapshot(info);
			this.deps.emit({ type, ...shown, ...extra } as SessionEvent);
			onStatus(shown);
		};
		this.waiting.set(info.agentId, info);
		report("subagent_start");
		let release: () => void;
		try {
			release = await this.deps.slots.acquire(signal, abortError);
		} catch (error) {
			this.waiting.delete(info.agentId);
			info.status = "aborted";
			report("subagent_end", { error: errorText(error) });
			throw error;
		}
		this.waiting.delete(info.agentId);
		const waited = info.status === "queued";
		info.status = "running";
		info.startedAt = Date.now();
		const agent = this.createAgent(request, info);
		this.running.set(info.agentId, { agent, info });
		const kept = { info, messages: [] as AgentMessage[] };
		this.transcripts.set(info.agentId, kept);
		// Its streamed deltas, redacted as the main agent's are, named by its id and the call that started it.
		const named = {
			agentId: info.agentId,
			parentToolCallId: info.parentToolCallId,
			...(info.parentAgentId ? { parentAgentId: info.parentAgentId } : {}),
		};
		const deltas = new RedactedAgentEvents((event) => {
			if (event.type === "message_update")
				this.deps.emit({ type: "subagent_message_update", ...named, assistantMessageEvent: event.assistantMessageEvent });
		});
		const stopListening = agent.subscribe((event) => {
			deltas.forward(event);
			if (event.type === "message_end") kept.messages.push(event.message);
			this.onEvent(info, event, report);
		});
		const unchain = signal && onAbort(signal, () => agent.abort());
		if (waited) report("subagent_update");
		try {
			if (signal?.aborted) agent.abort();
			else {
				await agent.prompt(request.prompt);
				await this.continueWhileStopHooksBlock(agent, info, signal);
			}
			const last = agent.state.messages.at(-1);
			const outcome = outcomeOf(last, signal?.aborted === true);
			info.status = outcome.status;
			info.currentTool = undefined;
			report("subagent_end", outcome.error ? { error: outcome.error } : { result: outcome.text });
			if (outcome.error) throw new Error(outcome.error);
			return outcome.text;
		} finally {
			unchain?.();
			stopListening();
			this.running.delete(info.agentId);
			release();
		}
	}

	/** SubagentStop hooks: while one blocks the end, its reason is the sub-agent's next instruction. Not after Esc or a failure. */
	private async continueWhileStopHooksBlock(agent: Agent, info: SubAgentInfo, signal: AbortSignal | undefined): Promise<void> {
		for (let round = 0; ; round++) {
			const last = agent.state.messages.at(-1);
			if (signal?.aborted || last?.role !== "assistant" || last.stopReason === "aborted" || last.stopReason === "error") return;
			const next = await this.deps.stopHook(
				round,
				{ agentId: info.agentId, agentType: info.name, lastAssistantMessage: replyText(last) },
				signal,
			);
			if (next === undefined) return;
			await agent.prompt(`SubagentStop hook feedback (the sub-agent continues): ${next}`);
		}
	}

	private createAgent(request: SubAgentRequest, info: SubAgentInfo): Agent {
		const d = this.deps;
		const { definition } = request;
		const tools = request.tools(info.agentId);
		const asker = { id: info.agentId, name: info.name };
		return new Agent({
			initialState: {
				systemPrompt: d.systemPrompt(definition, tools),
				model: (definition.model && d.findModel(definition.model)) || d.model(),
				thinkingLevel: d.thinkingLevel(),
				tools,
			},
			convertToLlm: d.convertToLlm,
			streamFn: d.streamFn,
			getApiKey: d.getApiKey,
			steeringMode: d.steeringMode,
			followUpMode: d.followUpMode,
			// The session's gate, with this agent named in any approval it asks for.
			beforeToolCall: (ctx, signal) => asAgent(asker, () => d.beforeToolCall(ctx, signal)),
			afterToolCall: (ctx, signal) => asAgent(asker, () => d.afterToolCall(ctx, signal)),
			onListenerError: d.onListenerError,
		});
	}

	private onEvent(info: SubAgentInfo, event: AgentEvent, report: (type: "subagent_update") => void): void {
		if (event.type === "tool_execution_start") {
			info.currentTool = event.toolName;
			report("subagent_update");
		} else if (event.type === "tool_execution_end") {
			info.currentTool = undefined;
			report("subagent_update");
		} else if (event.type === "message_end") {
			this.deps.record(this.snapshot(info), event.message);
			if (event.message.role === "assistant") {
				info.tokens += event.message.usage.input + event.message.usage.output;
				this.deps.addUsage(event.message);
				report("subagent_update");
			}
		}
	}

	private find(agentId: string): Running {
		const running = this.running.get(agentId);
		if (!running) {
			const known = [...this.running.keys()].join(", ") || "none";
			throw new Error(`No running sub-agent "${agentId}" (running: ${known})`);
		}
		return running;
	}

	private snapshot(info: SubAgentInfo): SubAgentInfo {
		return { ...info, elapsedMs: info.status === "queued" ? 0 : Date.now() - info.startedAt };
	}
}

type Outcome = { status: "done"; text: string; error?: undefined } | { status: "error" | "aborted"; text: string; error: string };

/** The final reply's text, or why there is none. */
function outcomeOf(last: AgentMessage | undefined, aborted: boolean): Outcome {
	if (aborted || (last?.role === "assistant" && last.stopReason === "aborted"))
		return { status: "aborted", text: "", error: "The sub-agent was stopped." };
	if (last?.role !== "assistant") return { status: "error", text: "", error: "The sub-agent ended without a reply." };
	if (last.stopReason === "error")
		return { status: "error", text: "", error: `The sub-agent failed: ${last.errorMessage ?? "unknown error"}` };
	return { status: "done", text: replyText(last) || "(the sub-agent gave no text)" };
}

function replyText(message: AssistantMessage): string {
	return message.content
		.flatMap((c) => (c.type === "text" ? [c.text] : []))
		.join("\n")
		.trim();
}

function firstLine(text: string): string {
	const line = text.trim().split("\n")[0] ?? "";
	return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
