// Approvals over rpc (built CLI against a 127.0.0.1 server): the model asks for a command, the client
// gets `approval_request` with the preview and answers with `approve`; json and print deny such a
// call with the flag that allows it, and the run goes on.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textBody, toolCallBody } from "../../helpers/openai-chunks.js";
import { withPongServer } from "../../helpers/pong-server.js";
import { cliPerTest, runCli } from "../../helpers/rudder-cli.js";

const LONG = 90_000;
const cli = cliPerTest();

const toolResultsOf = (end: any) => end.messages.filter((m: any) => m.role === "toolResult").map((m: any) => m.content[0].text);

describe("approvals over rpc", () => {
	it("approval_request → approve allow runs it; deny with a reason sends the reason to the model", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		// ask: in auto, the default where bwrap works, a sandboxed command would not ask.
		const client = cli.rpc(["--rpc-approvals", "--permission-mode", "ask"]);
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "echo approved > made.txt" }, "call_a")] });
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "rm -rf build" }, "call_b")] });
		server.enqueue({ kind: "sse", chunks: [textBody("ok")] });
		client.send({ id: "p1", type: "prompt", message: "go" });
		const first = await client.waitFor((l) => l.type === "approval_request");
		expect(first).toMatchObject({ toolCallId: "call_a", tool: "bash", args: { command: "echo approved > made.txt" }, kind: "call" });
		expect(first.preview).toMatchObject({ type: "command", command: "echo approved > made.txt", sandbox: "bwrap", network: false });
		expect(existsSync(join(home.cwd, "made.txt"))).toBe(false);
		client.send({ type: "approve", id: "nope", decision: "allow" });
		expect(await client.waitFor((l) => l.type === "response" && l.command === "approve" && l.id === "nope")).toMatchObject({
			success: false,
			error: 'no approval "nope" is waiting',
		});
		client.send({ type: "approve", id: first.id, decision: "allow" });
		const second = await client.waitFor((l) => l.type === "approval_request" && l.id !== first.id);
		expect(existsSync(join(home.cwd, "made.txt"))).toBe(true);
		client.send({ type: "approve", id: second.id, decision: "deny", reason: "keep the build" });
		const end = await client.waitFor((l) => l.type === "agent_end");
		expect(toolResultsOf(end)).toEqual(["(no output)", "The user denied this call: keep the build"]);
		expect((await client.end()).code).toBe(0);
	});

	it("a command that failed in the sandbox: approve with network: true runs it again inside, with the network; always adds a session rule", {
		timeout: LONG,
	}, async () => {
		await withPongServer(async (port) => {
			const { server, home } = await cli.setUp();
			// ask: in auto, the default where bwrap works, a sandboxed command would not ask.
			const client = cli.rpc(["--permission-mode", "ask"]);
			// Opting in by command instead of the flag.
			client.send({ id: "opt", type: "set_approvals", enabled: true });
			expect(await client.waitFor((l) => l.type === "response" && l.id === "opt")).toMatchObject({ success: true });
			const command = `head -1 < /dev/tcp/127.0.0.1/${port}`;
			server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command }, "call_n")] });
			server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "echo same" }, "call_s1")] });
			server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "echo same" }, "call_s2")] });
			server.enqueue({ kind: "sse", chunks: [textBody("ok")] });
			client.send({ id: "p1", type: "prompt", message: "go" });
			const ask = await client.waitFor((l) => l.type === "approval_request");
			client.send({ type: "approve", id: ask.id, decision: "allow" });
			const retry = await client.waitFor((l) => l.type === "approval_request" && l.kind === "unsandboxed");
			expect(retry).toMatchObject({ toolCallId: "call_n", preview: { type: "command", command, sandbox: "none" } });
			client.send({ type: "approve", id: retry.id, decision: "allow", network: true });
			const same = await client.waitFor((l) => l.type === "approval_request" && l.toolCallId === "call_s1");
			client.send({ type: "approve", id: same.id, decision: "always" });
			const end = await client.waitFor((l) => l.type === "agent_end");
			expect(toolResultsOf(end)).toEqual(["pong", "same", "same"]);
			// The second "echo same" ran on the session rule: no third request.
			expect(client.lines.filter((l: any) => l.type === "approval_request")).toHaveLength(3);
			expect(existsSync(join(home.cwd, ".rudder"))).toBe(false);
			expect((await client.end()).code).toBe(0);
		});
	});

	it("a client that did not opt in is never left waiting: the call fails as in -p, naming what allows it", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		// ask: in auto, the default where bwrap works, a sandboxed command would not ask.
		const client = cli.rpc(["--permission-mode", "ask"]);
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "touch made.txt" }, "call_r")] });
		server.enqueue({ kind: "sse", chunks: [textBody("could not")] });
		client.send({ id: "p1", type: "prompt", message: "go" });
		const end = await client.waitFor((l) => l.type === "agent_end");
		expect(toolResultsOf(end)).toEqual([
			'Not run: the command `touch made.txt` needs the user\'s approval (commands ask first), and rpc mode (without --rpc-approvals or set_approvals) cannot ask. To allow it, run rudder with --allow "bash(touch made.txt*)".',
		]);
		expect(client.lines.some((l: any) => l.type === "approval_request")).toBe(false);
		expect(existsSync(join(home.cwd, "made.txt"))).toBe(false);
		// A bad set_approvals is one line; opting out again after opting in asks nobody.
		client.send({ id: "bad", type: "set_approvals", enabled: "yes" });
		expect(await client.waitFor((l) => l.type === "response" && l.id === "bad")).toMatchObject({ success: false });
		expect((await client.end()).code).toBe(0);
	});

	it("json mode denies a call that would ask, naming the flag, and the run goes on", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "npm test" }, "call_j")] });
		server.enqueue({ kind: "sse", chunks: [textBody("could not")] });
		const run = await runCli(["--mode", "json", "--permission-mode", "ask", "--model", "mock/mock-1", "--no-session", "go"], home);
		expect(run.code).toBe(0);
		const events = run.stdout
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l));
		const end = events.find((e) => e.type === "tool_execution_end");
		expect(end.isError).toBe(true);
		expect(end.result.content[0].text).toBe(
			'Not run: the command `npm test` needs the user\'s approval (commands ask first), and json mode cannot ask. To allow it, run rudder with --allow "bash(npm test*)".',
		);
		expect(events.some((e) => e.type === "approval_request")).toBe(false);
		expect(server.requests).toHaveLength(2);
	});

	it("print mode with --allow runs the command, and --permission-mode auto-edit lets a write through", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: "echo from-test" }, "call_p")] });
		server.enqueue({ kind: "sse", chunks: [toolCallBody("write", { path: "out.txt", content: "written" }, "call_w")] });
		server.enqueue({ kind: "sse", chunks: [textBody("done")] });
		const run = await runCli(
			["-p", "--model", "mock/mock-1", "--no-session", "--allow", "bash(echo *)", "--permission-mode", "auto-edit", "go"],
			home,
		);
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("done\n");
		expect(existsSync(join(home.cwd, "out.txt"))).toBe(true);
		const results = server.requests[2].body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.content);
		expect(results).toEqual(["from-test", "Wrote 7 bytes to out.txt"]);
	});

	it("a malformed --allow rule is one line naming the flag, exit 2", async () => {
		const home = cli.bareHome();
		const run = await runCli(["-p", "--allow", "bash(", "hi"], home);
		expect(run.code).toBe(2);
		expect(run.stderr).toBe(
			'rudder: --allow: permission rule "bash(" must be a tool name or tool(pattern), e.g. "bash(npm test*)" or "edit(src/**)"\n',
		);
	});
});
