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

	it("Ctrl+B (moveToBackground) turns the running bash call into a job: the model gets its id, the run goes on, /ps lists it", async () => {
		fx = await createFixture();
		const session = await fx.open({ tools: ["bash"], permissionMode: "yolo", sandboxFactory: () => undefined });
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo serving; sleep 60" })]),
			fauxAssistantMessage([fauxText("it runs in the background")]),
		]);
		expect(session.moveToBackground()).toEqual([]);
		expect(fx.notices().at(-1)).toBe("No bash command is running in the foreground.");
		const run = session.prompt("serve");
		await fx.waitForEvent("tool_execution_start");
		let moved: string[] = [];
		for (let i = 0; i < 200 && moved.length === 0; i++) {
			moved = session.moveToBackground();
			if (moved.length === 0) await new Promise((r) => setTimeout(r, 20));
		}
		expect(moved).toEqual(["bg1"]);
		expect(fx.notices().at(-1)).toBe("Moved to the background: bg1 (echo serving; sleep 60). /ps lists the jobs; Esc does not stop them.");
		await run;
		const result = session.getState().messages.find((m) => m.role === "toolResult");
		expect(result?.role === "toolResult" && result.isError).toBe(false);
		expect(JSON.stringify(result)).toContain("as job bg1; it keeps running");
		expect(fx.faux.calls).toHaveLength(2);
		await session.submit("/ps");
		expect(fx.notices().at(-1)).toMatch(/^bg1 {2}is running {2}\d+s {2}\d+B {2}echo serving; sleep 60$/);
		await session.submit("/ps kill bg1");
	});
	it("Ctrl+B while only the user's own !command runs says that one stays in the foreground (it is not the model's bash)", async () => {
		fx = await createFixture();
		const session = await fx.open({ tools: ["bash"], permissionMode: "yolo", sandboxFactory: () => undefined });
		const shell = session.runShell("sleep 30");
		expect(session.moveToBackground()).toEqual([]);
		expect(fx.notices().at(-1)).toBe("Ctrl+B moves the model's bash commands; your !command stays in the foreground (Esc stops it).");
		session.abortShells();
		expect((await shell).aborted).toBe(true);
		expect(session.moveToBackground()).toEqual([]);
		expect(fx.notices().at(-1)).toBe("No bash command is running in the foreground.");
	});
});
