import { afterEach, describe, expect, it } from "vitest";
import { Agent, type AgentOptions } from "../../src/agent/agent.js";
import { NOT_RUN_TEXT } from "../../src/agent/agent-loop.js";
import type { AgentEvent, AgentMessage, AgentTool } from "../../src/agent/types.js";
import { type FauxProviderRegistration, fauxAssistantMessage, fauxText, registerFauxProvider } from "../../src/ai/index.js";
import type { AssistantMessage } from "../../src/ai/types.js";
import { assistant, call, deferred, label, ok, type Script, scriptedStream, testModel, textOf, tool, user } from "./scripted-stream.js";

function makeAgent(scripts: Script[], options: AgentOptions = {}, tools: AgentTool[] = []) {
	const streamFn = scriptedStream(scripts);
	const agent = new Agent({ streamFn, initialState: { model: testModel, tools }, ...options });
	const events: AgentEvent[] = [];
	agent.subscribe((e) => {
		events.push(e);
	});
	const labels = () => events.map(label).filter((l) => !l.startsWith("upd"));
	return { agent, streamFn, events, labels };
}

describe("model messages per call (default convertToLlm)", () => {
	it("each call gets the transcript's model messages so far, in order, in an array of its own", async () => {
		const inner = scriptedStream([{ toolCalls: [call("t1", "h")] }, { text: ["after tool"] }, { text: ["after steer"] }]);
		const seen: { messages: unknown[]; length: number }[] = [];
		const streamFn = ((model, context, options) => {
			seen.push({ messages: context.messages, length: context.messages.length });
			return inner(model, context, options);
		}) as typeof inner;
		const note = (text: string) => ({ role: "note", text, timestamp: 0 }) as unknown as AgentMessage;
		const agent = new Agent({
			streamFn,
			steeringMode: "all",
			initialState: {
				model: testModel,
				tools: [tool("h", async () => ok())],
				messages: [user("old"), note("n0"), assistant("old answer")],
			},
		});
		agent.subscribe((e) => {
			// During the second reply: a custom message and a user message are queued as steering.
			if (e.type === "message_start" && e.message.role === "assistant" && seen.length === 2) {
				agent.steer(note("n1"));
				agent.steer(user("steer"));
			}
		});
		await agent.prompt("go");
		const transcript = agent.state.messages;
		expect(transcript.map((m) => m.role)).toEqual([
			"user",
			"note",
			"assistant",
			"user",
			"assistant",
			"toolResult",
			"assistant",
			"note",
			"user",
			"assistant",
		]);
		const model = transcript.filter((m) => (m.role as string) !== "note");
		expect(seen.map((s) => s.messages)).toEqual([model.slice(0, 3), model.slice(0, 5), model.slice(0, 7)]);
		// No call's array grew with the run.
		for (const s of seen) expect(s.messages).toHaveLength(s.length);
		expect(new Set(seen.map((s) => s.messages)).size).toBe(3);
	});
});

describe("Agent scenarios (docs/agent-contract.md §10)", () => {
	it("A: a plain prompt streams a reply with the exact event order and state", async () => {
		const { agent, events } = makeAgent([{ text: ["Hel", "lo"] }]);
		const streaming: boolean[] = [];
		const streamingRoles: (string | undefined)[] = [];
		agent.subscribe((e) => {
			streaming.push(agent.state.isStreaming);
			if (e.type === "message_end") streamingRoles.push(agent.state.streamingMessage?.role);
		});
		await agent.prompt("hi");
		expect(events.map(label)).toEqual([
			"agent_start",
			"turn_start",
			"ms user(hi)",
			"me user(hi)",
			"ms assistant",
			"upd text_start",
			"upd text_delta",
			"upd text_delta",
			"upd text_end",
			"me assistant(stop)",
			"turn_end()",
			"agent_end",
		]);
		expect(streaming.every(Boolean)).toBe(true);
		expect(streamingRoles).toEqual([undefined, undefined]);
		expect(agent.state.isStreaming).toBe(false);
		expect(agent.state.messages.map(textOf)).toEqual(["hi", "Hello"]);
		expect(agent.state.messages[1]).toBe((events.at(-3) as any).message);
		expect((events[2] as any).message.content).toEqual([{ type: "text", text: "hi" }]);
	});

	it("A: a stream that only sends done gives ms/me of the final copy and no updates", async () => {
		const { agent, labels, events } = makeAgent([{ text: ["x"], doneOnly: true }]);
		await agent.prompt("hi");
		expect(labels()).toEqual([
			"agent_start",
			"turn_start",
			"ms user(hi)",
			"me user(hi)",
			"ms assistant",
			"me assistant(stop)",
			"turn_end()",
			"agent_end",
		]);
		expect(events.some((e) => e.type === "message_update")).toBe(false);
	});

	it("B: pendingToolCalls is replaced on every change and empty when settled", async () => {
		const gate = deferred();
		const sets: ReadonlySet<string>[] = [];
		const { agent } = makeAgent([{ toolCalls: [call("t1", "slow"), call("t2", "fast")] }, { text: ["x"] }], {}, [
			tool("slow", async () => {
				await gate.promise;
				return ok();
			}),
			tool("fast", async () => {
				setImmediate(() => gate.resolve());
				return ok();
			}),
		]);
		agent.subscribe((e) => {
			if (e.type === "tool_execution_start" || e.type === "tool_execution_end") sets.push(agent.state.pendingToolCalls);
		});
		await agent.prompt("go");
		expect(sets.map((s) => [...s])).toEqual([["t1"], ["t1", "t2"], ["t1"], []]);
		expect(new Set(sets).size).toBe(4);
		expect(agent.state.pendingToolCalls.size).toBe(0);
	});

	it("E: steering queued before prompt is injected in the first turn, after the prompt", async () => {
		const { agent, labels } = makeAgent([{ text: ["a"] }]);
		agent.steer(user("pre-steer"));
		await agent.prompt("go");
		expect(labels().slice(0, 7)).toEqual([
			"agent_start",
			"turn_start",
			"ms user(go)",
			"me user(go)",
			"ms user(pre-steer)",
			"me user(pre-steer)",
			"ms assistant",
		]);
	});

	it("E: steering during a streamed text reply runs one more turn after it", async () => {
		const { agent, labels } = makeAgent([{ text: ["a", "b"] }, { text: ["c"] }]);
		let sent = false;
		agent.subscribe((e) => {
			if (e.type === "message_update" && !sent) {
				sent = true;
				agent.steer(user("S1"));
			}
		});
		await agent.prompt("go");
		expect(labels().slice(-9)).toEqual([
			"me assistant(stop)",
			"turn_end()",
			"turn_start",
			"ms user(S1)",
			"me user(S1)",
			"ms assistant",
			"me assistant(stop)",
			"turn_end()",
			"agent_end",
		]);
	});

	it("F: follow-ups one at a time make one turn each; 'all' injects both in one turn", async () => {
		const one = makeAgent([{ text: ["r1"] }, { text: ["r2"] }, { text: ["r3"] }]);
		one.agent.followUp(user("F1"));
		one.agent.followUp(user("F2"));
		await one.agent.prompt("go");
		const endMessages = (one.events.at(-1) as any).messages;
		expect(endMessages.map(textOf)).toEqual(["go", "r1", "F1", "r2", "F2", "r3"]);
		expect(one.labels().filter((l) => l === "turn_start")).toHaveLength(3);

		const all = makeAgent([{ text: ["r1"] }, { text: ["r2"] }], { followUpMode: "all" });
		all.agent.followUp(user("F1"));
		all.agent.followUp(user("F2"));
		await all.agent.prompt("go");
		expect(all.labels().slice(-9)).toEqual([
			"turn_start",
			"ms user(F1)",
			"me user(F1)",
			"ms user(F2)",
			"me user(F2)",
			"ms assistant",
			"me assistant(stop)",
			"turn_end()",
			"agent_end",
		]);
	});

	it("G: abort during streaming ends with an aborted reply; queues stay intact", async () => {
		const { agent, labels, events } = makeAgent([{ text: ["a", "b", "c", "d"] }]);
		agent.followUp(user("later"));
		let signalAborted = false;
		agent.subscribe((e, signal) => {
			if (e.type === "message_update" && e.assistantMessageEvent.type === "text_delta" && e.assistantMessageEvent.delta === "b")
				agent.abort();
			if (e.type === "agent_end") signalAborted = signal.aborted;
		});
		await agent.prompt("go");
		expect(labels().slice(-4)).toEqual(["ms assistant", "me assistant(aborted)", "turn_end()", "agent_end"]);
		const last = agent.state.messages.at(-1) as AssistantMessage;
		expect(last).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted" });
		expect(textOf(last)).toBe("ab");
		expect(agent.state.errorMessage).toBe("Request was aborted");
		expect(signalAborted).toBe(true);
		expect(agent.hasQueuedMessages()).toBe(true);
		expect(events.filter((e) => e.type === "agent_end")).toHaveLength(1);
	});

	it("G: abort() in the same tick as prompt() aborts before the model is asked", async () => {
		const { agent, labels, streamFn } = makeAgent([{ text: ["never"] }]);
		const running = agent.prompt("go");
		agent.abort();
		await running;
		expect(labels()).toEqual([
			"agent_start",
			"turn_start",
			"ms user(go)",
			"me user(go)",
			"ms assistant",
			"me assistant(aborted)",
			"turn_end()",
			"agent_end",
		]);
		expect(streamFn.calls).toHaveLength(0);
	});

	it("H: an abort during tools costs no extra model call", async () => {
		const { agent, streamFn } = makeAgent([{ toolCalls: [call("t1", "h")] }, { text: ["never"] }], {}, [
			tool("h", (_id, _a, signal) => {
				agent.abort();
				return Promise.reject(new Error(signal?.aborted ? "aborted by signal" : "not aborted"));
			}),
		]);
		await agent.prompt("go");
		expect(streamFn.calls).toHaveLength(1);
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(textOf(agent.state.messages[2])).toBe("aborted by signal");
		expect(agent.state.isStreaming).toBe(false);
	});

	it("I: an error event records errorMessage, keeps follow-ups queued, and answers its tool calls", async () => {
		const { agent, labels } = makeAgent([{ toolCalls: [call("t1", "a")], stop: "error", errorMessage: "HTTP 500" }], {}, [
			tool("a", async () => ok()),
		]);
		agent.followUp(user("f"));
		await agent.prompt("go");
		expect(agent.state.errorMessage).toBe("HTTP 500");
		expect(agent.hasQueuedMessages()).toBe(true);
		expect(labels().slice(-5)).toEqual(["me assistant(error)", "ms toolResult t1", "me toolResult t1", "turn_end(t1)", "agent_end"]);
		expect(textOf(agent.state.messages.at(-1))).toBe(NOT_RUN_TEXT.replyError);
	});

	it("J: a throwing stream function, convertToLlm or missing provider emits the complete failure sequence", async () => {
		const failures: [string, AgentOptions][] = [
			[
				"stream down",
				{
					streamFn: () => {
						throw new Error("stream down");
					},
				},
			],
			[
				"convert failed",
				{
					convertToLlm: () => {
						throw new Error("convert failed");
					},
				},
			],
			["No API provider registered for api: unknown", { streamFn: undefined, initialState: {} }],
		];
		for (const [text, options] of failures) {
			const agent = new Agent({ streamFn: scriptedStream([]), initialState: { model: testModel }, ...options });
			const events: AgentEvent[] = [];
			agent.subscribe((e) => {
				events.push(e);
			});
			await agent.prompt("go");
			expect(events.map(label)).toEqual([
				"agent_start",
				"turn_start",
				"ms user(go)",
				"me user(go)",
				"ms assistant",
				"me assistant(error)",
				"turn_end()",
				"agent_end",
			]);
			expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
			expect(agent.state.messages[1]).toMatchObject({ stopReason: "error", errorMessage: text, content: [{ type: "text", text: "" }] });
			expect((events.at(-1) as any).messages).toEqual([agent.state.messages[1]]);
			expect(agent.state.errorMessage).toBe(text);
			expect(agent.state.isStreaming).toBe(false);
		}
	});

	it("K: a throwing subscriber neither fails the run nor starves later subscribers; the error is reported", async () => {
		const reported: string[] = [];
		const { agent, events } = makeAgent([{ text: ["ok"] }], {
			onListenerError: (error, event) => reported.push(`${event.type}: ${(error as Error).message}`),
		});
		const later: string[] = [];
		agent.subscribe((e) => {
			if (e.type === "message_end" || e.type === "agent_end") throw new Error("listener boom");
		});
		agent.subscribe(async (e) => {
			later.push(e.type);
		});
		await expect(agent.prompt("go")).resolves.toBeUndefined();
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(agent.state.errorMessage).toBeUndefined();
		expect(later).toEqual(events.map((e) => e.type));
		expect(reported).toEqual(["message_end: listener boom", "message_end: listener boom", "agent_end: listener boom"]);
	});

	it("K: the default reporter writes one console.error line", async () => {
		const { agent } = makeAgent([{ text: ["ok"] }]);
		agent.subscribe(async (e) => {
			if (e.type === "agent_end") throw new Error("late boom\nsecond line");
		});
		const original = console.error;
		const lines: string[] = [];
		console.error = (...args: unknown[]) => lines.push(args.join(" "));
		try {
			await agent.prompt("go");
		} finally {
			console.error = original;
		}
		expect(lines).toEqual(["Agent listener failed on agent_end: late boom"]);
	});

	it("L: continue() from an assistant drains steering one at a time before follow-ups", async () => {
		const { agent, labels, streamFn } = makeAgent([{ text: ["r1"] }, { text: ["r2"] }, { text: ["r3"] }]);
		agent.state.messages = [user("u"), assistant("a")];
		agent.steer(user("s1"));
		agent.steer(user("s2"));
		agent.followUp(user("f1"));
		await agent.continue();
		expect(labels()).toEqual([
			"agent_start",
			"turn_start",
			"ms user(s1)",
			"me user(s1)",
			"ms assistant",
			"me assistant(stop)",
			"turn_end()",
			"turn_start",
			"ms user(s2)",
			"me user(s2)",
			"ms assistant",
			"me assistant(stop)",
			"turn_end()",
			"turn_start",
			"ms user(f1)",
			"me user(f1)",
			"ms assistant",
			"me assistant(stop)",
			"turn_end()",
			"agent_end",
		]);
		expect(streamFn.calls).toHaveLength(3);
		expect(agent.state.messages.slice(-4).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
	});

	it("M: continue() from a user message emits only the reply", async () => {
		const { agent, labels, events } = makeAgent([{ text: ["r"] }]);
		agent.state.messages = [user("u")];
		await agent.continue();
		expect(labels()).toEqual(["agent_start", "turn_start", "ms assistant", "me assistant(stop)", "turn_end()", "agent_end"]);
		expect((events.at(-1) as any).messages.map((m: any) => m.role)).toEqual(["assistant"]);
	});
});

describe("Agent API (docs/agent-contract.md §6, §10)", () => {
	let faux: FauxProviderRegistration | undefined;
	afterEach(() => {
		faux?.unregister();
		faux = undefined;
	});

	it("has the documented defaults and copies initial arrays", () => {
		const tools = [tool("a", async () => ok())];
		const agent = new Agent({ initialState: { tools, systemPrompt: "sp", thinkingLevel: "high" } });
		expect(agent.state).toMatchObject({
			systemPrompt: "sp",
			thinkingLevel: "high",
			isStreaming: false,
			errorMessage: undefined,
			streamingMessage: undefined,
		});
		expect(agent.state.model.api).toBe("unknown");
		expect(agent.state.tools).not.toBe(tools);
		const defaults = new Agent();
		expect(defaults.state.thinkingLevel).toBe("off");
		expect(defaults.toolExecution).toBe("parallel");
		expect(defaults.transport).toBe("auto");
		expect(defaults.steeringMode).toBe("one-at-a-time");
	});

	it("copies arrays on assignment, the getter is live, and reset clears queues", () => {
		const agent = new Agent();
		const messages = [user("a")];
		agent.state.messages = messages;
		expect(agent.state.messages).not.toBe(messages);
		agent.state.messages.push(user("b"));
		expect(agent.state.messages).toHaveLength(2);
		agent.steer(user("s"));
		agent.followUp(user("f"));
		agent.reset();
		expect(agent.state.messages).toEqual([]);
		expect(agent.hasQueuedMessages()).toBe(false);
	});

	it("queue modes, explicit clearing, busy guards with the exact texts, steer/followUp not in the transcript", async () => {
		const gate = deferred();
		const { agent } = makeAgent([{ text: ["x"], hold: gate.promise }]);
		agent.steeringMode = "all";
		expect(agent.steeringMode).toBe("all");
		agent.followUpMode = "all";
		agent.steer(user("s"));
		agent.clearSteeringQueue();
		agent.followUp(user("f"));
		expect(agent.getQueuedMessages().followUp.map(textOf)).toEqual(["f"]);
		agent.clearFollowUpQueue();
		agent.steer(user("s"));
		agent.followUp(user("f"));
		agent.clearAllQueues();
		expect(agent.hasQueuedMessages()).toBe(false);
		expect(agent.state.messages).toHaveLength(0);
		expect(() => agent.abort()).not.toThrow();
		const running = agent.prompt("go");
		expect(agent.signal).toBeInstanceOf(AbortSignal);
		await expect(agent.prompt("again")).rejects.toThrow(
			"Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.",
		);
		await expect(agent.continue()).rejects.toThrow("Agent is already processing. Wait for completion before continuing.");
		gate.resolve();
		await running;
		expect(agent.signal).toBeUndefined();
		await expect(new Agent().continue()).rejects.toThrow("No messages to continue from");
		await expect(agent.continue()).rejects.toThrow("Cannot continue from message role: assistant");
	});

	it("normalizes prompt input: text + images, a message, an array", async () => {
		const { agent, streamFn } = makeAgent([{ text: ["1"] }, { text: ["2"] }, { text: ["3"] }]);
		const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
		await agent.prompt("look", [image]);
		expect(agent.state.messages[0]).toMatchObject({ role: "user", content: [{ type: "text", text: "look" }, image] });
		await agent.prompt(user("one"));
		await agent.prompt([user("two"), user("three")]);
		expect(agent.state.messages.map(textOf)).toEqual(["look", "1", "one", "2", "two", "three", "3"]);
		expect(streamFn.calls).toHaveLength(3);
	});

	it("forwards sessionId and thinking level; changes apply to the next run", async () => {
		const { agent, streamFn } = makeAgent([{ text: ["1"] }, { text: ["2"] }], { sessionId: "s1" });
		agent.state.thinkingLevel = "medium";
		await agent.prompt("a");
		agent.sessionId = "s2";
		await agent.prompt("b");
		expect(streamFn.calls.map((c) => c.options?.sessionId)).toEqual(["s1", "s2"]);
		expect(streamFn.calls[0].options?.reasoning).toBe("medium");
	});

	it("runs against the faux provider through streamSimple by default", async () => {
		faux = registerFauxProvider({ api: "faux-agent-test" });
		faux.setResponses([fauxAssistantMessage([fauxText("from faux")])]);
		const agent = new Agent({ initialState: { model: faux.getModel() } });
		await agent.prompt("hi");
		expect(textOf(agent.state.messages[1])).toBe("from faux");
	});

	it("reset() during a run aborts it, and the run's late events do not touch the fresh state", async () => {
		const gate = deferred();
		const { agent, streamFn } = makeAgent([{ text: ["a"], hold: gate.promise, ignoreAbort: true }], { abortGraceMs: 10_000 });
		const running = agent.prompt("go");
		await new Promise((r) => setTimeout(r, 5));
		const signal = agent.signal;
		agent.reset();
		expect(signal?.aborted).toBe(true);
		expect(agent.state.isStreaming).toBe(false);
		agent.followUp(user("kept"));
		gate.resolve();
		await running;
		expect(agent.state.messages).toEqual([]);
		expect(agent.hasQueuedMessages()).toBe(true);
		expect(streamFn.calls).toHaveLength(1);
	});

	it("a late onUpdate after the run is ignored, not an unhandled rejection", async () => {
		let late: (() => void) | undefined;
		const { agent, events } = makeAgent([{ toolCalls: [call("t1", "u")] }, { text: ["x"] }], {}, [
			tool("u", async (_id, _a, _s, onUpdate) => {
				late = () => onUpdate?.(ok("late"));
				return ok();
			}),
		]);
		await agent.prompt("go");
		const count = events.length;
		expect(() => late?.()).not.toThrow();
		await new Promise((r) => setTimeout(r, 5));
		expect(events.length).toBe(count);
	});

	it("a stale run's onUpdate after prompt() on a new run does not leak into it", async () => {
		let late: (() => void) | undefined;
		const gate = deferred();
		const { agent, events } = makeAgent([{ toolCalls: [call("t1", "u")] }, { text: ["x"] }, { text: ["y"], hold: gate.promise }], {}, [
			tool("u", async (_id, _a, _s, onUpdate) => {
				late = () => onUpdate?.(ok("late"));
				return ok();
			}),
		]);
		await agent.prompt("go");
		const second = agent.prompt("again");
		late?.();
		gate.resolve();
		await second;
		expect(events.filter((e) => e.type === "tool_execution_update")).toHaveLength(0);
	});
});
