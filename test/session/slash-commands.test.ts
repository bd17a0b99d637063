import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../src/ai/index.js";
import { registerDemoProvider } from "../../src/ai/providers/demo.js";
import { datedExportName, parseSlashCommand, slashCommands } from "../../src/session/slash-commands.js";
import { UserModels } from "../../src/settings/user-models.js";
import { createFixture, type Fixture, fixedRegistry } from "./session-fixture.js";

let fx: Fixture;
afterEach(async () => {
	await fx?.cleanup();
});
const lastNotice = () => fx.notices().at(-1) ?? "";

describe("parseSlashCommand", () => {
	it("splits name and arguments, and refuses what is not a command", () => {
		expect(parseSlashCommand("/model  claude sonnet ")).toEqual({ name: "model", args: "claude sonnet" });
		expect(parseSlashCommand("/quit")).toEqual({ name: "quit", args: "" });
		expect(parseSlashCommand("/ nothing")).toBeUndefined();
	});
});

describe("slash commands through submit", () => {
	it("/help lists every command, and session.commands() is the same registry", async () => {
		fx = await createFixture();
		expect(await fx.session.submit("/help")).toEqual({ kind: "command", name: "help" });
		for (const c of slashCommands) expect(lastNotice()).toContain(`/${c.name}`);
		expect(lastNotice()).toContain("!!cmd  Run a shell command, output not sent to the model");
		expect(fx.session.commands().map((c) => c.name)).toEqual(slashCommands.map((c) => c.name));
	});

	it("an unknown command is one clear error notice and reaches no model", async () => {
		fx = await createFixture();
		expect(await fx.session.submit("/frobnicate now")).toEqual({ kind: "command", name: "frobnicate" });
		expect(fx.events.at(-1)).toEqual({ type: "notice", level: "error", text: "Unknown command /frobnicate (type /help for the list)" });
		expect(fx.faux.calls).toHaveLength(0);
	});

	it("/model lists available models and switches by pattern, recording the change", async () => {
		fx = await createFixture();
		const other = fx.faux.getModel("faux-large")!;
		const session = await fx.open({ registry: fixedRegistry([fx.faux.getModel(), other]) });
		await session.submit("/model");
		expect(lastNotice()).toContain("* faux/faux-1");
		expect(lastNotice()).toContain("  faux/faux-large");
		await session.submit("/model large");
		expect(session.getState().model.id).toBe("faux-large");
		expect(fx.events.some((e) => e.type === "model_changed" && e.model.id === "faux-large")).toBe(true);
		await session.submit("/model nothing-like-this");
		expect(lastNotice()).toBe('No model matches "nothing-like-this" (list them with /model)');
		fx.faux.setResponses([fauxAssistantMessage([fauxText("hi")])]);
		await session.prompt("x");
		const file = session.getState().sessionFile as string;
		expect(readFileSync(file, "utf8")).toContain('"type":"model_change","provider":"faux","modelId":"faux-large"');
		await session.dispose();
	});

	it("/thinking validates the level and sets it", async () => {
		fx = await createFixture();
		await fx.session.submit("/thinking high");
		expect(fx.session.getState().thinkingLevel).toBe("high");
		await fx.session.submit("/thinking loud");
		expect(lastNotice()).toMatch(/^Unknown thinking level "loud" \(one of off, minimal/);
		expect(fx.session.getState().thinkingLevel).toBe("high");
	});

	it("/thinking on a model without thinking says so, once, and stays off", async () => {
		fx = await createFixture();
		await fx.session.setModel({ ...fx.session.getState().model, reasoning: false });
		const before = fx.notices().length;
		await fx.session.submit("/thinking high");
		expect(fx.notices().slice(before)).toEqual(["faux/faux-1 does not support thinking; thinking stays off"]);
		expect(fx.session.getState().thinkingLevel).toBe("off");
	});

	it("a session's messages are counted once: the picker's listing and the Resumed notice agree on a branched session", async () => {
		fx = await createFixture();
		fx.faux.setResponses(["a1", "a2", "a3"].map((t) => fauxAssistantMessage([fauxText(t)])));
		await fx.session.prompt("one");
		await fx.session.prompt("two");
		// A new branch before "two": the file holds 6 messages, the branch in use 4.
		await fx.session.submit("/branch 1");
		await fx.session.prompt("three");
		const { sessionId, sessionFile } = fx.session.getState();
		await fx.session.submit("/new");
		const listed = fx.session.listSessions().find((s) => s.path === sessionFile);
		expect(listed?.messageCount).toBe(4);
		await fx.session.submit(`/resume ${sessionId.slice(0, 8)}`);
		expect(lastNotice()).toBe(`Resumed session ${sessionId.slice(0, 8)} (4 messages)`);

		// /fork names the prompt it cut before, and the new session's count is the same kind of count.
		await fx.session.submit("/fork 1");
		const forked = fx.session.getState();
		expect(forked.sessionId).not.toBe(sessionId);
		expect(lastNotice()).toBe(`Forked before "three" into session ${forked.sessionId.slice(0, 8)} (2 messages)`);
	});

	it("/clear starts a new session and /exit quits, like /new and /quit", async () => {
		fx = await createFixture();
		const names = fx.session.commands().map((c) => c.name);
		expect(names).toEqual(expect.arrayContaining(["clear", "exit", "new", "quit"]));
		const id = fx.session.getState().sessionId;
		await fx.session.submit("/clear");
		expect(fx.session.getState().sessionId).not.toBe(id);
		expect(lastNotice()).toBe("New session");
	});

	it("/session reports file, counts, tokens and cost", async () => {
		fx = await createFixture();
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("ls", { path: "." })], { usage: { input: 1000, output: 500 } }),
			fauxAssistantMessage([fauxText("ok")], { usage: { input: 0, output: 0 } }),
		]);
		await fx.session.prompt("go");
		await fx.session.submit("/session");
		const text = lastNotice();
		expect(text).toContain(`File: ${fx.session.getState().sessionFile}`);
		expect(text).toContain("Messages: 4 (user 1, assistant 2, tool results 1)");
		expect(text).toContain("Tokens: input 1000, output 500");
		expect(text).toContain("Cost: $0.0020");
	});

	it("/new starts an empty session in a new file; /resume lists and switches back by id prefix", async () => {
		fx = await createFixture();
		fx.faux.setResponses([fauxAssistantMessage([fauxText("one")]), fauxAssistantMessage([fauxText("two")])]);
		await fx.session.prompt("first session");
		const first = fx.session.getState();
		await fx.session.submit("/new");
		expect(fx.session.getState().messages).toHaveLength(0);
		expect(fx.session.getState().sessionId).not.toBe(first.sessionId);
		expect(fx.events.some((e) => e.type === "session_changed")).toBe(true);
		await fx.session.prompt("second session");
		await fx.session.submit("/resume");
		expect(lastNotice()).toContain(first.sessionId.slice(0, 8));
		expect(lastNotice()).toContain('"first session"');
		await fx.session.submit(`/resume ${first.sessionId.slice(0, 8)}`);
		expect(fx.session.getState().sessionId).toBe(first.sessionId);
		expect(fx.session.getState().sessionFile).toBe(first.sessionFile);
		expect(fx.session.getState().messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		await fx.session.submit("/resume zzzz");
		expect(lastNotice()).toMatch(/^\/resume failed: No session of .* "zzzz"/);
	});

	it("/export writes the transcript as markdown", async () => {
		fx = await createFixture();
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("ls", { path: "." })]), fauxAssistantMessage([fauxText("All **good**.")])]);
		await fx.session.prompt("check it");
		await fx.session.submit("/export out.md");
		const md = readFileSync(join(fx.cwd, "out.md"), "utf8");
		expect(lastNotice()).toBe(`Exported to ${join(fx.cwd, "out.md")}`);
		expect(md).toMatch(/^# Rudder session/);
		expect(md).toContain("## User\n\ncheck it");
		expect(md).toContain("**Tool call** `ls`");
		expect(md).toContain("### Tool result: ls");
		expect(md).toContain("## Assistant\n\nAll **good**.");
		// Without a name: a dated file in the working folder, and the notice says where.
		await fx.session.submit("/export");
		const dated = lastNotice().replace("Exported to ", "");
		expect(dated).toMatch(new RegExp(`^${fx.cwd.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/rudder-session-\\d{4}-\\d{2}-\\d{2}-\\d{4}\\.md$`));
		expect(readFileSync(dated, "utf8")).toContain("## User\n\ncheck it");
		expect(datedExportName(new Date(2026, 11, 4, 9, 5))).toBe("rudder-session-2026-12-04-0905.md");
	});

	it("/login stores the key through the registry, never in the session file", async () => {
		fx = await createFixture();
		const registry = new UserModels({ configDir: join(fx.root, "home"), env: {} });
		const session = await fx.open({ registry });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("hi")])]);
		await session.prompt("hello");
		await session.submit("/login faux sk-faux-secret-123456");
		expect(lastNotice()).toBe("Stored the API key for faux");
		expect(registry.getApiKey("faux")).toBe("sk-faux-secret-123456");
		expect(readFileSync(join(fx.root, "home", "auth.json"), "utf8")).toContain("sk-faux-secret-123456");
		fx.faux.setResponses([fauxAssistantMessage([fauxText("echo sk-faux-secret-123456")])]);
		await session.prompt("again");
		expect(fx.faux.calls.at(-1)?.options?.apiKey).toBe("sk-faux-secret-123456");
		const file = session.getState().sessionFile as string;
		expect(readFileSync(file, "utf8")).not.toContain("sk-faux-secret-123456");
		await session.submit("/login faux");
		expect(lastNotice()).toBe("Usage: /login <provider> <key>");
		await session.dispose();
	});

	it("/login on the offline demo switches to the provider's first model", async () => {
		fx = await createFixture();
		const registry = new UserModels({ configDir: join(fx.root, "home"), env: {} });
		const session = await fx.open({ registry, model: registerDemoProvider({ tokensPerSecond: 0 }) });
		expect(session.getState().model.provider).toBe("demo");
		await session.submit("/login anthropic sk-ant-test-123456");
		const model = session.getState().model;
		expect(model.provider).toBe("anthropic");
		expect(lastNotice()).toBe(`Stored the API key for anthropic; now using anthropic/${model.id} (/model to change)`);
		await session.dispose();
	});

	it("/quit sets the flag and emits quit", async () => {
		fx = await createFixture();
		expect(fx.session.quitRequested).toBe(false);
		await fx.session.submit("/quit");
		expect(fx.session.quitRequested).toBe(true);
		expect(fx.events.at(-1)).toEqual({ type: "quit" });
		expect(existsSync(join(fx.cwd, ".rudder"))).toBe(false);
	});
});

describe("commands that need the UI", () => {
	it("a bare /model asks a UI for the model picker, and answers in text to a caller without one", async () => {
		fx = await createFixture();
		const before = fx.notices().length;
		expect(await fx.session.submit("/model", { ui: true })).toEqual({ kind: "command", name: "model", ui: "pick-model" });
		expect(fx.notices()).toHaveLength(before);
		expect(await fx.session.submit("/model")).toEqual({ kind: "command", name: "model" });
		expect(lastNotice()).toMatch(/^Models \(switch with \/model <pattern>\):/);
	});

	it("a bare /resume asks for the session picker only when there are sessions to pick", async () => {
		fx = await createFixture();
		expect(await fx.session.submit("/resume", { ui: true })).toEqual({ kind: "command", name: "resume" });
		expect(lastNotice()).toBe("No saved sessions in this folder yet");
		await fx.session.submit("hello");
		await fx.session.waitForIdle();
		await fx.session.submit("/new");
		expect(await fx.session.submit("/resume", { ui: true })).toEqual({ kind: "command", name: "resume", ui: "pick-session" });
		expect(await fx.session.submit("/resume")).toEqual({ kind: "command", name: "resume" });
		expect(lastNotice()).toMatch(/^Sessions \(resume with \/resume <id>\):/);
	});

	it("/exit quits like /quit, through the same registry", async () => {
		fx = await createFixture();
		await fx.session.submit("/exit");
		expect(fx.session.quitRequested).toBe(true);
		expect(fx.events.at(-1)).toEqual({ type: "quit" });
	});
});
