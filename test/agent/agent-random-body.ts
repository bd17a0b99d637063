// The randomized Agent check, shared by `agent-random.test.ts` (against src, under vitest) and
// `bench/agent-soak.mjs` (against dist, 10,000 times). It takes the library as a parameter and imports
// nothing at runtime, so the soak can load it with esbuild's transform alone.
//
// A scenario scripts the model's replies and the tools' behaviour, then interleaves prompt, continue,
// steer, followUp and abort at chosen event counts. After every run it checks: events balanced, the
// transcript valid for the next request, nothing given to the agent lost, the agent settled.
import type fcModule from "fast-check";
import type { Agent as AgentClass, AgentOptions } from "../../src/agent/agent.js";
import type { AgentEvent, AgentMessage, AgentTool, StreamFn } from "../../src/agent/types.js";
import type { createAssistantMessageEventStream as CreateStream } from "../../src/ai/event-stream.js";
import type { AssistantMessage, Model, ToolCall } from "../../src/ai/types.js";
import type { createOutputMessage as CreateOutput } from "../../src/ai/usage.js";

export interface RandomLib {
	Agent: typeof AgentClass;
	createAssistantMessageEventStream: typeof CreateStream;
	createOutputMessage: typeof CreateOutput;
}

type ToolBehaviour = "ok" | "throw" | "slow" | "ignoreAbort" | "unknown" | "terminate";
type ReplyKind = "text" | "tools" | "error" | "length" | "throw";

export interface ReplySpec {
	kind: ReplyKind;
	deltas: number;
	tools: { behaviour: ToolBehaviour; updates: number; ticks: number }[];
}

export interface ActionSpec {
	/** Fire when the agent has emitted this many events (counted over the whole scenario). */
	atEvent: number;
	op: "steer" | "followUp" | "abort" | "listenerThrow";
}

export interface Scenario {
	toolExecution: "parallel" | "sequential";
	steeringMode: "all" | "one-at-a-time";
	followUpMode: "all" | "one-at-a-time";
	replies: ReplySpec[];
	actions: ActionSpec[];
	runs: ("prompt" | "continue")[];
	queuedBefore: ("steer" | "followUp")[];
}

export function scenarioArbitrary(fc: typeof fcModule) {
	const toolSpec = fc.record({
		behaviour: fc.constantFrom<ToolBehaviour>("ok", "ok", "throw", "slow", "ignoreAbort", "unknown", "terminate"),
		updates: fc.integer({ min: 0, max: 2 }),
		ticks: fc.integer({ min: 0, max: 3 }),
	});
	const reply = fc.record({
		kind: fc.constantFrom<ReplyKind>("text", "tools", "tools", "error", "length", "throw"),
		deltas: fc.integer({ min: 0, max: 3 }),
		tools: fc.array(toolSpec, { minLength: 1, maxLength: 3 }),
	});
	return fc.record({
		toolExecution: fc.constantFrom("parallel" as const, "sequential" as const),
		steeringMode: fc.constantFrom("all" as const, "one-at-a-time" as const),
		followUpMode: fc.constantFrom("all" as const, "one-at-a-time" as const),
		replies: fc.array(reply, { minLength: 1, maxLength: 6 }),
		actions: fc.array(
			fc.record({
				atEvent: fc.integer({ min: 0, max: 60 }),
				op: fc.constantFrom("steer" as const, "followUp" as const, "abort" as const, "listenerThrow" as const),
			}),
			{ maxLength: 6 },
		),
		runs: fc.array(fc.constantFrom("prompt" as const, "continue" as const), { minLength: 1, maxLength: 3 }),
		queuedBefore: fc.array(fc.constantFrom("steer" as const, "followUp" as const), { maxLength: 2 }),
	});
}

const model: Model = {
	id: "random-1",
	name: "Random",
	api: "random-test",
	provider: "random",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
};

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function scriptedStreamFn(lib: RandomLib, replies: ReplySpec[]): StreamFn {
	let index = 0;
	return (_model, _context, options) => {
		const spec = replies[index++] ?? { kind: "text", deltas: 1, tools: [] };
		if (spec.kind === "throw") throw new Error("stream function failed");
		const signal = options?.signal;
		const stream = lib.createAssistantMessageEventStream();
		const out: AssistantMessage = lib.createOutputMessage(model);
		const step = async () => {
			await tick();
			if (signal?.aborted) throw new Error("Request was aborted");
		};
		void (async () => {
			try {
				await step();
				stream.push({ type: "start", partial: out });
				if (spec.deltas > 0) {
					const block = { type: "text" as const, text: "" };
					const contentIndex = out.content.length;
					out.content.push(block);
					stream.push({ type: "text_start", contentIndex, partial: out });
					for (let i = 0; i < spec.deltas; i++) {
						await step();
						block.text += `d${i} `;
						stream.push({ type: "text_delta", contentIndex, delta: `d${i} `, partial: out });
					}
					stream.push({ type: "text_end", contentIndex, content: block.text, partial: out });
				}
				if (spec.kind !== "text") {
					for (const [i, t] of spec.tools.entries()) {
						const toolCall: ToolCall = {
							type: "toolCall",
							id: `call_${index}_${i}`,
							name: t.behaviour === "unknown" ? "nope" : t.behaviour,
							arguments: { updates: t.updates, ticks: t.ticks },
						};
						const contentIndex = out.content.length;
						out.content.push(toolCall);
						stream.push({ type: "toolcall_start", contentIndex, partial: out });
						await step();
						stream.push({ type: "toolcall_end", contentIndex, toolCall, partial: out });
					}
				}
				await step();
				if (spec.kind === "error") {
					out.stopReason = "error";
					out.errorMessage = "HTTP 500";
					stream.push({ type: "error", reason: "error", error: out });
				} else {
					out.stopReason = spec.kind === "length" ? "length" : spec.kind === "tools" ? "toolUse" : "stop";
					stream.push({ type: "done", reason: out.stopReason as "stop" | "length" | "toolUse", message: out });
				}
			} catch (error) {
				out.stopReason = signal?.aborted ? "aborted" : "error";
				out.errorMessage = (error as Error).message;
				stream.push({ type: "error", reason: out.stopReason as "aborted" | "error", error: out });
			}
		})();
		return stream;
	};
}

function makeTools(): AgentTool[] {
	const parameters = { type: "object", properties: { updates: { type: "number" }, ticks: { type: "number" } } };
	const make = (name: ToolBehaviour, run: (args: any, signal: AbortSignal | undefined) => Promise<void>, terminate = false): AgentTool => ({
		name,
		label: name,
		description: name,
		parameters,
		execute: async (_id, args, signal, onUpdate) => {
			for (let i = 0; i < args.updates; i++) onUpdate?.({ content: [{ type: "text", text: `u${i}` }], details: {} });
			await run(args, signal);
			return { content: [{ type: "text", text: name }], details: {}, terminate };
		},
	});
	const wait = async (ticks: number, signal: AbortSignal | undefined, honour: boolean) => {
		for (let i = 0; i < ticks; i++) {
			await tick();
			if (honour && signal?.aborted) throw new Error("aborted by signal");
		}
	};
	return [
		make("ok", async () => {}),
		make("throw", async () => {
			throw new Error("tool failed");
		}),
		make("slow", (args, signal) => wait(args.ticks + 2, signal, true)),
		// Ignores the signal and outlives the grace period when aborted.
		make("ignoreAbort", async (_args, signal) => {
			await wait(3, signal, false);
			if (signal?.aborted) await new Promise((resolve) => setTimeout(resolve, 20));
		}),
		make("terminate", async () => {}, true),
	];
}

/** Runs one scenario and throws a one-line Error describing the first broken rule. */
export async function runScenario(lib: RandomLib, scenario: Scenario): Promise<void> {
	const listenerErrors: unknown[] = [];
	const options: AgentOptions = {
		streamFn: scriptedStreamFn(lib, scenario.replies),
		initialState: { model, tools: makeTools() },
		toolExecution: scenario.toolExecution,
		steeringMode: scenario.steeringMode,
		followUpMode: scenario.followUpMode,
		abortGraceMs: 2,
		onListenerError: (error) => listenerErrors.push(error),
	};
	const agent = new lib.Agent(options);
	const given: AgentMessage[] = [];
	let tag = 0;
	const message = (kind: string): AgentMessage => {
		const m: AgentMessage = { role: "user", content: `${kind}-${tag++}`, timestamp: 0 };
		given.push(m);
		return m;
	};
	for (const kind of scenario.queuedBefore) (kind === "steer" ? agent.steer : agent.followUp).call(agent, message(kind));

	let runEvents: AgentEvent[] = [];
	let eventCount = 0;
	let throwsLeft = 0;
	const actions = [...scenario.actions].sort((a, b) => a.atEvent - b.atEvent);
	agent.subscribe((event) => {
		runEvents.push(event);
		eventCount++;
		while (actions.length > 0 && actions[0].atEvent <= eventCount) {
			const action = actions.shift() as ActionSpec;
			if (action.op === "steer") agent.steer(message("steer"));
			else if (action.op === "followUp") agent.followUp(message("followUp"));
			else if (action.op === "abort") agent.abort();
			else throwsLeft++;
		}
		if (throwsLeft > 0) {
			throwsLeft--;
			throw new Error("listener failed");
		}
	});

	for (const [i, op] of scenario.runs.entries()) {
		runEvents = [];
		if (op === "prompt") await agent.prompt(message("prompt"));
		else {
			try {
				await agent.continue();
			} catch (error) {
				const text = (error as Error).message;
				const last = agent.state.messages.at(-1);
				const allowed =
					(text === "No messages to continue from" && !last) ||
					(text === "Cannot continue from message role: assistant" && last?.role === "assistant" && !agent.hasQueuedMessages());
				if (!allowed) fail(`run ${i}: continue() rejected: ${text}`);
				continue;
			}
		}
		checkRun(agent, runEvents, i);
		checkTranscript(agent.state.messages, i);
		checkNothingLost(agent, given, i);
	}
}

function fail(text: string): never {
	throw new Error(text);
}

function checkRun(agent: AgentClass, events: AgentEvent[], run: number): void {
	const where = `run ${run}`;
	if (events[0]?.type !== "agent_start") fail(`${where}: first event is ${events[0]?.type}, not agent_start`);
	if (events.at(-1)?.type !== "agent_end") fail(`${where}: last event is ${events.at(-1)?.type}, not agent_end`);
	let messageOpen = false;
	let turnOpen = false;
	const tools = new Map<string, number>();
	for (const [i, e] of events.entries()) {
		if ((e.type === "agent_start" && i !== 0) || (e.type === "agent_end" && i !== events.length - 1))
			fail(`${where}: extra ${e.type} at ${i}`);
		if (e.type === "message_start") {
			if (messageOpen) fail(`${where}: message_start while a message is open (event ${i})`);
			messageOpen = true;
		} else if (e.type === "message_update" && !messageOpen) fail(`${where}: message_update outside a message (event ${i})`);
		else if (e.type === "message_end") {
			if (!messageOpen) fail(`${where}: message_end without message_start (event ${i})`);
			messageOpen = false;
		} else if (e.type === "turn_start") {
			if (turnOpen) fail(`${where}: turn_start inside a turn (event ${i})`);
			turnOpen = true;
		} else if (e.type === "turn_end") {
			if (!turnOpen) fail(`${where}: turn_end without turn_start (event ${i})`);
			turnOpen = false;
		} else if (e.type === "tool_execution_start") tools.set(e.toolCallId, (tools.get(e.toolCallId) ?? 0) + 1);
		else if (e.type === "tool_execution_update" && tools.get(e.toolCallId) !== 1) fail(`${where}: update for a tool not running`);
		else if (e.type === "tool_execution_end") {
			if (tools.get(e.toolCallId) !== 1) fail(`${where}: tool_execution_end without one start for ${e.toolCallId}`);
			tools.set(e.toolCallId, 2);
		}
	}
	if (messageOpen) fail(`${where}: a message was never ended`);
	if (turnOpen) fail(`${where}: a turn was never ended`);
	for (const [id, n] of tools) if (n !== 2) fail(`${where}: tool ${id} started but never ended`);
	const s = agent.state;
	if (s.isStreaming) fail(`${where}: isStreaming still true after settling`);
	if (s.pendingToolCalls.size > 0) fail(`${where}: pendingToolCalls not empty after settling`);
	if (s.streamingMessage !== undefined) fail(`${where}: streamingMessage set after settling`);
}

/** Every tool call has exactly one result before the next assistant message; no orphan results. */
export function checkTranscript(messages: AgentMessage[], run: number): void {
	let open = new Set<string>();
	const seen = new Set<string>();
	for (const m of messages) {
		if (m.role === "assistant") {
			if (open.size > 0) fail(`run ${run}: tool calls without results: ${[...open].join(",")}`);
			open = new Set((m as AssistantMessage).content.filter((c) => c.type === "toolCall").map((c) => (c as ToolCall).id));
		} else if (m.role === "toolResult") {
			if (!open.delete(m.toolCallId)) fail(`run ${run}: toolResult ${m.toolCallId} without an open call`);
			if (seen.has(m.toolCallId)) fail(`run ${run}: two results for ${m.toolCallId}`);
			seen.add(m.toolCallId);
		}
	}
	if (open.size > 0) fail(`run ${run}: tool calls without results at the end: ${[...open].join(",")}`);
}

function checkNothingLost(agent: AgentClass, given: AgentMessage[], run: number): void {
	const { steering, followUp } = agent.getQueuedMessages();
	const places = [...agent.state.messages, ...steering, ...followUp];
	for (const m of given) {
		const count = places.filter((p) => p === m).length;
		if (count !== 1) fail(`run ${run}: message ${(m as { content: string }).content} found ${count} times`);
	}
}
