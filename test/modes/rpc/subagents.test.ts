// Sub-agents and plan approval over rpc (built CLI against a 127.0.0.1 server): sub-agent events carry
// the agent id and the parent tool call; `steer` with `agentId` reaches that sub-agent's next request
// only; `get_state` has the todo list; the plan comes as `plan_request` and `plan_response` approves it.
import { describe, expect, it } from "vitest";
import { textBody, toolCallBody, toolCallRecords } from "../../helpers/openai-chunks.js";
import { cliPerTest } from "../../helpers/rudder-cli.js";

const LONG = 90_000;
const cli = cliPerTest();

describe("sub-agents over rpc", () => {
	it("subagent events carry agentId and parentToolCallId; steer with agentId goes to that sub-agent only; get_state has the todos", {
		timeout: LONG,
	}, async () => {
		const { server } = await cli.setUp();
		const client = cli.rpc();
		server.enqueue({
			kind: "sse",
			chunks: [toolCallBody("todo_write", { todos: [{ content: "Delegate", status: "in_progress" }] }, "todo_1")],
		});
		server.enqueue({
			kind: "sse",
			chunks: [toolCallBody("task", { agent: "explore", description: "look around", prompt: "List the folder" }, "task_1")],
		});
		// The sub-agent's first reply streams slowly, so it is still running when the steer arrives.
		server.enqueue({ kind: "sse", chunks: toolCallRecords("ls", ['{"pa', 'th":', '"."}'], "ls_1"), delayMs: 400 });
		server.enqueue({ kind: "sse", chunks: [textBody("sub-agent answer")] });
		server.enqueue({ kind: "sse", chunks: [textBody("main answer")] });
		client.send({ id: "p1", type: "prompt", message: "go" });
		const start = await client.waitFor((l) => l.type === "subagent_start");
		expect(start).toMatchObject({
			agentId: "explore-1",
			parentToolCallId: "task_1",
			name: "explore",
			task: "look around",
			status: "running",
		});
		client.send({ id: "s0", type: "steer", agentId: "explore-9", message: "nobody" });
		expect(await client.waitFor((l) => l.type === "response" && l.id === "s0")).toMatchObject({
			success: false,
			error: expect.stringContaining('No running sub-agent "explore-9"'),
		});
		client.send({ id: "s1", type: "steer", agentId: "explore-1", message: "Look only at src" });
		expect(await client.waitFor((l) => l.type === "response" && l.id === "s1")).toMatchObject({ success: true });
		client.send({ id: "st", type: "get_state" });
		const state = await client.waitFor((l) => l.type === "response" && l.id === "st");
		expect(state.data.todos).toEqual([{ content: "Delegate", status: "in_progress" }]);
		const end = await client.waitFor((l) => l.type === "subagent_end");
		expect(end).toMatchObject({ agentId: "explore-1", parentToolCallId: "task_1", status: "done", result: "sub-agent answer" });
		await client.waitFor((l) => l.type === "agent_end");
		// The sub-agent's tokens come as its own events, named like the others, without the growing message.
		const subTokens = client.lines.filter((l) => l.type === "subagent_message_update");
		expect(subTokens.length).toBeGreaterThan(0);
		for (const l of subTokens) {
			expect(l).toMatchObject({ agentId: "explore-1", parentToolCallId: "task_1" });
			expect(l.assistantMessageEvent.partial).toBeUndefined();
		}
		const subText = subTokens.flatMap((l) => (l.assistantMessageEvent.type === "text_delta" ? [l.assistantMessageEvent.delta] : []));
		expect(subText.join("")).toBe("sub-agent answer");
		const mainText = client.lines.flatMap((l) =>
			l.type === "message_update" && l.assistantMessageEvent.type === "text_delta" ? [l.assistantMessageEvent.delta] : [],
		);
		expect(mainText.join("")).toBe("main answer");
		const bodies = server.requests.map((r) => JSON.stringify(r.body.messages));
		expect(bodies[3]).toContain("Look only at src");
		expect(bodies.filter((b) => b.includes("Look only at src"))).toHaveLength(1);
		expect(bodies[4]).toContain("sub-agent answer");
		expect((await client.end()).code).toBe(0);
	});

	it("plan mode: plan_request, then plan_response approve switches the mode and the run goes on", { timeout: LONG }, async () => {
		const { server } = await cli.setUp();
		// The plan approval is answered by the client, so it opts in to answering requests.
		const client = cli.rpc(["--permission-mode", "plan", "--rpc-approvals"]);
		server.enqueue({ kind: "sse", chunks: [toolCallBody("exit_plan_mode", { plan: "1. Do it" }, "plan_1")] });
		server.enqueue({ kind: "sse", chunks: [textBody("doing it")] });
		client.send({ id: "p1", type: "prompt", message: "plan it" });
		const request = await client.waitFor((l) => l.type === "plan_request");
		expect(request).toMatchObject({ toolCallId: "plan_1", plan: "1. Do it" });
		client.send({ type: "plan_response", id: "plan-x", decision: "approve" });
		expect(await client.waitFor((l) => l.type === "response" && l.id === "plan-x")).toMatchObject({
			success: false,
			error: 'no plan "plan-x" is waiting',
		});
		client.send({ type: "plan_response", id: request.id, decision: "approve", mode: "ask" });
		await client.waitFor((l) => l.type === "agent_end");
		expect(client.lines.find((l) => l.type === "plan_end")).toMatchObject({ id: request.id, decision: "approve" });
		expect(JSON.stringify(server.requests[1].body.messages)).toContain("Carry out this plan now:\\n\\n1. Do it");
		client.send({ id: "st", type: "get_state" });
		expect((await client.waitFor((l) => l.type === "response" && l.id === "st")).data.permissionMode).toBe("ask");
		expect((await client.end()).code).toBe(0);
	});
});
