import { existsSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../src/ai/index.js";
import { loadSession } from "../../src/session/session-load.js";
import { createFixture, type Fixture, userTexts } from "./session-fixture.js";

let fx: Fixture;
afterEach(async () => {
	await fx?.cleanup();
});

describe("prompting, persistence and totals", () => {
	it("persists every finished message, sums usage into totals and resumes the same transcript", async () => {
		fx = await createFixture();
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("ls", { path: "." })], { usage: { input: 100, output: 10 } }),
			fauxAssistantMessage([fauxText("Done.")], { usage: { input: 150, output: 5, cacheRead: 20 } }),
		]);
		await fx.session.prompt("look around");
		const state = fx.session.getState();
		expect(state.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(state.totals).toMatchObject({ input: 250, output: 15, cacheRead: 20 });
		// faux prices: 1$/M input, 2$/M output, 0.1$/M cache read
		expect(state.totals.cost).toBeCloseTo((250 * 1 + 15 * 2 + 20 * 0.1) / 1e6, 12);
		expect(state.contextTokens).toBe(175);
		expect(state.sessionFile).toBeDefined();

		const file = state.sessionFile as string;
		expect(loadSession(file).messages).toEqual(JSON.parse(JSON.stringify(state.messages)));
		// One process per file: the first session lets go of it before the second opens it.
		await fx.session.dispose();
		const resumed = await fx.open({ sessionMode: { kind: "continue" } });
		const again = resumed.getState();
		expect(again.sessionFile).toBe(file);
		expect(again.sessionId).toBe(state.sessionId);
		expect(again.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(again.totals).toEqual(state.totals);
		await resumed.dispose();
	});

	it("writes nothing with sessionMode none", async () => {
		fx = await createFixture({ session: { sessionMode: { kind: "none" } } });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("hi")])]);
		await fx.session.prompt("hello");
		expect(fx.session.getState().sessionFile).toBeUndefined();
		expect(fx.session.listSessions()).toEqual([]);
	});

	it("makes a resumed transcript with unanswered tool calls valid to send", async () => {
		fx = await createFixture();
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("ls", { path: "." }, { id: "dangling" })])]);
		// Simulate a process killed while the tool ran: keep only the first two lines of messages.
		await fx.session.prompt("go");
		const file = fx.session.getState().sessionFile as string;
		const lines = readFileSync(file, "utf8").trimEnd().split("\n");
		writeFileSync(file, `${lines.slice(0, 3).join("\n")}\n`);
		// One process per file: the first session lets go of it before the second opens it.
		await fx.session.dispose();
		const resumed = await fx.open({ sessionMode: { kind: "file", path: file } });
		expect(resumed.getState().messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(resumed.getState().messages[2]).toMatchObject({ toolCallId: "dangling", isError: true });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		const callsBefore = fx.faux.calls.length;
		await resumed.prompt("again");
		const sent = fx.faux.calls[callsBefore].context.messages.map((m) => m.role);
		expect(sent).toEqual(["user", "assistant", "toolResult", "user"]);
		await resumed.dispose();
	});

	it("resumes a file with a torn last line and tells the first subscriber", async () => {
		fx = await createFixture();
		fx.faux.setResponses([fauxAssistantMessage([fauxText("kept")])]);
		await fx.session.prompt("before the crash");
		const file = fx.session.getState().sessionFile as string;
		writeFileSync(file, `${readFileSync(file, "utf8")}{"type":"message","message":{"role":"assis`);
		// One process per file: the first session lets go of it before the second opens it.
		await fx.session.dispose();
		const resumed = await fx.open({ sessionMode: { kind: "file", path: file } });
		expect(await fx.waitForEvent("notice", (e) => e.level === "warning")).toMatchObject({
			text: expect.stringMatching(/skipped line 4: unreadable torn last line/),
		});
		expect(resumed.getState().messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		fx.faux.setResponses([fauxAssistantMessage([fauxText("after")])]);
		await resumed.prompt("after the crash");
		expect(loadSession(file).messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
		await resumed.dispose();
	});

	it("rejects prompt() while a run is active", async () => {
		fx = await createFixture({ fauxRate: 200 });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("a long reply ".repeat(50))])]);
		const run = fx.session.prompt("one");
		await expect(fx.session.prompt("two")).rejects.toThrow(/already active/);
		fx.session.abort();
		await run;
	});
});

describe("submit routing", () => {
	it("prompts when idle, steers while streaming, queues a follow-up when asked, and mirrors the queues", async () => {
		fx = await createFixture({ fauxRate: 400 });
		fx.faux.setResponses([
			fauxAssistantMessage([fauxText("first reply ".repeat(40))]),
			fauxAssistantMessage([fauxText("after steering")]),
			fauxAssistantMessage([fauxText("after follow-up")]),
		]);
		expect(await fx.session.submit("start")).toEqual({ kind: "prompted" });
		await fx.waitForEvent("message_update");
		expect(await fx.session.submit("steer me")).toEqual({ kind: "steered" });
		expect(await fx.session.submit("later", { as: "followUp" })).toEqual({ kind: "queued_follow_up" });
		expect(fx.session.getState().steering).toEqual(["steer me"]);
		expect(fx.session.getState().followUp).toEqual(["later"]);
		await fx.waitForEvent("queue_update", (e) => e.steering.length === 0 && e.followUp.length === 0);
		await fx.session.waitForIdle();
		expect(userTexts(fx.faux, 1)).toEqual(["start", "steer me"]);
		expect(userTexts(fx.faux, 2)).toEqual(["start", "steer me", "later"]);
		expect(fx.session.getState().steering).toEqual([]);
		expect(
			fx.events.filter((e) => e.type === "queue_update").map((e) => e.type === "queue_update" && [e.steering.length, e.followUp.length]),
		).toEqual([
			[1, 0],
			[1, 1],
			[0, 1],
			[0, 0],
		]);
	});

	it("takeQueuedMessages empties both queues, returns the typed text, and nothing queued is sent after abort", async () => {
		fx = await createFixture({ fauxRate: 200 });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("slow ".repeat(200))]), fauxAssistantMessage([fauxText("must not be used")])]);
		await fx.session.submit("start");
		await fx.waitForEvent("message_update");
		writeFileSync(join(fx.cwd, "notes.txt"), "attached body");
		await fx.session.submit("look at @notes.txt");
		await fx.session.submit("then this", { as: "followUp" });
		expect(fx.session.takeQueuedMessages()).toEqual({ steering: ["look at @notes.txt"], followUp: ["then this"] });
		expect(fx.session.getState()).toMatchObject({ steering: [], followUp: [] });
		fx.session.abort();
		await fx.session.waitForIdle();
		expect(fx.faux.calls).toHaveLength(1);
		expect(fx.session.getState().messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
	});

	it("ignores empty input", async () => {
		fx = await createFixture();
		expect(await fx.session.submit("   ")).toEqual({ kind: "ignored" });
		expect(fx.faux.calls).toHaveLength(0);
	});
});

describe("!cmd", () => {
	it("runs in cwd, emits user_shell, and puts the output in the context and the file", async () => {
		fx = await createFixture();
		writeFileSync(join(fx.cwd, "marker.txt"), "");
		expect(await fx.session.submit("!ls && echo done; exit 3")).toEqual({ kind: "shell" });
		const shell = await fx.waitForEvent("user_shell");
		expect(shell).toMatchObject({ command: "ls && echo done; exit 3", exitCode: 3 });
		expect(shell.output).toBe("marker.txt\ndone");
		fx.faux.setResponses([fauxAssistantMessage([fauxText("I see marker.txt")])]);
		await fx.session.prompt("what did I run?");
		expect(userTexts(fx.faux, 0)[0]).toContain("$ ls && echo done; exit 3\nmarker.txt\ndone\n(exit code 3)");
		const saved = loadSession(fx.session.getState().sessionFile as string).messages;
		expect(saved[0]).toMatchObject({ role: "shellOutput", command: "ls && echo done; exit 3", exitCode: 3 });
	});

	it("while a run streams, holds the output back until the run ends (a run works on its own copy)", async () => {
		fx = await createFixture({ fauxRate: 300 });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("streaming ".repeat(40))])]);
		await fx.session.submit("start");
		await fx.waitForEvent("message_update");
		await fx.session.submit("!echo mid-run");
		await fx.waitForEvent("user_shell");
		await fx.session.waitForIdle();
		expect(fx.session.getState().messages.map((m) => m.role)).toEqual(["user", "assistant", "shellOutput"]);
		expect(loadSession(fx.session.getState().sessionFile as string).messages.at(-1)).toMatchObject({
			role: "shellOutput",
			output: "mid-run",
		});
	});
});

/** Alive and not a zombie (a killed child whose parent is gone may wait unreaped). */
function running(pid: number): boolean {
	try {
		return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
	} catch {
		return false;
	}
}

describe("!cmd stopped and !!cmd", () => {
	it("Esc (abort) stops a running !cmd and everything it started; the output so far is kept, marked stopped", async () => {
		fx = await createFixture();
		const pidFile = join(fx.cwd, "child.pid");
		const started = Date.now();
		const submitted = fx.session.submit(`!echo begun; sleep 30 & echo $! > ${pidFile}; wait; echo never`);
		const start = await fx.waitForEvent("user_shell_start");
		expect(start).toMatchObject({ command: expect.stringContaining("echo begun"), excluded: false });
		await vi.waitFor(() => expect(existsSync(pidFile) && readFileSync(pidFile, "utf8").trim()).toBeTruthy());
		const childPid = Number(readFileSync(pidFile, "utf8"));
		fx.session.abort();
		const shell = await fx.waitForEvent("user_shell");
		await submitted;
		expect(Date.now() - started).toBeLessThan(5000);
		expect(shell).toMatchObject({ id: start.id, aborted: true, output: "begun" });
		// The background `sleep` was in the command's process group: gone too.
		await vi.waitFor(() => expect(running(childPid)).toBe(false));
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await fx.session.prompt("what happened?");
		expect(userTexts(fx.faux, 0)[0]).toContain("begun\n(stopped by the user)");
	});

	it("!!cmd shows its output but keeps it out of the context and the file", async () => {
		fx = await createFixture();
		expect(await fx.session.submit("!!echo secret")).toEqual({ kind: "shell" });
		const shell = await fx.waitForEvent("user_shell");
		expect(shell).toMatchObject({ command: "echo secret", output: "secret", exitCode: 0, excluded: true, aborted: false });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await fx.session.prompt("hello");
		expect(fx.session.getState().messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(JSON.stringify(fx.faux.calls[0].context.messages)).not.toContain("secret");
	});
});

describe("building the agent", () => {
	it("a repo-shipped AGENTS.md linking out of the workspace stays out of the system prompt untrusted, with one notice", async () => {
		fx = await createFixture();
		writeFileSync(join(fx.root, "id_rsa"), "PRIVATE KEY material");
		symlinkSync(join(fx.root, "id_rsa"), join(fx.cwd, "AGENTS.md"));
		const session = await fx.open();
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("hi");
		expect(fx.faux.calls[0].context.systemPrompt).not.toContain("PRIVATE KEY");
		expect(fx.notices().filter((n) => n.includes("until this folder is trusted"))).toEqual([
			expect.stringContaining(`${join(fx.cwd, "AGENTS.md")} (a link to ${realpathSync(join(fx.root, "id_rsa"))}, outside the workspace)`),
		]);
		await session.dispose();
	});

	it("sends a system prompt with the chosen tools, cwd and the project's AGENTS.md, and the retry settings", async () => {
		fx = await createFixture({ settings: { retry: { maxRetries: 7 } } });
		writeFileSync(join(fx.cwd, "AGENTS.md"), "Always answer in haiku.");
		const session = await fx.open({ tools: ["grep", "find"], appendSystemPrompt: "Extra line." });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("hi");
		const call = fx.faux.calls[0];
		expect(call.context.tools?.map((t) => t.name)).toEqual(["grep", "find", "task", "todo_write"]);
		expect(call.context.systemPrompt).toMatch(/\n- grep: .*\n- find: /);
		expect(call.context.systemPrompt).toContain(`Current working directory: ${fx.cwd}`);
		expect(call.context.systemPrompt).toContain(`## ${join(fx.cwd, "AGENTS.md")}\n\nAlways answer in haiku.`);
		expect(call.context.systemPrompt?.endsWith("Extra line.")).toBe(true);
		expect(call.options?.maxRetries).toBe(7);
		await session.dispose();
	});

	it("refuses an unknown tool name with one line", async () => {
		fx = await createFixture();
		await expect(fx.open({ tools: ["read", "teleport"] })).rejects.toThrow(
			'Unknown tool "teleport" (known: read, bash, edit, write, grep, find, ls, web_fetch, web_search, bash_output, kill_shell)',
		);
	});

	it("uses the apiKey override for the chosen provider", async () => {
		fx = await createFixture();
		const session = await fx.open({ apiKey: "sk-override-0000000000" });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("hi");
		expect(fx.faux.calls[0].options?.apiKey).toBe("sk-override-0000000000");
		expect(readFileSync(session.getState().sessionFile as string, "utf8")).not.toContain("sk-override");
		await session.dispose();
	});
});

describe("@path attachments", () => {
	it("appends text files in a fenced block and sends images as image content", async () => {
		fx = await createFixture();
		writeFileSync(join(fx.cwd, "code.ts"), "const x = 1;\n");
		const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
		writeFileSync(join(fx.cwd, "shot.png"), png);
		fx.faux.setResponses([fauxAssistantMessage([fauxText("seen")])]);
		await fx.session.submit("explain @code.ts and @shot.png, not @someone");
		await fx.session.waitForIdle();
		const sent = fx.faux.calls[0].context.messages[0];
		expect(sent.role).toBe("user");
		const content = sent.content as { type: string; text?: string; data?: string; mimeType?: string }[];
		expect(content[0].text).toBe("explain @code.ts and @shot.png, not @someone\n\ncode.ts\n```\nconst x = 1;\n```");
		expect(content[1]).toEqual({ type: "image", data: png.toString("base64"), mimeType: "image/png" });
	});
});

describe("listeners", () => {
	it("a throwing listener does not break the run and is reported to the others", async () => {
		fx = await createFixture();
		fx.session.subscribe((e) => {
			if (e.type === "message_end") throw new Error("boom");
		});
		let endsSeenAfter = 0;
		fx.session.subscribe((e) => {
			if (e.type === "message_end") endsSeenAfter++;
		});
		fx.faux.setResponses([fauxAssistantMessage([fauxText("fine")])]);
		await fx.session.prompt("hi");
		expect(fx.session.getState().messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
		expect(endsSeenAfter).toBe(2);
		expect(fx.notices()).toContain("A session listener failed on message_end: boom");
	});
});
