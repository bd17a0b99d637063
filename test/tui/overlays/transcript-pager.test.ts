// The sub-agent transcript pager's lines and scrolling: every kind of message in full, fitted to the
// width, text from the model made safe for the screen; opened at the end, scrolled within its lines.
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../src/agent/types.js";
import { emptyUsage } from "../../../src/ai/usage.js";
import type { SubAgentMessages } from "../../../src/session/types.js";
import { openTranscriptPager, refreshTranscriptPager, transcriptPagerKey } from "../../../src/tui/overlays/transcript-pager.js";

const info = {
	agentId: "explore-1",
	parentToolCallId: "t1",
	name: "explore",
	task: "look\nhere",
	status: "done" as const,
	startedAt: 0,
	elapsedMs: 0,
	tokens: 0,
};

function transcript(messages: AgentMessage[]): SubAgentMessages {
	return { info, messages };
}

const assistant = (content: unknown[]): AgentMessage =>
	({
		role: "assistant",
		content,
		api: "x",
		provider: "x",
		model: "x",
		usage: emptyUsage(),
		stopReason: "stop",
		timestamp: 0,
	}) as AgentMessage;

describe("the sub-agent transcript pager", () => {
	it("shows the prompt, thinking, text, tool calls and whole results, wrapped; escape sequences never reach the screen", () => {
		const pager = openTranscriptPager(
			transcript([
				{ role: "user", content: "Find alpha", timestamp: 0 },
				assistant([
					{ type: "thinking", thinking: "where?" },
					{ type: "toolCall", id: "c1", name: "ls", arguments: { path: "." } },
				]),
				{
					role: "toolResult",
					toolCallId: "c1",
					toolName: "ls",
					content: [{ type: "text", text: `a.txt\n\x1b]52;c;aGk=\x07b.txt\n${"x".repeat(50)}` }],
					isError: false,
					timestamp: 0,
				},
				assistant([{ type: "text", text: "alpha is in a.txt" }]),
			]),
			30,
			100,
		);
		expect(pager.title).toBe("Sub-agent explore (explore-1) · done · look here");
		expect(pager.lines[0]).toBe("› Find alpha");
		expect(pager.lines[1]).toBe("  ∴ where?");
		expect(pager.lines[2]).toMatch(/^⏺ ls\(/);
		expect(pager.lines[3]).toBe("  ⎿ a.txt");
		expect(pager.lines.join("\n")).not.toContain("\x1b");
		expect(pager.lines.join("\n")).toContain("b.txt");
		// A 54-cell line at width 30 is two rows, none wider than the width.
		expect(pager.lines.filter((l) => l.includes("xxx"))).toHaveLength(2);
		for (const line of pager.lines) expect(line.length).toBeLessThanOrEqual(30);
		expect(pager.lines.at(-1)).toBe("  alpha is in a.txt");
	});

	it("opens at the end; lines and pages scroll within the transcript; pagerClose closes it", () => {
		const many = Array.from({ length: 20 }, (_, i) => assistant([{ type: "text", text: `line ${i}` }]));
		const open = openTranscriptPager(transcript(many), 80, 5);
		expect(open.top).toBe(15);
		expect(transcriptPagerKey(open, "pagerDown", 5)?.top).toBe(15);
		expect(transcriptPagerKey(open, "pagerUp", 5)?.top).toBe(14);
		expect(transcriptPagerKey(open, "pagerPageUp", 5)?.top).toBe(10);
		const top = transcriptPagerKey({ ...open, top: 2 }, "pagerPageUp", 5);
		expect(top?.top).toBe(0);
		expect(transcriptPagerKey(open, undefined, 5)).toBe(open);
		expect(transcriptPagerKey(open, "pagerClose", 5)).toBeUndefined();
		expect(openTranscriptPager(transcript([]), 80, 5).lines).toEqual(["(no finished message yet)"]);
	});

	it("drawn again as the sub-agent goes on: at the end it follows the end, scrolled up it keeps its place, unchanged it is the same state", () => {
		const lines = (n: number) => Array.from({ length: n }, (_, i) => assistant([{ type: "text", text: `line ${i}` }]));
		const first = openTranscriptPager(transcript(lines(10)), 40, 4);
		expect(first.top).toBe(6);
		expect(refreshTranscriptPager(first, transcript(lines(10)), 40, 4)).toBe(first);
		const followed = refreshTranscriptPager(first, transcript(lines(15)), 40, 4);
		expect(followed.top).toBe(11);
		const scrolled = transcriptPagerKey(first, "pagerUp", 4) as ReturnType<typeof openTranscriptPager>;
		expect(refreshTranscriptPager(scrolled, transcript(lines(15)), 40, 4).top).toBe(5);
		const finished = refreshTranscriptPager(followed, { info: { ...info, status: "done" }, messages: lines(15) }, 40, 4);
		expect(finished).toBe(followed);
	});
});
