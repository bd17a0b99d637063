// `rudder --mode acp` driven by the official SDK's client side (built CLI, scripted model on 127.0.0.1).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { textRecords, toolCallBody } from "../../helpers/openai-chunks.js";
import { withPongServer } from "../../helpers/pong-server.js";
import { cliPerTest } from "../../helpers/rudder-cli.js";
import { sse } from "../../helpers/sse-server.js";
import { type AcpTestClient, agentText, initialize, startAcp } from "./acp-client.js";

const LONG = 90_000;
const cli = cliPerTest();
const clients: AcpTestClient[] = [];
afterEach(() => {
	for (const c of clients.splice(0)) c.child.kill("SIGKILL");
});

function start(home: Parameters<typeof startAcp>[0], args: string[] = [], fs = false): AcpTestClient {
	// Ask mode unless a test names another: auto, the default where bwrap works, would not ask for bash.
	const mode = args.includes("--permission-mode") ? [] : ["--permission-mode", "ask"];
	const c = startAcp(home, ["--mode", "acp", "--model", "mock/mock-1", ...mode, ...args], { fs });
	clients.push(c);
	return c;
}

describe("acp mode", () => {
	it("initialize, session/new, a prompt streamed as agent_message_chunk ending end_turn", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		server.enqueue({ kind: "sse", chunks: textRecords(["Hel", "lo ", "there"]) });
		const c = start(home);
		const init = await initialize(c);
		expect(init).toMatchObject({
			protocolVersion: 1,
			agentCapabilities: { loadSession: true, promptCapabilities: { image: true, embeddedContext: true } },
			agentInfo: { name: "rudder" },
		});
		const session = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		expect(session.modes?.currentModeId).toBe("ask");
		expect(session.modes?.availableModes.map((m) => m.id)).toEqual(["ask", "auto-edit", "auto", "plan", "yolo"]);
		const commands = await c.waitForUpdate((n) => n.update.sessionUpdate === "available_commands_update");
		expect(commands.sessionId).toBe(session.sessionId);
		const names = commands.update.sessionUpdate === "available_commands_update" ? commands.update.availableCommands.map((a) => a.name) : [];
		expect(names).toEqual(expect.arrayContaining(["help", "model", "compact", "permissions"]));
		// The editor ends sessions: no /quit.
		expect(names).not.toContain("quit");
		const response = await c.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "hi" }] });
		expect(response.stopReason).toBe("end_turn");
		expect(agentText(c.updates)).toBe("Hello there");
		// Context use after the turn: the last request's tokens (12 in, 5 out in the scripted usage) of the model's window.
		expect(c.updates.at(-1)?.update).toMatchObject({ sessionUpdate: "usage_update", used: 17, size: 32768 });
		expect(server.requests[0]?.body.messages.at(-1)).toMatchObject({ role: "user", content: "hi" });
		expect(await c.end()).toBe(0);
	});

	it("a call that would ask sends session/request_permission: allow once runs it, reject denies it, always adds a session rule", {
		timeout: LONG,
	}, async () => {
		const { server, home } = await cli.setUp();
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "echo approved > made.txt" }, "call_a")] });
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "rm -rf build" }, "call_b")] });
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "echo same" }, "call_c")] });
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "echo same" }, "call_d")] });
		server.enqueue({ kind: "sse", chunks: textRecords(["done"]) });
		const c = start(home);
		await initialize(c);
		const { sessionId } = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		const answers = ["allow_once", "reject_once", "allow_always"];
		c.answer = (request) => {
			// Rudder has not run the call while it asks.
			if (request.toolCall.toolCallId === "call_a") expect(existsSync(join(home.cwd, "made.txt"))).toBe(false);
			return { outcome: { outcome: "selected", optionId: answers.shift() ?? "reject_once" } };
		};
		const response = await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
		expect(response.stopReason).toBe("end_turn");
		expect(existsSync(join(home.cwd, "made.txt"))).toBe(true);
		// Three asks: the fourth call ("echo same" again) ran on the session rule "always" added.
		expect(c.permissionRequests.map((r) => r.toolCall.toolCallId)).toEqual(["call_a", "call_b", "call_c"]);
		const first = c.permissionRequests[0];
		expect(first?.options.map((o) => [o.optionId, o.kind])).toEqual([
			["allow_once", "allow_once"],
			["allow_always", "allow_always"],
			["reject_once", "reject_once"],
		]);
		expect(first?.toolCall).toMatchObject({ kind: "execute", title: "Run echo approved > made.txt", status: "pending" });
		const updates = c.updates.map((n) => n.update);
		// Each call: announced (tool_call, pending) before the permission request, then in progress, then its end.
		expect(updates.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "call_a")).toMatchObject({
			kind: "execute",
			title: "Run echo approved > made.txt",
			status: "pending",
			rawInput: { command: "echo approved > made.txt" },
		});
		// Running, then pending again while it asks, then running once allowed.
		const statuses = updates.flatMap((u) => (u.sessionUpdate === "tool_call_update" && u.toolCallId === "call_a" ? [u.status] : []));
		expect(statuses).toEqual(["in_progress", "pending", "in_progress", "completed"]);
		const endOf = (id: string) =>
			updates.find(
				(u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === id && (u.status === "completed" || u.status === "failed"),
			);
		expect(endOf("call_a")).toMatchObject({ status: "completed" });
		expect(endOf("call_b")).toMatchObject({ status: "failed" });
		expect(endOf("call_d")).toMatchObject({ status: "completed", content: [{ type: "content", content: { type: "text", text: "same" } }] });
		const results = server.requests[2]?.body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.content);
		expect(results).toEqual(["(no output)", "The user denied this call."]);
		expect(await c.end()).toBe(0);
	});

	it("with the client's fs capability, read and edit go through fs/read_text_file and fs/write_text_file (the editor's buffer)", {
		timeout: LONG,
	}, async () => {
		const { server, home } = await cli.setUp();
		const file = join(home.cwd, "notes.txt");
		writeFileSync(file, "on disk\n");
		server.enqueue({ kind: "sse", chunks: [toolCallBody("read", { path: "notes.txt" }, "call_r")] });
		server.enqueue({
			kind: "sse",
			chunks: [toolCallBody("edit", { path: "notes.txt", edits: [{ oldText: "unsaved", newText: "edited" }] }, "call_e")],
		});
		server.enqueue({ kind: "sse", chunks: textRecords(["ok"]) });
		const c = start(home, [], true);
		await initialize(c, true);
		c.buffers.set(file, "unsaved line\n");
		const { sessionId } = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		await c.agent.request("session/set_mode", { sessionId, modeId: "auto-edit" });
		await c.waitForUpdate((n) => n.update.sessionUpdate === "current_mode_update" && n.update.currentModeId === "auto-edit");
		const response = await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "fix it" }] });
		expect(response.stopReason).toBe("end_turn");
		// The model read the buffer, not the disk; the edit went to the editor, the disk is untouched.
		expect(server.requests[1]?.body.messages.find((m: any) => m.role === "tool")?.content).toBe("unsaved line");
		expect(c.writes).toEqual([{ path: file, content: "edited line\n" }]);
		expect(readFileSync(file, "utf8")).toBe("on disk\n");
		expect(c.permissionRequests).toEqual([]);
		const edit = c.updates.map((n) => n.update).find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "call_e");
		expect(edit).toMatchObject({ kind: "edit", title: "Edit notes.txt", locations: [{ path: file }] });
		expect(await c.end()).toBe(0);
	});

	it("slash commands: /help answers in message chunks (end_turn, no model call); a failing command is the prompt's error", {
		timeout: LONG,
	}, async () => {
		const { server, home } = await cli.setUp();
		const c = start(home);
		await initialize(c);
		const { sessionId } = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		const help = await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/help" }] });
		expect(help.stopReason).toBe("end_turn");
		expect(agentText(c.updates)).toContain("/compact");
		await expect(
			c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/model no-such-model" }] }),
		).rejects.toMatchObject({ code: -32603, message: 'Internal error: No model matches "no-such-model" (list them with /model)' });
		expect(server.requests).toHaveLength(0);
		expect(await c.end()).toBe(0);
	});

	it("two prompts sent together: the second joins or follows the first turn, and both are answered after it ran", {
		timeout: LONG,
	}, async () => {
		const { server, home } = await cli.setUp();
		server.enqueue({ kind: "sse", chunks: textRecords(["one"]) });
		server.enqueue({ kind: "sse", chunks: textRecords(["two"]) });
		const c = start(home);
		await initialize(c);
		const { sessionId } = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		const first = c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "first" }] });
		const second = c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "second" }] });
		expect(await Promise.all([first, second])).toEqual([{ stopReason: "end_turn" }, { stopReason: "end_turn" }]);
		// However the two raced, the model saw both prompts and the last request carries the second: steered
		// before the first model call, both go in that one request; steered later, or waiting for the first
		// turn, the second gets a model call of its own.
		const calls = server.requests.length;
		expect([1, 2]).toContain(calls);
		const last = JSON.stringify(server.requests.at(-1)?.body.messages);
		expect(last).toContain("first");
		expect(last).toContain("second");
		expect(agentText(c.updates)).toBe(calls === 2 ? "onetwo" : "one");
		expect(await c.end()).toBe(0);
	});

	it("session/cancel while a permission request is open: the request is withdrawn, the call never runs, the turn is cancelled", {
		timeout: LONG,
	}, async () => {
		const { server, home } = await cli.setUp();
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "echo ran > ran.txt" }, "call_x")] });
		const c = start(home);
		await initialize(c);
		const { sessionId } = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		c.answer = async () => {
			await c.agent.notify("session/cancel", { sessionId });
			// An editor closes its dialog on $/cancel_request and answers "cancelled".
			return { outcome: { outcome: "cancelled" } };
		};
		const response = await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
		expect(response.stopReason).toBe("cancelled");
		expect(existsSync(join(home.cwd, "ran.txt"))).toBe(false);
		expect(server.requests).toHaveLength(1);
		expect(await c.end()).toBe(0);
	});

	it("with the editor's files, an edit in ask mode still asks first; rejected, nothing is written", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		const file = join(home.cwd, "keep.txt");
		writeFileSync(file, "keep\n");
		server.enqueue({ kind: "sse", chunks: [toolCallBody("read", { path: "keep.txt" }, "call_r")] });
		server.enqueue({ kind: "sse", chunks: [toolCallBody("write", { path: "keep.txt", content: "gone" }, "call_w")] });
		server.enqueue({ kind: "sse", chunks: [toolCallBody("read", { path: "/etc/hostname" }, "call_o")] });
		server.enqueue({ kind: "sse", chunks: textRecords(["ok"]) });
		const c = start(home, [], true);
		await initialize(c, true);
		const { sessionId } = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		c.answer = () => ({ outcome: { outcome: "selected", optionId: "reject_once" } });
		await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
		expect(c.permissionRequests.map((r) => [r.toolCall.toolCallId, r.toolCall.kind])).toEqual([
			["call_w", "edit"],
			["call_o", "read"],
		]);
		expect(c.writes).toEqual([]);
		expect(readFileSync(file, "utf8")).toBe("keep\n");
		expect(await c.end()).toBe(0);
	});

	it("the model's thinking streams as agent_thought_chunk, its answer as agent_message_chunk", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		server.enqueue({ kind: "sse", chunks: [openAiRecords([{ reasoning_content: "weighing it" }, { content: "the answer" }], "stop")] });
		const c = start(home);
		await initialize(c);
		const { sessionId } = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		expect(await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "think" }] })).toEqual({
			stopReason: "end_turn",
		});
		const kinds = c.updates
			.map((n) => n.update)
			.filter((u) => u.sessionUpdate === "agent_thought_chunk" || u.sessionUpdate === "agent_message_chunk");
		expect(kinds).toEqual([
			{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "weighing it" } },
			{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "the answer" } },
		]);
		expect(await c.end()).toBe(0);
	});

	it("the sandbox applies as in the terminal: a command that failed inside asks again with outside / inside with network / reject", {
		timeout: LONG,
	}, async () => {
		await withPongServer(async (port) => {
			const { server, home } = await cli.setUp();
			const command = `head -1 < /dev/tcp/127.0.0.1/${port}`;
			server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command }, "call_n")] });
			server.enqueue({ kind: "sse", chunks: textRecords(["ok"]) });
			const c = start(home);
			await initialize(c);
			const { sessionId } = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
			const answers = ["allow_once", "allow_network"];
			c.answer = () => ({ outcome: { outcome: "selected", optionId: answers.shift() ?? "reject_once" } });
			await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "ping" }] });
			expect(c.permissionRequests).toHaveLength(2);
			const retry = c.permissionRequests[1];
			expect(retry?.options.map((o) => o.optionId)).toEqual(["allow_once", "allow_network", "reject_once"]);
			expect(JSON.stringify(retry?.toolCall.content)).toContain("It failed inside the sandbox");
			expect(server.requests[1]?.body.messages.find((m: any) => m.role === "tool")?.content).toBe("pong");
			expect(await c.end()).toBe(0);
		});
	});

	it("the model and thinking level are config options: the editor's pick is the next request's model", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp({ modelIds: ["mock-1", "mock-2"] });
		server.enqueue({ kind: "sse", chunks: textRecords(["from two"]) });
		const c = start(home);
		await initialize(c);
		const created = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		const model = created.configOptions?.find((o) => o.id === "model");
		expect(model).toMatchObject({ type: "select", category: "model", currentValue: "mock/mock-1" });
		expect(model?.type === "select" && model.options.map((o) => ("value" in o ? o.value : ""))).toEqual(["mock/mock-1", "mock/mock-2"]);
		expect(created.configOptions?.find((o) => o.id === "thinking")).toMatchObject({ category: "thought_level", currentValue: "off" });
		const { sessionId } = created;
		const set = await c.agent.request("session/set_config_option", { sessionId, configId: "model", value: "mock/mock-2" });
		expect(set.configOptions.find((o) => o.id === "model")?.currentValue).toBe("mock/mock-2");
		await c.waitForUpdate((n) => n.update.sessionUpdate === "config_option_update");
		await expect(c.agent.request("session/set_config_option", { sessionId, configId: "model", value: "mock/nope" })).rejects.toMatchObject({
			code: -32602,
		});
		await expect(c.agent.request("session/set_config_option", { sessionId, configId: "colour", value: "red" })).rejects.toMatchObject({
			code: -32602,
		});
		await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
		expect(server.requests[0]?.body.model).toBe("mock-2");
		expect(await c.end()).toBe(0);
	});

	it("session/cancel mid-stream: the prompt ends cancelled and the model's HTTP stream is closed", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		const pieces = Array.from({ length: 40 }, (_, i) => `word${i} `);
		server.enqueue({ kind: "sse", chunks: textRecords(pieces), delayMs: 150 });
		const c = start(home);
		await initialize(c);
		const { sessionId } = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		const prompt = c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "talk" }] });
		await c.waitForUpdate((n) => n.update.sessionUpdate === "agent_message_chunk");
		expect(server.openSockets()).toBe(1);
		await c.agent.notify("session/cancel", { sessionId });
		expect((await prompt).stopReason).toBe("cancelled");
		await vi.waitFor(() => expect(server.openSockets()).toBe(0), { timeout: 10_000 });
		expect(agentText(c.updates)).not.toContain("word39");
		expect(await c.end()).toBe(0);
	});

	it("finish reasons: length is max_tokens, a content filter is refusal (not an error)", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		server.enqueue({ kind: "sse", chunks: [finishing("cut", "length")] });
		server.enqueue({ kind: "sse", chunks: [finishing("", "content_filter")] });
		const c = start(home);
		await initialize(c);
		const { sessionId } = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		expect(await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "a" }] })).toEqual({
			stopReason: "max_tokens",
		});
		expect(await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "b" }] })).toEqual({
			stopReason: "refusal",
		});
		expect(await c.end()).toBe(0);
	});

	it("session/load replays a saved session (user, tool call, agent text) before answering, then continues it", {
		timeout: LONG,
	}, async () => {
		const { server, home } = await cli.setUp();
		writeFileSync(join(home.cwd, "a.txt"), "alpha\n");
		server.enqueue({ kind: "sse", chunks: [toolCallBody("read", { path: "a.txt" }, "call_r")] });
		server.enqueue({ kind: "sse", chunks: textRecords(["It says alpha."]) });
		const first = start(home);
		await initialize(first);
		const { sessionId } = await first.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		await first.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "what is in a.txt?" }] });
		expect(await first.end()).toBe(0);

		server.enqueue({ kind: "sse", chunks: textRecords(["Still alpha."]) });
		const second = start(home);
		const init = await initialize(second);
		expect(init.agentCapabilities?.loadSession).toBe(true);
		const listed = await second.agent.request("session/list", { cwd: home.cwd });
		expect(listed.sessions).toEqual([{ sessionId, cwd: home.cwd, title: "what is in a.txt?", updatedAt: expect.any(String) }]);
		const loaded = await second.agent.request("session/load", { sessionId, cwd: home.cwd, mcpServers: [] });
		expect(loaded?.modes?.currentModeId).toBe("ask");
		const replay = second.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
		expect(replay.map((u) => u.sessionUpdate)).toEqual(["user_message_chunk", "tool_call", "agent_message_chunk"]);
		expect(replay[0]).toMatchObject({ content: { type: "text", text: "what is in a.txt?" } });
		expect(replay[1]).toMatchObject({
			toolCallId: "call_r",
			kind: "read",
			status: "completed",
			locations: [{ path: join(home.cwd, "a.txt") }],
			content: [{ type: "content", content: { type: "text", text: "alpha" } }],
		});
		expect(replay[2]).toMatchObject({ content: { text: "It says alpha." } });
		const next = await second.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again?" }] });
		expect(next.stopReason).toBe("end_turn");
		const sent = JSON.stringify(server.requests[2]?.body.messages);
		expect(sent).toContain("what is in a.txt?");
		expect(sent).toContain("It says alpha.");
		expect(await second.end()).toBe(0);
	});

	it("_rudder/steer, _rudder/follow_up and a session/prompt sent while a turn runs all join that turn", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "echo hi" }, "call_s")] });
		server.enqueue({ kind: "sse", chunks: textRecords(["first answer"]) });
		server.enqueue({ kind: "sse", chunks: textRecords(["second answer"]) });
		server.enqueue({ kind: "sse", chunks: textRecords(["third answer"]) });
		const c = start(home);
		await initialize(c);
		const { sessionId } = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		let extra: Promise<unknown> | undefined;
		// While the turn waits for the permission answer: prompt again, steer, queue a follow-up. The agent
		// handles messages in order, so the prompt is queued by the time the steer is answered.
		c.answer = async () => {
			extra = c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "prompted meanwhile" }] });
			await c.agent.request("_rudder/steer", { sessionId, text: "steer: use printf" });
			await c.agent.request("_rudder/follow_up", { sessionId, text: "then summarise" });
			return { outcome: { outcome: "selected", optionId: "allow_once" } };
		};
		const response = await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
		expect(response.stopReason).toBe("end_turn");
		expect(await extra).toEqual({ stopReason: "end_turn" });
		// Steering is delivered one message per model call (the default steeringMode), the follow-up after both.
		expect(server.requests).toHaveLength(4);
		const sent = server.requests.map((r) => JSON.stringify(r.body.messages));
		expect(sent[1]).toContain("prompted meanwhile");
		expect(sent[1]).not.toContain("steer: use printf");
		expect(sent[2]).toContain("steer: use printf");
		expect(sent[2]).not.toContain("then summarise");
		expect(sent[3]).toContain("then summarise");
		// Messages the client did not send as the turn's prompt are shown as the user's.
		const userTexts = c.updates
			.map((n) => n.update)
			.flatMap((u) => (u.sessionUpdate === "user_message_chunk" && u.content.type === "text" ? [u.content.text] : []));
		expect(userTexts).toEqual(["prompted meanwhile", "steer: use printf", "then summarise"]);
		expect(agentText(c.updates)).toBe("first answersecond answerthird answer");
		// Nothing runs now: steering has nothing to join.
		await expect(c.agent.request("_rudder/steer", { sessionId, text: "late" })).rejects.toMatchObject({ code: -32600 });
		expect(await c.end()).toBe(0);
	});

	it("protocol errors get JSON-RPC errors and the agent keeps serving", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		server.enqueue({ kind: "sse", chunks: textRecords(["still here"]) });
		const c = start(home);
		await initialize(c);
		const { sessionId } = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
		const prompt = (params: unknown) => c.agent.request("session/prompt", params as never);
		await expect(prompt({ sessionId: "no-such-session", prompt: [] })).rejects.toMatchObject({
			code: -32002,
			data: { sessionId: "no-such-session" },
		});
		await expect(prompt({ sessionId, prompt: "not a list" })).rejects.toMatchObject({ code: -32602 });
		await expect(prompt({ prompt: [] })).rejects.toMatchObject({ code: -32602 });
		await expect(c.agent.request("session/new", { cwd: "relative/dir", mcpServers: [] })).rejects.toMatchObject({ code: -32602 });
		await expect(c.agent.request("session/new", { cwd: join(home.cwd, "missing"), mcpServers: [] })).rejects.toMatchObject({
			code: -32602,
		});
		await expect(c.agent.request("session/load", { sessionId: "nope", cwd: home.cwd, mcpServers: [] })).rejects.toMatchObject({
			code: -32002,
		});
		await expect(c.agent.request("session/set_mode", { sessionId, modeId: "reckless" })).rejects.toMatchObject({ code: -32602 });
		await expect(c.agent.request("_rudder/steer", { sessionId })).rejects.toMatchObject({ code: -32602 });
		await expect(c.agent.request("rudder/unknown", {})).rejects.toMatchObject({ code: -32601 });
		c.sendRaw("{this is not json");
		c.sendRaw('{"jsonrpc":"2.0","id":99,"method":"session/prompt","params":{"sessionId":42}}');
		const response = await prompt({ sessionId, prompt: [{ type: "text", text: "hello?" }] });
		expect(response.stopReason).toBe("end_turn");
		expect(agentText(c.updates)).toBe("still here");
		expect(c.stderr()).not.toMatch(/\n\s+at /);
		expect(await c.end()).toBe(0);
		// A client that skips initialize is told so.
		const early = start(home);
		await expect(early.agent.request("session/new", { cwd: home.cwd, mcpServers: [] })).rejects.toMatchObject({ code: -32600 });
		expect(await early.end()).toBe(0);
	});
});

/** OpenAI chat-completions records: one per delta, then the finish reason. */
function openAiRecords(deltas: object[], reason: string): string {
	const base = { id: "chatcmpl-test", object: "chat.completion.chunk", created: 1, model: "mock-1" };
	const record = (delta: object, finish: string | null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
	return sse([record({ role: "assistant" }, null), ...deltas.map((d) => record(d, null)), record({}, reason)], { done: true });
}

/** A text answer that ends with `reason`. */
function finishing(text: string, reason: string): string {
	return openAiRecords(text ? [{ content: text }] : [], reason);
}
