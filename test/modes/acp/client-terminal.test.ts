// bash through the editor's terminal (`terminal/*`), driven end to end: the built CLI as the agent, the
// SDK's client side as the editor, whose terminals really run the commands. The terminal is used only
// for commands Rudder would run unsandboxed anyway (yolo, no sandbox); sandboxed commands stay Rudder's.
import { afterEach, describe, expect, it } from "vitest";
import { type ClientTerminal, clientTerminalBash } from "../../../src/modes/acp/client-terminal.js";
import { textRecords, toolCallBody } from "../../helpers/openai-chunks.js";
import { withPongServer } from "../../helpers/pong-server.js";
import { cliPerTest } from "../../helpers/rudder-cli.js";
import { type AcpTestClient, initialize, startAcp } from "./acp-client.js";

const LONG = 90_000;
const cli = cliPerTest();
const clients: AcpTestClient[] = [];
afterEach(() => {
	for (const c of clients.splice(0)) c.child.kill("SIGKILL");
});

async function start(mode: string) {
	const { server, home } = await cli.setUp();
	// Keys in the agent's environment: by name (a provider key, a token) they never reach a command.
	home.env.OPENAI_API_KEY = "sk-test-never-in-a-terminal-0123456789";
	home.env.MY_SERVICE_TOKEN = "tok-never-in-a-terminal";
	home.env.RUDDER_TEST_PLAIN = "plain-value";
	const c = startAcp(home, ["--mode", "acp", "--model", "mock/mock-1", "--permission-mode", mode], { terminal: true });
	clients.push(c);
	await initialize(c, false, true);
	const { sessionId } = await c.agent.request("session/new", { cwd: home.cwd, mcpServers: [] });
	return { server, home, c, sessionId };
}

const toolResults = (body: any): unknown[] => body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.content);
const methods = (c: AcpTestClient) => c.terminalCalls.map((t) => t.method);

describe("acp: bash through the client's terminal", () => {
	it("in yolo a command runs in the editor's terminal (shown live), the model gets its output, no key reaches its env", {
		timeout: LONG,
	}, async () => {
		const { server, home, c, sessionId } = await start("yolo");
		const command = 'echo "out:$RUDDER_TEST_PLAIN"; echo "key:[$OPENAI_API_KEY][$MY_SERVICE_TOKEN]"; pwd';
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command }, "call_t")] });
		server.enqueue({ kind: "sse", chunks: textRecords(["done"]) });
		const response = await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
		expect(response.stopReason).toBe("end_turn");
		expect(methods(c)).toEqual(["terminal/create", "terminal/wait_for_exit", "terminal/output", "terminal/release"]);
		const create = c.terminalCalls[0]?.params as { command: string; args: string[]; cwd: string; env: { name: string; value: string }[] };
		expect(create).toMatchObject({ sessionId, args: ["-c", command], cwd: home.cwd });
		const env = Object.fromEntries(create.env.map((v) => [v.name, v.value]));
		expect(env.RUDDER_TEST_PLAIN).toBe("plain-value");
		expect(env).not.toHaveProperty("OPENAI_API_KEY");
		expect(env).not.toHaveProperty("MY_SERVICE_TOKEN");
		expect(JSON.stringify(create.env)).not.toContain("never-in-a-terminal");
		// The editor is told which terminal shows the call.
		const shown = c.updates.find(
			(n) => n.update.sessionUpdate === "tool_call_update" && n.update.content?.some((x) => x.type === "terminal"),
		);
		expect(shown?.update).toMatchObject({ toolCallId: "call_t", content: [{ type: "terminal", terminalId: "term-1" }] });
		expect(toolResults(server.requests[1]?.body)).toEqual([`out:plain-value\nkey:[][]\n${home.cwd}`]);
		expect(await c.end()).toBe(0);
	});

	it("with a working sandbox (auto) the command runs in Rudder's sandbox, not the editor's terminal; after set_mode yolo it does", {
		timeout: LONG,
	}, async () => {
		const { server, c, sessionId } = await start("auto");
		// Outside the workspace, the sandbox's file system is read-only: the write fails inside it.
		server.enqueue({
			kind: "sse",
			chunks: [toolCallBody("bash", { command: "echo boxed; test -w /usr && echo writable || echo read-only" }, "call_a")],
		});
		server.enqueue({ kind: "sse", chunks: textRecords(["one"]) });
		await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "first" }] });
		expect(c.terminalCalls).toEqual([]);
		expect(toolResults(server.requests[1]?.body)).toEqual(["boxed\nread-only"]);

		await c.agent.request("session/set_mode", { sessionId, modeId: "yolo" });
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "echo free" }, "call_b")] });
		server.enqueue({ kind: "sse", chunks: textRecords(["two"]) });
		await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "second" }] });
		expect(methods(c)[0]).toBe("terminal/create");
		expect(toolResults(server.requests[3]?.body).at(-1)).toBe("free");
		expect(await c.end()).toBe(0);
	});

	it("a command that failed in the sandbox and that the user approved to run outside it runs in the editor's terminal", {
		timeout: LONG,
	}, async () => {
		await withPongServer(async (port) => {
			const { server, c, sessionId } = await start("auto");
			const command = `head -1 < /dev/tcp/127.0.0.1/${port}`;
			server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command }, "call_o")] });
			server.enqueue({ kind: "sse", chunks: textRecords(["ok"]) });
			c.answer = () => ({ outcome: { outcome: "selected", optionId: "allow_once" } });
			await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "ping" }] });
			// It ran sandboxed first (no terminal, no network), then outside: in the terminal.
			expect(c.permissionRequests.map((r) => r.options.map((o) => o.optionId))).toEqual([["allow_once", "allow_network", "reject_once"]]);
			expect(c.terminalCalls[0]).toMatchObject({ method: "terminal/create", params: { sessionId, args: ["-c", command] } });
			const env = ((c.terminalCalls[0]?.params.env ?? []) as { name: string }[]).map((v) => v.name);
			expect(env).toContain("RUDDER_TEST_PLAIN");
			expect(env).not.toContain("OPENAI_API_KEY");
			expect(toolResults(server.requests[1]?.body)).toEqual(["pong"]);
			expect(await c.end()).toBe(0);
		});
	});

	it("session/cancel mid-command kills and releases the terminal; the turn ends cancelled", { timeout: LONG }, async () => {
		const { server, c, sessionId } = await start("yolo");
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "echo started; sleep 60" }, "call_c")] });
		const prompt = c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
		await c.waitForUpdate((n) => n.update.sessionUpdate === "tool_call_update" && !!n.update.content?.some((x) => x.type === "terminal"));
		await c.agent.notify("session/cancel", { sessionId });
		expect((await prompt).stopReason).toBe("cancelled");
		expect(methods(c)).toContain("terminal/kill");
		expect(methods(c).at(-1)).toBe("terminal/release");
		expect(await c.end()).toBe(0);
	});

	it("a timeout kills the command in the terminal; the model is told it timed out, with the output so far", { timeout: LONG }, async () => {
		const { server, c, sessionId } = await start("yolo");
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "echo before; sleep 60", timeout: 1 }, "call_d")] });
		server.enqueue({ kind: "sse", chunks: textRecords(["ok"]) });
		const response = await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
		expect(response.stopReason).toBe("end_turn");
		expect(methods(c)).toEqual(["terminal/create", "terminal/wait_for_exit", "terminal/kill", "terminal/output", "terminal/release"]);
		expect(toolResults(server.requests[1]?.body)).toEqual(["before\n\nCommand timed out after 1 seconds"]);
		expect(await c.end()).toBe(0);
	});
});

describe("clientTerminalBash: where a command runs", () => {
	const editor = (created: string[]): ClientTerminal => ({
		create: async (command) => {
			created.push(command.args.join(" "));
			return {
				id: "t1",
				waitForExit: async () => ({ exitCode: 0 }),
				output: async () => ({ output: "from the editor\n", truncated: false }),
				kill: async () => {},
				release: async () => {},
			};
		},
		show: async () => {},
	});
	const own = async () => ({ content: [{ type: "text" as const, text: "from Rudder" }], details: {} });
	const text = (r: { content: { type: string; text?: string }[] }) => r.content[0]?.text;

	it("sandboxed (bwrap) and background commands stay Rudder's; unsandboxed ones (none, off) go to the editor", async () => {
		for (const [sandbox, expected] of [
			["bwrap", "from Rudder"],
			["none", "from the editor"],
			["off", "from the editor"],
		] as const) {
			const created: string[] = [];
			const bash = clientTerminalBash(editor(created), { cwd: "/", env: {}, sandbox: () => sandbox, own });
			expect(text(await bash("c1", { command: "echo x" }))).toBe(expected);
			expect(created).toEqual(sandbox === "bwrap" ? [] : ["-c echo x"]);
			expect(text(await bash("c2", { command: "sleep 1", run_in_background: true }))).toBe("from Rudder");
		}
	});

	it("cancelled while the editor was creating the terminal: the command is killed and released at once", async () => {
		const calls: string[] = [];
		const controller = new AbortController();
		const terminal: ClientTerminal = {
			create: async () => {
				controller.abort();
				return {
					id: "t1",
					// An editor whose command never ends by itself.
					waitForExit: () => new Promise(() => {}),
					output: async () => ({ output: "partial\n", truncated: false }),
					kill: async () => {
						calls.push("kill");
					},
					release: async () => {
						calls.push("release");
					},
				};
			},
			show: async () => {},
		};
		const bash = clientTerminalBash(terminal, { cwd: "/", env: {}, sandbox: () => "off", own });
		await expect(bash("c1", { command: "sleep 60" }, controller.signal)).rejects.toThrow("partial\n\nCommand aborted");
		expect(calls).toEqual(["kill", "release"]);
	});
});
