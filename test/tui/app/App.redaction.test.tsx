// The app over a real AgentSession and the faux provider streaming a reply with a known secret in it,
// cut across deltas: no frame ever shows the secret or its start, and the reply shows [redacted]; the same
// for a secret in a tool call's arguments (tool line, running line, approval prompt).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../../src/ai/index.js";
import { processSecrets } from "../../../src/safety/secrets.js";
import { createFixture, type Fixture } from "../../session/session-fixture.js";
import { mountOnSession } from "./mount-app.js";

let fx: Fixture | undefined;
let unmount: (() => void) | undefined;
afterEach(async () => {
	unmount?.();
	await fx?.cleanup();
});

/**
 * Mounts the app on `session`, sends `prompt`, checks the approval screen of the one `tool` call that
 * asks (`atPrompt`), approves it, and returns once `done` shows.
 */
async function approveOnce(session: Fixture["session"], prompt: string, tool: string, done: string, atPrompt: (shown: string) => void) {
	const mounted = await mountOnSession(session, { rows: 30, columns: 120 });
	const { app, frame, type } = mounted;
	unmount = () => app.unmount();
	await type(`${prompt}\r`);
	await vi.waitFor(() => expect(frame()).toContain(`${tool} wants to run`), { timeout: 10_000 });
	atPrompt(frame());
	await type("y");
	await vi.waitFor(() => expect(frame()).toContain(done), { timeout: 10_000 });
	return mounted;
}

describe("App streaming a known secret", () => {
	it("no frame shows the secret, while streaming or after", async () => {
		const secret = "sk-screen-secret-0123456789";
		processSecrets.add(secret);
		// Slow tokens: the frames in between are drawn while the secret is half sent.
		fx = await createFixture({ fauxRate: 200 });
		fx.faux.setResponses([fauxAssistantMessage([fauxText(`Your key is ${secret} and that is all.`)])]);
		const { app, frame, type } = await mountOnSession(fx.session, { rows: 20, columns: 100 });
		unmount = () => app.unmount();
		await type("what is my key?");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Your key is [redacted] and that is all."), { timeout: 10_000 });
		expect(app.frames.length).toBeGreaterThan(3);
		for (const drawn of app.frames) expect(drawn).not.toContain("sk-scr");
	});
});

describe("App showing a tool call whose arguments hold a known secret", () => {
	it("the tool line, the running line and the approval prompt show [redacted], never the key or its start", async () => {
		const secret = "sk-ant-tool-line-0123456789abcdef";
		fx = await createFixture({
			session: { tools: ["read", "bash"], approvals: "prompt", sandboxFactory: () => undefined, apiKey: secret },
		});
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: `echo checking ${secret} && sleep 0.3` })]),
			fauxAssistantMessage([fauxToolCall("read", { path: `keys/${secret}.txt` })]),
			fauxAssistantMessage([fauxText("Checked.")]),
		]);
		const { app, frame } = await approveOnce(fx.session, "check my key", "bash", "Checked.", (shown) =>
			expect(shown).toContain("$ echo checking [redacted] && sleep 0.3"),
		);
		expect(frame()).toContain("✓ bash echo checking [redacted] && sleep 0.3");
		expect(frame()).toContain("✗ read keys/[redacted].txt");
		// The command ran with the real key: the model asked for it, and only the screen is redacted.
		const bashResult = fx.session.getState().messages.find((m) => m.role === "toolResult" && m.toolName === "bash");
		expect(JSON.stringify(bashResult)).toContain("checking [redacted]");
		for (const drawn of app.frames) expect(drawn).not.toContain("sk-ant-t");
	});
});

describe("App showing an edit whose new text holds a known secret", () => {
	it("the approval prompt's diff and the history's diff rows show [redacted]", async () => {
		const secret = "sk-ant-edit-diff-0123456789abcdef";
		fx = await createFixture({ session: { tools: ["read", "edit"], approvals: "prompt", apiKey: secret } });
		writeFileSync(join(fx.cwd, "config.txt"), "key = none\n");
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("read", { path: "config.txt" })]),
			fauxAssistantMessage([fauxToolCall("edit", { path: "config.txt", edits: [{ oldText: "none", newText: secret }] })]),
			fauxAssistantMessage([fauxText("Edited.")]),
		]);
		const { app, frame } = await approveOnce(fx.session, "put my key in the config", "edit", "Edited.", (shown) =>
			expect(shown).toContain("+key = [redacted]"),
		);
		expect(frame()).toMatch(/\+ key = \[redacted\]/);
		// The file holds the real key: only the screen is redacted.
		expect(readFileSync(join(fx.cwd, "config.txt"), "utf8")).toBe(`key = ${secret}\n`);
		for (const drawn of app.frames) expect(drawn).not.toContain("sk-ant-e");
	});
});
