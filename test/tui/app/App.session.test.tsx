// The app over a real AgentSession (Agent, loop, queue) and the scripted faux provider.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { render } from "ink-testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type FauxProviderRegistration, fauxAssistantMessage, fauxText, registerFauxProvider } from "../../../src/ai/providers/faux.js";
import { createAgentSession } from "../../../src/session/assemble.js";
import type { AgentSessionApi } from "../../../src/session/types.js";
import { appOnSessionPerTest } from "./mount-app.js";

const _tick = () => new Promise((r) => setTimeout(r, 0));
const long = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

let home: string;
let faux: FauxProviderRegistration;
let session: AgentSessionApi;

beforeEach(async () => {
	home = mkdtempSync(join(tmpdir(), "rudder-app-"));
	faux = registerFauxProvider({ api: "faux-app-test", provider: "faux", tokensPerSecond: 200, tokenSize: { min: 1, max: 1 } });
	session = await createAgentSession({
		cwd: home,
		model: faux.getModel(),
		sessionMode: { kind: "none" },
		env: { RUDDER_HOME: home },
		tools: ["read"],
		apiKey: "test",
	});
});

const { mount } = appOnSessionPerTest(() => ({ session, faux, dir: home }), { rows: 30, columns: 100 });

const userTexts = (i: number) =>
	faux.calls[i].context.messages
		.filter((m) => m.role === "user")
		.map((m) => (typeof m.content === "string" ? m.content : m.content.map((c) => (c.type === "text" ? c.text : "")).join("")));

describe("App over a real session", () => {
	it("steers a running reply: the steer shows as queued, then reaches the model on its next call", async () => {
		faux.setResponses([fauxAssistantMessage([fauxText(`First ${long(120)} done.`)]), fauxAssistantMessage([fauxText("Steered answer.")])]);
		const { frame, type } = await mount();
		await type("start");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("word3"), { timeout: 5000 });
		await type("be brief");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Steering: be brief"));
		await vi.waitFor(() => expect(frame()).toContain("Steered answer."), { timeout: 10_000 });
		expect(faux.calls).toHaveLength(2);
		expect(userTexts(1)).toEqual(["start", "be brief"]);
		expect(frame()).toContain("› be brief");
		expect(frame()).not.toContain("Steering:");
	});

	it("Esc stops the stream, keeps the partial reply, and returns the queue to the input without another model call", async () => {
		faux.setResponses([fauxAssistantMessage([fauxText(`Partial ${long(400)}`)]), fauxAssistantMessage([fauxText("never sent")])]);
		const { frame, type } = await mount();
		await type("go");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("word2"), { timeout: 5000 });
		await type("steer me");
		await type("\r");
		await type("later please");
		await type("\x1b\r");
		await vi.waitFor(() => expect(frame()).toContain("Follow-up: later please"));
		await type("\x1b");
		await vi.waitFor(() => expect(frame()).toContain("Aborted"), { timeout: 5000 });
		await session.waitForIdle();
		const f = frame();
		expect(f).toContain("Partial word0");
		expect(f).toMatch(/› steer me\s*\n\s+later please/);
		expect(session.getState().steering).toEqual([]);
		expect(session.getState().followUp).toEqual([]);
		await new Promise((r) => setTimeout(r, 100));
		expect(faux.calls).toHaveLength(1);
	});
});
