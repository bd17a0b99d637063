import { afterEach, describe, expect, it } from "vitest";
import type { AgentMessage } from "../../src/agent/types.js";
import { type AssistantMessage, emptyUsage, fauxAssistantMessage, fauxText, fauxToolCall, type UserMessage } from "../../src/ai/index.js";
import { findCutIndex, isContextOverflowError, serializeForSummary, shouldCompact } from "../../src/session/compaction.js";
import { loadSession } from "../../src/session/session-load.js";
import { defaultSettings, mergeSettings } from "../../src/session/settings.js";
import { createFixture, type Fixture, userTexts } from "./session-fixture.js";

const user = (text: string): UserMessage => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
const call = (id: string, payload: string): AssistantMessage => ({
	role: "assistant",
	content: [{ type: "toolCall", id, name: "read", arguments: { path: payload } }],
	api: "faux",
	provider: "faux",
	model: "faux-1",
	usage: emptyUsage(),
	stopReason: "toolUse",
	timestamp: 1,
});
const result = (id: string, text: string): AgentMessage => ({
	role: "toolResult",
	toolCallId: id,
	toolName: "read",
	content: [{ type: "text", text }],
	isError: false,
	timestamp: 1,
});

describe("findCutIndex", () => {
	const big = "x".repeat(400); // 100 tokens
	const transcript: AgentMessage[] = [
		user("task one"),
		call("a", big),
		result("a", big),
		user("task two"),
		call("b", big),
		result("b", big),
		call("c", big),
		result("c", big),
		user("task three"),
		call("d", big),
		result("d", big),
	];

	it("cuts only before a user message, so no tool call is separated from its result", () => {
		for (let keep = 0; keep < 1_500; keep += 25) {
			const cut = findCutIndex(transcript, keep);
			expect(cut).toBeDefined();
			expect(transcript[cut as number].role).toBe("user");
			const kept = transcript.slice(cut);
			const calls = new Set(
				kept.flatMap((m) => (m.role === "assistant" ? m.content.flatMap((c) => (c.type === "toolCall" ? [c.id] : [])) : [])),
			);
			for (const m of kept) if (m.role === "toolResult") expect(calls.has(m.toolCallId)).toBe(true);
		}
	});

	it("keeps at least keepRecentTokens when it can, else the last turn, and never cuts at 0", () => {
		expect(findCutIndex(transcript, 150)).toBe(8);
		expect(findCutIndex(transcript, 300)).toBe(3);
		expect(findCutIndex(transcript, 100_000)).toBe(8);
		expect(findCutIndex([user("only"), call("a", big), result("a", big)], 0)).toBeUndefined();
	});

	it("serialises tool calls and results as text for the summariser", () => {
		const text = serializeForSummary(transcript.slice(0, 3));
		expect(text).toContain("[User]: task one");
		expect(text).toContain('[Assistant tool call]: read({"path":"xxxx');
		expect(text).toContain("[Tool result read]: xxxx");
	});
});

describe("triggers", () => {
	it.each([
		["This model's maximum context length is 128000 tokens", true],
		["prompt is too long: 210000 tokens > 200000 maximum", true],
		["Request has too many tokens", true],
		["input exceeds the context window of this model", true],
		["rate limit exceeded", false],
		[undefined, false],
	])("recognises overflow in %j: %s", (text, expected) => {
		expect(isContextOverflowError(text)).toBe(expected);
	});

	it("compacts above window minus reserve, only when enabled", () => {
		const settings = { ...defaultSettings.compaction, reserveTokens: 1_000 };
		expect(shouldCompact(9_001, 10_000, settings)).toBe(true);
		expect(shouldCompact(9_000, 10_000, settings)).toBe(false);
		expect(shouldCompact(9_001, 10_000, { ...settings, enabled: false })).toBe(false);
	});
});

describe("compaction in a session", () => {
	let fx: Fixture;
	afterEach(async () => {
		await fx?.cleanup();
	});

	const turn = (id: string) => [
		fauxAssistantMessage([fauxToolCall("ls", { path: "." }, { id: id })]),
		fauxAssistantMessage([fauxText(`finished ${id} ${"y".repeat(200)}`)]),
	];

	it("/compact summarises older turns, keeps pairs together, records it in the file, and the session continues", async () => {
		fx = await createFixture({ settings: { compaction: { keepRecentTokens: 50 } } });
		fx.faux.setResponses([...turn("one"), ...turn("two")]);
		await fx.session.prompt("first task");
		await fx.session.prompt("second task");
		expect(fx.session.getState().messages).toHaveLength(8);

		fx.faux.setResponses([fauxAssistantMessage([fauxText("SUMMARY: listed the folder for the first task.")])]);
		await fx.session.submit("/compact focus on files");
		const end = await fx.waitForEvent("compaction_end");
		expect(end).toMatchObject({ reason: "manual", summary: "SUMMARY: listed the folder for the first task." });
		const summaryCall = fx.faux.calls.at(-1)!;
		expect(summaryCall.context.systemPrompt).toMatch(/summarise a conversation/);
		expect(userTexts(fx.faux, fx.faux.calls.length - 1)[0]).toContain("[User]: first task");
		expect(userTexts(fx.faux, fx.faux.calls.length - 1)[0]).toContain("Additional instructions from the user: focus on files");

		const after = fx.session.getState().messages;
		expect(after.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant", "toolResult", "assistant"]);
		expect(fx.session.getState().isCompacting).toBe(false);

		// The file keeps everything and resumes to the same context.
		const file = fx.session.getState().sessionFile as string;
		const loaded = loadSession(file);
		expect(loaded.entries.filter((e) => e.type === "message")).toHaveLength(8);
		expect(loaded.messages).toEqual(JSON.parse(JSON.stringify(after)));

		fx.faux.setResponses([fauxAssistantMessage([fauxText("continuing")])]);
		await fx.session.prompt("third task");
		const sent = fx.faux.calls.at(-1)!.context.messages;
		// The summary and the first kept prompt go as one user turn (providers want turns to alternate).
		expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant", "user"]);
		expect(userTexts(fx.faux, fx.faux.calls.length - 1)[0]).toContain("SUMMARY: listed the folder");
		expect(fx.session.getState().messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });

		// A second compaction after a resume names the first kept message by its entry id.
		await fx.session.dispose();
		const resumed = await fx.open({
			sessionMode: { kind: "file", path: file },
			settings: mergeSettings({ compaction: { keepRecentTokens: 5 } }),
		});
		fx.faux.setResponses([fauxAssistantMessage([fauxText("SUMMARY 2")])]);
		await resumed.compact();
		const reloaded = loadSession(file);
		expect(reloaded.messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant"]);
		expect(reloaded.messages[0]).toMatchObject({ summary: "SUMMARY 2" });
		expect(reloaded.messages[1]).toMatchObject({ content: [{ type: "text", text: "third task" }] });
		const messageIds = reloaded.entries.filter((e) => e.type === "message").map((e) => e.id);
		expect(reloaded.messageEntryIds).toEqual([undefined, messageIds[8], messageIds[9]]);
		expect(reloaded.messages).toEqual(JSON.parse(JSON.stringify(resumed.getState().messages)));
		await resumed.dispose();
	});

	it("compacts automatically after a run that nears the window", async () => {
		fx = await createFixture({ settings: { compaction: { reserveTokens: 100, keepRecentTokens: 10 } } });
		fx.session.agent.state.model = { ...fx.faux.getModel(), contextWindow: 1_000 };
		fx.faux.setResponses([
			fauxAssistantMessage([fauxText("small")], { usage: { input: 100 } }),
			fauxAssistantMessage([fauxText("big")], { usage: { input: 950 } }),
			fauxAssistantMessage([fauxText("auto summary")]),
		]);
		await fx.session.prompt("one");
		expect(fx.events.some((e) => e.type === "compaction_start")).toBe(false);
		await fx.session.prompt("two");
		expect(await fx.waitForEvent("compaction_end")).toMatchObject({ reason: "threshold", summary: "auto summary" });
		expect(fx.session.getState().messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant"]);
		expect(fx.session.getState().contextTokens).toBeLessThan(900);
	});

	it("on a context-overflow error compacts, then retries once and recovers", async () => {
		fx = await createFixture({ settings: { compaction: { keepRecentTokens: 10 } } });
		fx.faux.setResponses([
			fauxAssistantMessage([fauxText("early answer")]),
			fauxAssistantMessage([], { stopReason: "error", errorMessage: "prompt is too long: 250000 tokens > 200000 maximum" }),
			fauxAssistantMessage([fauxText("summary of the early part")]),
			fauxAssistantMessage([fauxText("recovered")]),
		]);
		await fx.session.prompt("early");
		// submit + waitForIdle: idle must mean after the compaction and the retry, not between them.
		await fx.session.submit("huge question");
		await fx.session.waitForIdle();
		expect(fx.events.find((e) => e.type === "compaction_end")).toMatchObject({ reason: "overflow" });
		const roles = fx.session.getState().messages.map((m) => m.role);
		expect(roles).toEqual(["compactionSummary", "user", "assistant"]);
		expect(fx.session.getState().messages.at(-1)).toMatchObject({ content: [{ type: "text", text: "recovered" }] });
		expect(userTexts(fx.faux, 3)).toEqual([expect.stringMatching(/summary of the early part[\s\S]*huge question$/)]);
		// The failed reply stays in the file for the record; a resume does not bring it back.
		const file = fx.session.getState().sessionFile as string;
		expect(loadSession(file).entries.filter((e) => e.type === "message")).toHaveLength(5);
		expect(loadSession(file).messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant", "assistant"]);
	});

	it("retries an overflow only once", async () => {
		fx = await createFixture({ settings: { compaction: { keepRecentTokens: 10 } } });
		const overflow = fauxAssistantMessage([], { stopReason: "error" as const, errorMessage: "maximum context length exceeded" });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("a")]), overflow, fauxAssistantMessage([fauxText("sum")]), overflow]);
		await fx.session.prompt("early");
		await fx.session.prompt("again");
		expect(fx.faux.calls).toHaveLength(4);
		expect(fx.session.getState().messages.at(-1)).toMatchObject({ stopReason: "error" });
	});

	it("reports a failed summary without losing the transcript", async () => {
		fx = await createFixture();
		fx.faux.setResponses([
			fauxAssistantMessage([fauxText("a")]),
			fauxAssistantMessage([fauxText("b")]),
			fauxAssistantMessage([], { stopReason: "error", errorMessage: "server down" }),
		]);
		await fx.session.prompt("one");
		await fx.session.prompt("two");
		await expect(fx.session.compact()).rejects.toThrow("Summarisation failed: server down");
		expect(await fx.waitForEvent("compaction_end")).toMatchObject({ error: "Summarisation failed: server down" });
		expect(fx.session.getState().messages).toHaveLength(4);
	});

	it("sends input typed during a compaction once it ends", async () => {
		fx = await createFixture({ settings: { compaction: { keepRecentTokens: 5 } } });
		let release!: () => void;
		const gate = new Promise<void>((r) => {
			release = r;
		});
		fx.faux.setResponses([
			fauxAssistantMessage([fauxText("a")]),
			fauxAssistantMessage([fauxText("b")]),
			async () => {
				await gate;
				return fauxAssistantMessage([fauxText("the summary")]);
			},
			fauxAssistantMessage([fauxText("answer to the queued question")]),
		]);
		await fx.session.prompt("one");
		await fx.session.prompt("two");
		const compaction = fx.session.compact();
		await fx.waitForEvent("compaction_start");
		expect(fx.session.getState().isCompacting).toBe(true);
		expect(await fx.session.submit("queued question")).toEqual({ kind: "steered" });
		release();
		await compaction;
		await fx.session.waitForIdle();
		expect(userTexts(fx.faux, 3).at(-1)).toBe("queued question");
		expect(fx.session.getState().messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant", "user", "assistant"]);
		expect(fx.session.getState().steering).toEqual([]);
	});
});
