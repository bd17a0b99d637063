import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import {
	agentLoop,
	agentLoopContinue,
	NOT_RUN_TEXT,
	runAgentLoop,
	runAgentLoopContinue,
	STREAM_ENDED_WITHOUT_RESULT,
} from "../../src/agent/agent-loop.js";
import type { AgentContext, AgentEvent, AgentLoopConfig, AgentMessage, AgentTool } from "../../src/agent/types.js";
import type { Message, ToolResultMessage } from "../../src/ai/types.js";
import { call, deferred, label, ok, type Reply, scriptedStream, testModel, textOf, tool, user } from "./scripted-stream.js";

const convertToLlm = (messages: AgentMessage[]) =>
	messages.filter((m): m is Message => m.role === "user" || m.role === "assistant" || m.role === "toolResult");

function setup(scripts: Reply[], tools: AgentTool[] = [], extra: Partial<AgentLoopConfig> = {}) {
	const events: AgentEvent[] = [];
	const streamFn = scriptedStream(scripts);
	const context: AgentContext = { systemPrompt: "sys", messages: [], tools };
	const config: AgentLoopConfig = { model: testModel, convertToLlm, ...extra };
	const emit = (e: AgentEvent) => {
		events.push(e);
	};
	const labels = () => events.map(label).filter((l) => !l.startsWith("upd"));
	const run = (prompt = "go", signal?: AbortSignal) => runAgentLoop([user(prompt)], context, config, emit, signal, streamFn);
	return { events, streamFn, context, config, emit, labels, run };
}

const toolResults = (messages: AgentMessage[]) => messages.filter((m): m is ToolResultMessage => m.role === "toolResult");

describe("runAgentLoop: events (docs/agent-contract.md §5, §10)", () => {
	it("B: parallel batch starts all tools after preflight, ends in completion order, results in source order", async () => {
		const t2done = deferred();
		const slow = tool("slow", async (_id, _args, _signal, onUpdate) => {
			onUpdate?.(ok("p1"));
			await t2done.promise;
			return ok("one");
		});
		const fast = tool("fast", async (_id, _args, _signal, onUpdate) => {
			onUpdate?.(ok("p2"));
			// After this call's own completion chain (microtasks) has run.
			setImmediate(() => t2done.resolve());
			return ok("two");
		});
		const s = setup([{ toolCalls: [call("t1", "slow"), call("t2", "fast")] }, { text: ["fin"] }], [slow, fast]);
		const messages = await s.run();
		expect(s.labels()).toEqual([
			"agent_start",
			"turn_start",
			"ms user(go)",
			"me user(go)",
			"ms assistant",
			"me assistant(toolUse)",
			"tes t1",
			"tes t2",
			"teu t1",
			"teu t2",
			"tee t2",
			"tee t1",
			"ms toolResult t1",
			"me toolResult t1",
			"ms toolResult t2",
			"me toolResult t2",
			"turn_end(t1,t2)",
			"turn_start",
			"ms assistant",
			"me assistant(stop)",
			"turn_end()",
			"agent_end",
		]);
		expect(toolResults(messages).map(textOf)).toEqual(["one", "two"]);
	});

	it("B: a call blocked in preflight ends before a slower executed call", async () => {
		const s = setup([{ toolCalls: [call("t1", "a"), call("t2", "b")] }], [tool("a", async () => ok("a")), tool("b", async () => ok("b"))], {
			beforeToolCall: async ({ toolCall }) => (toolCall.id === "t2" ? { block: true } : undefined),
		});
		const messages = await s.run();
		const l = s.labels();
		expect(l.slice(l.indexOf("tes t1"), l.indexOf("tee t1") + 1)).toEqual(["tes t1", "tes t2", "tee t2", "tee t1"]);
		expect(toolResults(messages).map((r) => r.toolCallId)).toEqual(["t1", "t2"]);
		expect(textOf(toolResults(messages)[1])).toBe("Tool execution was blocked");
	});

	it("C: sequential mode runs each call to its result before the next", async () => {
		const make = (name: string) =>
			tool(name, async (_id, _a, _s, onUpdate) => {
				onUpdate?.(ok("p"));
				return ok(name);
			});
		const s = setup([{ toolCalls: [call("t1", "a"), call("t2", "b")] }], [make("a"), make("b")], { toolExecution: "sequential" });
		await s.run();
		const l = s.labels();
		expect(l.slice(l.indexOf("tes t1"), l.indexOf("turn_end(t1,t2)") + 1)).toEqual([
			"tes t1",
			"teu t1",
			"tee t1",
			"ms toolResult t1",
			"me toolResult t1",
			"tes t2",
			"teu t2",
			"tee t2",
			"ms toolResult t2",
			"me toolResult t2",
			"turn_end(t1,t2)",
		]);
	});

	it("D: failing tools become error results with exact texts, and the loop continues", async () => {
		const strict = {
			name: "strict",
			label: "strict",
			description: "",
			parameters: Type.Object({ n: Type.Integer() }),
			execute: async () => ok(),
		};
		const tools = [
			tool("boom", async () => {
				throw new Error("kaboom");
			}),
			tool("str", async () => {
				throw "plain string";
			}),
			strict,
			tool("blocked", async () => ok()),
			tool("reasoned", async () => ok()),
			tool("beforeThrows", async () => ok()),
			tool("prep", async () => ok(), {
				prepareArguments: () => {
					throw new Error("bad shape");
				},
			}),
			tool("afterThrows", async () => ok("discarded")),
			tool("convert", async (_id, args) => ok(`got ${typeof args.value} ${args.value}`)),
		];
		const calls = [
			call("c1", "boom"),
			call("c2", "str"),
			call("c3", "missing"),
			call("c4", "strict", { n: "x" }),
			call("c5", "blocked"),
			call("c6", "reasoned"),
			call("c7", "beforeThrows"),
			call("c8", "prep"),
			call("c9", "afterThrows"),
			call("c10", "convert", { value: 42 }),
		];
		const s = setup([{ toolCalls: calls }, { text: ["after"] }], tools, {
			toolExecution: "sequential",
			beforeToolCall: async ({ toolCall }) => {
				if (toolCall.name === "blocked") return { block: true };
				if (toolCall.name === "reasoned") return { block: true, reason: "nope" };
				if (toolCall.name === "beforeThrows") throw new Error("before failed");
				return undefined;
			},
			afterToolCall: async ({ toolCall }) => {
				if (toolCall.name === "afterThrows") throw new Error("after failed");
				return undefined;
			},
		});
		const messages = await s.run();
		const results = toolResults(messages);
		expect(results.map(textOf)).toEqual([
			"kaboom",
			"plain string",
			"Tool missing not found",
			'Validation failed for tool "strict":\n  - n: must be integer\n\nReceived arguments:\n{\n  "n": "x"\n}',
			"Tool execution was blocked",
			"nope",
			"before failed",
			"bad shape",
			"after failed",
			"got string 42",
		]);
		expect(results.map((r) => r.isError)).toEqual([true, true, true, true, true, true, true, true, true, false]);
		for (const r of results.slice(0, 9)) expect(r.details).toEqual({});
		const tes = s.events.find((e) => e.type === "tool_execution_start" && e.toolCallId === "c10");
		expect(tes).toMatchObject({ args: { value: 42 } });
		expect(s.streamFn.calls).toHaveLength(2);
		expect(messages.at(-1)?.role).toBe("assistant");
	});

	it("E: steering sent during a tool waits for the whole batch and reaches the next request", async () => {
		let steered = false;
		const queue: AgentMessage[] = [];
		const s = setup(
			[{ toolCalls: [call("t1", "a"), call("t2", "b")] }, { text: ["ack"] }],
			[
				tool("a", async () => {
					queue.push(user("STEER"));
					steered = true;
					return ok("a");
				}),
				tool("b", async () => ok("b")),
			],
			{ toolExecution: "sequential", getSteeringMessages: async () => queue.splice(0) },
		);
		await s.run();
		expect(steered).toBe(true);
		const l = s.labels();
		expect(l.slice(l.indexOf("tee t1"))).toEqual([
			"tee t1",
			"ms toolResult t1",
			"me toolResult t1",
			"tes t2",
			"tee t2",
			"ms toolResult t2",
			"me toolResult t2",
			"turn_end(t1,t2)",
			"turn_start",
			"ms user(STEER)",
			"me user(STEER)",
			"ms assistant",
			"me assistant(stop)",
			"turn_end()",
			"agent_end",
		]);
		const second = s.streamFn.calls[1].context.messages;
		expect(second.slice(-3).map((m) => (m.role === "toolResult" ? m.toolCallId : textOf(m)))).toEqual(["t1", "t2", "STEER"]);
	});

	it("N: shouldStopAfterTurn ends the run after the turn, polling steering once and follow-ups never", async () => {
		let steeringPolls = 0;
		let followPolls = 0;
		let seen: { roles: string[]; newRoles: string[] } | undefined;
		const s = setup([{ toolCalls: [call("t1", "a")] }], [tool("a", async () => ok())], {
			getSteeringMessages: async () => {
				steeringPolls++;
				return [];
			},
			getFollowUpMessages: async () => {
				followPolls++;
				return [user("never")];
			},
			shouldStopAfterTurn: ({ context, newMessages }) => {
				seen = { roles: context.messages.map((m) => m.role), newRoles: newMessages.map((m) => m.role) };
				return true;
			},
		});
		await s.run();
		expect(s.labels()).toEqual([
			"agent_start",
			"turn_start",
			"ms user(go)",
			"me user(go)",
			"ms assistant",
			"me assistant(toolUse)",
			"tes t1",
			"tee t1",
			"ms toolResult t1",
			"me toolResult t1",
			"turn_end(t1)",
			"agent_end",
		]);
		expect(seen).toEqual({ roles: ["user", "assistant", "toolResult"], newRoles: ["user", "assistant", "toolResult"] });
		expect([steeringPolls, followPolls]).toEqual([1, 0]);
	});

	it("O: terminate on every result stops the automatic call, but a queued follow-up still runs a turn", async () => {
		const term = tool("t", async () => ({ ...ok(), terminate: true }));
		const s = setup([{ toolCalls: [call("t1", "t"), call("t2", "t")] }], [term]);
		await s.run();
		expect(s.streamFn.calls).toHaveLength(1);
		expect(s.labels().filter((l) => l.startsWith("turn_end"))).toEqual(["turn_end(t1,t2)"]);

		const follow = [user("more")];
		const s2 = setup([{ toolCalls: [call("t1", "t")] }, { text: ["x"] }], [term], { getFollowUpMessages: async () => follow.splice(0) });
		await s2.run();
		expect(s2.streamFn.calls).toHaveLength(2);
		expect(s2.labels().slice(-8)).toEqual([
			"turn_end(t1)",
			"turn_start",
			"ms user(more)",
			"me user(more)",
			"ms assistant",
			"me assistant(stop)",
			"turn_end()",
			"agent_end",
		]);
	});

	it("O: a batch where only some results terminate continues; afterToolCall can mark terminate", async () => {
		const s = setup(
			[{ toolCalls: [call("t1", "t"), call("t2", "p")] }, { text: ["x"] }],
			[tool("t", async () => ({ ...ok(), terminate: true })), tool("p", async () => ok())],
		);
		const messages = await s.run();
		expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant"]);
		expect((toolResults(messages)[0] as any).terminate).toBeUndefined();

		const s2 = setup([{ toolCalls: [call("t1", "p")] }], [tool("p", async () => ok())], {
			afterToolCall: async () => ({ terminate: true }),
		});
		await s2.run();
		expect(s2.streamFn.calls).toHaveLength(1);
	});
});

describe("runAgentLoop: improvements over 0.73.1", () => {
	it("H: an abort during tools ends the run without another model call; the honouring tool's error is its result", async () => {
		const controller = new AbortController();
		const honours = tool("h", (_id, _a, signal) => {
			controller.abort();
			return new Promise((_resolve, reject) => {
				if (signal?.aborted) reject(new Error("aborted by signal"));
				signal?.addEventListener("abort", () => reject(new Error("aborted by signal")));
			});
		});
		const s = setup([{ toolCalls: [call("t1", "h")] }, { text: ["never"] }], [honours], { toolExecution: "sequential" });
		const messages = await s.run("go", controller.signal);
		expect(s.labels()).toEqual([
			"agent_start",
			"turn_start",
			"ms user(go)",
			"me user(go)",
			"ms assistant",
			"me assistant(toolUse)",
			"tes t1",
			"tee t1",
			"ms toolResult t1",
			"me toolResult t1",
			"turn_end(t1)",
			"agent_end",
		]);
		expect(s.streamFn.calls).toHaveLength(1);
		expect(textOf(toolResults(messages)[0])).toBe("aborted by signal");
	});

	it("H: a tool that ignores the abort is detached after the grace period; its late result and updates are dropped", async () => {
		const controller = new AbortController();
		const release = deferred();
		let lateUpdate: (() => void) | undefined;
		const ignores = tool("slow", async (_id, _a, _s, onUpdate) => {
			lateUpdate = () => onUpdate?.(ok("late"));
			controller.abort();
			await release.promise;
			return ok("late result");
		});
		const second = tool("next", async () => ok("ran"));
		const s = setup([{ toolCalls: [call("t1", "slow"), call("t2", "next")] }], [ignores, second], {
			toolExecution: "sequential",
			abortGraceMs: 20,
		});
		const messages = await s.run("go", controller.signal);
		const results = toolResults(messages);
		expect(results.map(textOf)).toEqual([
			"Tool slow was aborted: it did not stop within 20 ms of the abort signal, so its result was discarded.",
			NOT_RUN_TEXT.aborted,
		]);
		expect(results.every((r) => r.isError)).toBe(true);
		const count = s.events.length;
		lateUpdate?.();
		release.resolve();
		await new Promise((r) => setTimeout(r, 10));
		expect(s.events.length).toBe(count);
		expect(s.streamFn.calls).toHaveLength(1);
	});

	it("H: a parallel batch with a tool ignoring the abort still settles", async () => {
		const controller = new AbortController();
		const s = setup(
			[{ toolCalls: [call("t1", "hang"), call("t2", "quick")] }],
			[
				tool("hang", () => new Promise(() => {})),
				tool("quick", async () => {
					controller.abort();
					return ok("quick");
				}),
			],
			{ abortGraceMs: 10 },
		);
		const messages = await s.run("go", controller.signal);
		expect(toolResults(messages).map((r) => [r.toolCallId, r.isError])).toEqual([
			["t1", true],
			["t2", false],
		]);
		expect(s.labels().at(-1)).toBe("agent_end");
	});

	it("I: tool calls of an error reply get exactly one not-run result each, as message events", async () => {
		const s = setup(
			[{ toolCalls: [call("t1", "a"), call("t2", "a")], stop: "error", errorMessage: "HTTP 500" }],
			[tool("a", async () => ok())],
		);
		const messages = await s.run();
		expect(s.labels()).toEqual([
			"agent_start",
			"turn_start",
			"ms user(go)",
			"me user(go)",
			"ms assistant",
			"me assistant(error)",
			"ms toolResult t1",
			"me toolResult t1",
			"ms toolResult t2",
			"me toolResult t2",
			"turn_end(t1,t2)",
			"agent_end",
		]);
		expect(toolResults(messages).map(textOf)).toEqual([NOT_RUN_TEXT.replyError, NOT_RUN_TEXT.replyError]);
	});

	it("G: tool calls of an aborted reply get aborted results", async () => {
		const controller = new AbortController();
		const gate = deferred();
		const s = setup([{ toolCalls: [call("t1", "a")], hold: gate.promise }], [tool("a", async () => ok())]);
		const running = s.run("go", controller.signal);
		// Abort once the call is complete in the stream (it is held open before its terminal event);
		// a fixed sleep raced the scripted stream on a loaded machine.
		const callStreamed = () => s.events.some((e) => e.type === "message_update" && e.assistantMessageEvent.type === "toolcall_end");
		while (!callStreamed()) await new Promise((r) => setImmediate(r));
		controller.abort();
		gate.resolve();
		const messages = await running;
		expect(toolResults(messages).map(textOf)).toEqual([NOT_RUN_TEXT.replyAborted]);
		expect(messages[1]).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted" });
	});

	it("does not execute tool calls of a length-truncated reply", async () => {
		let ran = false;
		const s = setup(
			[{ toolCalls: [call("t1", "a")], stop: "length" }, { text: ["retry"] }],
			[
				tool("a", async () => {
					ran = true;
					return ok();
				}),
			],
		);
		const messages = await s.run();
		expect(ran).toBe(false);
		const result = toolResults(messages)[0];
		expect(result.isError).toBe(true);
		expect(textOf(result)).toContain("output token limit");
		expect(s.streamFn.calls).toHaveLength(2);
	});

	it("a stream that ends with no terminal event and no result becomes an error message", async () => {
		const s = setup([{ text: ["half"], noTerminal: true }]);
		const messages = await s.run();
		expect(messages[1]).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: STREAM_ENDED_WITHOUT_RESULT });
		expect(s.labels().slice(-3)).toEqual(["me assistant(error)", "turn_end()", "agent_end"]);
	});

	it("a stream that ignores the abort is ended after the grace period as aborted", async () => {
		const controller = new AbortController();
		const s = setup([{ text: ["a"], hold: new Promise(() => {}), ignoreAbort: true }], [], { abortGraceMs: 10 });
		const running = s.run("go", controller.signal);
		await new Promise((r) => setTimeout(r, 5));
		controller.abort();
		const messages = await running;
		expect(messages[1]).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted" });
	});

	it("no model call once the signal is aborted before it: a synthetic aborted reply", async () => {
		const controller = new AbortController();
		controller.abort();
		const s = setup([{ text: ["never"] }]);
		const messages = await s.run("go", controller.signal);
		expect(s.streamFn.calls).toHaveLength(0);
		expect(s.labels()).toEqual([
			"agent_start",
			"turn_start",
			"ms user(go)",
			"me user(go)",
			"ms assistant",
			"me assistant(aborted)",
			"turn_end()",
			"agent_end",
		]);
		expect(messages).toHaveLength(2);
	});

	it("a tool returning no content array gets an error result instead of failing the run", async () => {
		const s = setup([{ toolCalls: [call("t1", "bad")] }, { text: ["x"] }], [tool("bad", async () => "nope" as any)]);
		const messages = await s.run();
		expect(textOf(toolResults(messages)[0])).toBe("Tool bad returned an invalid result: expected an object with a content array");
	});
});

describe("runAgentLoop: hooks and conformance (docs/agent-contract.md §10)", () => {
	it("custom messages are filtered by convertToLlm; transformContext runs before it, once per call", async () => {
		const order: string[] = [];
		const s = setup([{ text: ["hi"] }], [], {
			transformContext: async (messages) => {
				order.push("transform");
				return messages.slice(-2);
			},
			convertToLlm: (messages) => {
				order.push(`convert ${messages.length}`);
				return convertToLlm(messages);
			},
			getApiKey: () => {
				order.push("key");
				return "k";
			},
		});
		s.context.messages.push({ role: "notification", text: "n", timestamp: 1 } as any, user("old"), user("older"));
		await s.run();
		expect(order).toEqual(["transform", "convert 2", "key"]);
		expect(s.streamFn.calls[0].context.messages.map(textOf)).toEqual(["older", "go"]);
		expect(s.streamFn.calls[0].options?.apiKey).toBe("k");
		expect(s.context.messages).toHaveLength(3);
	});

	it("prepareArguments folds legacy arguments before validation; tes shows the raw arguments", async () => {
		let got: unknown;
		const edit: AgentTool = {
			name: "edit",
			label: "edit",
			description: "",
			parameters: Type.Object({ edits: Type.Array(Type.Object({ oldText: Type.String(), newText: Type.String() })) }),
			prepareArguments: (raw: any) => (raw.oldText ? { edits: [{ oldText: raw.oldText, newText: raw.newText }] } : raw),
			execute: async (_id, args) => {
				got = args;
				return ok();
			},
		};
		const s = setup([{ toolCalls: [call("t1", "edit", { oldText: "a", newText: "b" })] }], [edit]);
		await s.run();
		expect(got).toEqual({ edits: [{ oldText: "a", newText: "b" }] });
		expect(s.events.find((e) => e.type === "tool_execution_start")).toMatchObject({ args: { oldText: "a", newText: "b" } });
	});

	it("beforeToolCall may mutate args; they are executed without revalidation", async () => {
		let got: unknown;
		const s = setup(
			[{ toolCalls: [call("t1", "a", { value: "x" })] }],
			[
				tool("a", async (_id, args) => {
					got = args.value;
					return ok();
				}),
			],
			{
				beforeToolCall: async ({ args }) => {
					args.value = 123;
					return undefined;
				},
			},
		);
		await s.run();
		expect(got).toBe(123);
	});

	it("one sequential tool forces the batch sequential; all-parallel tools overlap", async () => {
		for (const mode of ["sequential", "parallel"] as const) {
			let active = 0;
			let maxActive = 0;
			const body = async () => {
				active++;
				maxActive = Math.max(maxActive, active);
				await new Promise((r) => setTimeout(r, 5));
				active--;
				return ok();
			};
			const s = setup(
				[{ toolCalls: [call("t1", "a"), call("t2", "b")] }],
				[tool("a", body, { executionMode: mode }), tool("b", body, { executionMode: "parallel" })],
			);
			await s.run();
			expect(maxActive).toBe(mode === "sequential" ? 1 : 2);
		}
	});

	it("afterToolCall merges field by field with ??", async () => {
		const s = setup(
			[{ toolCalls: [call("t1", "a")] }],
			[tool("a", async () => ({ content: [{ type: "text", text: "orig" }], details: { keep: 1 } }))],
			{
				afterToolCall: async () => ({ content: [{ type: "text", text: "over" }], isError: true }),
			},
		);
		const messages = await s.run();
		expect(toolResults(messages)[0]).toMatchObject({ isError: true, details: { keep: 1 }, content: [{ type: "text", text: "over" }] });
	});

	it("runAgentLoop leaves the caller's array alone; runAgentLoopContinue appends into it", async () => {
		const s = setup([{ text: ["a"] }, { text: ["b"] }]);
		await s.run();
		expect(s.context.messages).toHaveLength(0);
		s.context.messages.push(user("u"));
		const newMessages = await runAgentLoopContinue(s.context, s.config, s.emit, undefined, s.streamFn);
		expect(newMessages.map((m) => m.role)).toEqual(["assistant"]);
		expect(s.context.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
	});

	it("continue emits no prompt events, rejects bad contexts; agentLoopContinue throws synchronously", async () => {
		const s = setup([{ text: ["a"] }]);
		s.context.messages.push({ role: "custom", timestamp: 1 } as any);
		await runAgentLoopContinue(s.context, s.config, s.emit, undefined, s.streamFn);
		expect(s.labels()).toEqual(["agent_start", "turn_start", "ms assistant", "me assistant(stop)", "turn_end()", "agent_end"]);
		await expect(runAgentLoopContinue({ systemPrompt: "", messages: [] }, s.config, s.emit)).rejects.toThrow(
			"Cannot continue: no messages in context",
		);
		expect(() => agentLoopContinue({ systemPrompt: "", messages: [] }, s.config)).toThrow("Cannot continue: no messages in context");
		expect(() =>
			agentLoopContinue({ systemPrompt: "", messages: [s.events.find((e) => e.type === "message_end")!.message] }, s.config),
		).toThrow("Cannot continue from message role: assistant");
	});

	it("agentLoop streams the events and resolves with agent_end.messages", async () => {
		const streamFn = scriptedStream([{ text: ["x", "y"] }]);
		const stream = agentLoop([user("hi")], { systemPrompt: "", messages: [] }, { model: testModel, convertToLlm }, undefined, streamFn);
		const types: string[] = [];
		for await (const e of stream) types.push(e.type);
		expect(types[0]).toBe("agent_start");
		expect(types.at(-1)).toBe("agent_end");
		expect((await stream.result()).map((m) => m.role)).toEqual(["user", "assistant"]);
	});

	it("agentLoop whose stream function throws ends with the complete failure sequence instead of hanging", async () => {
		const stream = agentLoop([user("hi")], { systemPrompt: "", messages: [] }, { model: testModel, convertToLlm }, undefined, () => {
			throw new Error("no stream");
		});
		const labels: string[] = [];
		for await (const e of stream) labels.push(label(e));
		expect(labels).toEqual([
			"agent_start",
			"turn_start",
			"ms user(hi)",
			"me user(hi)",
			"ms assistant",
			"me assistant(error)",
			"turn_end()",
			"agent_end",
		]);
		expect((await stream.result())[0]).toMatchObject({ errorMessage: "no stream" });
	});

	it("message_update carries a shallow copy of the partial; message_end the final object", async () => {
		const s = setup([{ text: ["a", "b"] }]);
		const messages = await s.run();
		const updates = s.events.filter((e) => e.type === "message_update");
		expect(updates.map((e) => (e as any).assistantMessageEvent.type)).toEqual(["text_start", "text_delta", "text_delta", "text_end"]);
		const end = s.events.filter((e) => e.type === "message_end").at(-1) as any;
		expect(end.message).toBe(messages[1]);
		expect((updates[0] as any).message).not.toBe(end.message);
	});
});
