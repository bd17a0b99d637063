// What the model is sent from a session's transcript, before every model call: the same as converting
// the whole transcript afresh (after appends, edits, dropped replies, side requests on a prefix), with
// the settled model messages the same objects from call to call (the provider sends their kept bytes).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../src/agent/types.js";
import type { AssistantMessage, Message } from "../../src/ai/types.js";
import { emptyUsage } from "../../src/ai/usage.js";
import { convertToLlm } from "../../src/session/session-messages.js";

let clock = 0;
const assistant = (content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"]): AgentMessage => ({
	role: "assistant",
	content,
	api: "openai-completions",
	provider: "p",
	model: "m",
	usage: emptyUsage(),
	stopReason,
	timestamp: ++clock,
});

/** Makers of fresh transcript messages of every kind convertToLlm treats differently. */
const kinds: Record<string, () => AgentMessage> = {
	prompt: () => ({ role: "user", content: `prompt ${++clock}`, timestamp: clock }),
	promptParts: () => ({ role: "user", content: [{ type: "text", text: `parts ${++clock}` }], timestamp: clock }),
	reply: () => assistant([{ type: "text", text: `reply ${clock}` }], "stop"),
	toolCall: () => assistant([{ type: "toolCall", id: `c${++clock}`, name: "read", arguments: {} }], "toolUse"),
	failedEmpty: () => assistant([], "error"),
	abortedEmpty: () => assistant([{ type: "text", text: " " }], "aborted"),
	failedWithText: () => assistant([{ type: "text", text: "half an answer" }], "error"),
	result: () => ({
		role: "toolResult",
		toolCallId: `c${clock}`,
		toolName: "read",
		content: [{ type: "text", text: "ok" }],
		isError: false,
		timestamp: ++clock,
	}),
	shell: () => ({ role: "shellOutput", command: "ls", output: "a\nb", exitCode: 0, timestamp: ++clock }),
	summary: () => ({ role: "compactionSummary", summary: "earlier work", tokensBefore: 100, timestamp: ++clock }),
};
const make = (kind: string) => (kinds[kind] as () => AgentMessage)();

/** The conversion of the whole transcript, nothing kept: the same messages under a first message never seen. */
function afresh(messages: AgentMessage[]): Message[] {
	const [first, ...rest] = messages;
	if (!first) return [];
	return convertToLlm([{ ...first }, ...rest]);
}

const step = fc.oneof(
	{ weight: 8, arbitrary: fc.constantFrom(...Object.keys(kinds)).map((kind) => ({ append: kind })) },
	{ weight: 1, arbitrary: fc.record({ replaceAt: fc.nat(), kind: fc.constantFrom(...Object.keys(kinds)) }) },
	{ weight: 1, arbitrary: fc.record({ dropFrom: fc.nat() }) },
	{ weight: 1, arbitrary: fc.record({ prefix: fc.nat() }) },
);

describe("convertToLlm before every model call", () => {
	it("gives what converting the whole transcript gives, and keeps the settled model messages the same objects", () => {
		fc.assert(
			fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
				let messages: AgentMessage[] = [];
				let previous: Message[] = [];
				// A transcript cut short looks like a side request on its start (`prefix`): that call is
				// converted without touching what is kept, so the call after it starts a new stretch.
				let afterCut = false;
				for (const s of steps) {
					if ("prefix" in s) {
						// A side request on an earlier part of the transcript: answered, the rest not forgotten.
						const part = messages.slice(0, s.prefix % (messages.length + 1));
						expect(convertToLlm(part)).toEqual(afresh(part));
						continue;
					}
					const grew = "append" in s;
					if ("append" in s) messages = [...messages, make(s.append)];
					else if ("dropFrom" in s) messages = messages.slice(0, s.dropFrom % (messages.length + 1));
					else if (messages.length > 0) {
						messages = [...messages];
						messages[s.replaceAt % messages.length] = make(s.kind);
					}
					const out = convertToLlm(messages);
					expect(out).toEqual(afresh(messages));
					if (grew && !afterCut) {
						// Up to the last reply or tool result of the call before, the very same objects.
						const settled = previous.findLastIndex((m) => m.role !== "user") + 1;
						for (let i = 0; i < settled; i++) expect(out[i]).toBe(previous[i]);
					}
					previous = out;
					afterCut = "dropFrom" in s;
				}
			}),
			{ numRuns: 300 },
		);
	});

	it("joins user turns that follow each other and drops a failed reply with the prompt that led to it", () => {
		const messages: AgentMessage[] = [make("prompt"), make("reply"), make("shell"), make("prompt"), make("failedEmpty"), make("prompt")];
		const first = convertToLlm(messages);
		expect(first.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
		// The `!cmd` output and the last prompt, one turn; the failed prompt is gone.
		expect(first[2]?.content).toEqual([
			{ type: "text", text: expect.stringContaining("$ ls") },
			{ type: "text", text: (messages[5] as { content: string }).content },
		]);
		messages.push(make("reply"));
		const second = convertToLlm(messages);
		expect(second.slice(0, 2)).toEqual(first.slice(0, 2));
		expect(second[0]).toBe(first[0]);
		expect(second.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
	});
});
