import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent.js";
import { createAssistantMessageEventStream } from "../../src/ai/event-stream.js";
import { createOutputMessage } from "../../src/ai/usage.js";
import { checkTranscript, runScenario, scenarioArbitrary } from "./agent-random-body.js";

const lib = { Agent, createAssistantMessageEventStream, createOutputMessage };

describe("Agent under random interleavings", () => {
	it("keeps events balanced, the transcript valid, nothing lost, and settles (250 scenarios)", async () => {
		await fc.assert(
			fc.asyncProperty(scenarioArbitrary(fc), (scenario) => runScenario(lib, scenario)),
			{ numRuns: 250 },
		);
	}, 60_000);

	it("the transcript check catches an unanswered tool call and a duplicate result", () => {
		const call = { type: "toolCall" as const, id: "c1", name: "x", arguments: {} };
		const asst = {
			role: "assistant" as const,
			content: [call],
			api: "a",
			provider: "p",
			model: "m",
			usage: {} as any,
			stopReason: "toolUse" as const,
			timestamp: 0,
		};
		const result = { role: "toolResult" as const, toolCallId: "c1", toolName: "x", content: [], isError: false, timestamp: 0 };
		expect(() => checkTranscript([asst], 0)).toThrow("tool calls without results");
		expect(() => checkTranscript([asst, result, result], 0)).toThrow("without an open call");
		expect(() => checkTranscript([asst, result], 0)).not.toThrow();
	});
});
