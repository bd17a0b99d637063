// Background jobs through a real session: the model starts one, /ps lists and kills it, Esc (abort)
// leaves it running, and the model hears of its end at its next turn.
import { afterEach, describe, expect, it } from "vitest";
import type { AgentMessage } from "../../src/agent/types.js";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../src/ai/index.js";
import { createFixture, type Fixture } from "./session-fixture.js";

let fx: Fixture;
afterEach(async () => fx?.cleanup());

const userTexts = (messages: readonly AgentMessage[]) =>
	messages.flatMap((m) =>
		m.role === "user" ? [typeof m.content === "string" ? m.content : m.content.map((c) => (c.type === "text" ? c.text : "")).join("")] : [],
	);

describe("background jobs in a session", { timeout: 30_000 }, () => {
	it("/ps lists a running job and kills it; the next prompt carries a note of its end; abort leaves jobs alone", async () => {
		fx = await createFixture();
		const session = await fx.open({ tools: ["bash"], permissionMode: "yolo", sandboxFactory: () => undefined });
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo ready; sleep 60", run_in_background: true })]),
			fauxAssistantMessage([fauxText("started")]),
		]);
		await session.prompt("start it");
		session.abort();
		await session.submit("/ps");
		const listed = fx.notices().at(-1) ?? "";
		expect(listed).toMatch(/^bg1 {2}is running {2}\d+s {2}6B {2}echo ready; sleep 60$/);
		await session.submit("/ps kill bg1");
		expect(fx.notices().at(-1)).toBe("bg1 was killed: echo ready; sleep 60");
		await session.submit("/ps kill bg7");
		expect(fx.notices().at(-1)).toBe('No background job "bg7"');
		await session.submit("/ps");
		expect(fx.notices().at(-1)).toMatch(/^bg1 {2}was killed/);
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("next");
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("after");
		const texts = userTexts(session.getState().messages);
		expect(texts[1]).toBe("next\n\n[Background job bg1 (echo ready; sleep 60) was killed; bash_output bg1 has its output.]");
		expect(texts[2]).toBe("after");
	});
});
