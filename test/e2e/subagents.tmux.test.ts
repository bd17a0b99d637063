// Sub-agents, the todo list and the plan in the built app in a real terminal (tmux on a private socket,
// a scripted model on 127.0.0.1): two sub-agents running under their task call, a steer sent to one
// with Alt+S then Enter, the checklist mid-run, the plan overlay approved with 1. The captures are
// written to $RUDDER_CAPTURE_DIR when it is set (the note shows them).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textBody, toolCallBody, toolCallRecords } from "../helpers/openai-chunks.js";
import { toolCallsReply } from "../helpers/routed-model-server.js";
import { tmuxAppPerTest } from "../helpers/tmux-app.js";

const LONG = 90_000;
const term = tmuxAppPerTest("rudder-subagents");
const { capture, sendText, sendKey, waitForScreen, start } = term;

function keep(name: string, screen: string): void {
	const dir = process.env.RUDDER_CAPTURE_DIR;
	if (dir) writeFileSync(join(dir, `${name}.txt`), screen);
}

const bodies = () => term.server.requests.map((r) => JSON.stringify(r.body.messages));
const isSub = (body: string) => body.includes("You are an explorer sub-agent");

describe("sub-agents in a real terminal", () => {
	it("two sub-agents run under their task call with the todo list above the input; Alt+S and Enter steer one of them", {
		timeout: LONG,
	}, async () => {
		const { server } = await term.setUp();
		const todos = [
			{ content: "Search alpha and beta", status: "in_progress" },
			{ content: "Write the report", status: "pending" },
		];
		server.enqueue({ kind: "sse", chunks: [toolCallBody("todo_write", { todos }, "todo_1")] });
		server.enqueue({
			kind: "sse",
			chunks: [
				toolCallsReply([
					{ id: "task_a", name: "task", args: { agent: "explore", description: "look for alpha", prompt: "Find alpha" } },
					{ id: "task_b", name: "task", args: { agent: "explore", description: "look for beta", prompt: "Find beta" } },
				]),
			],
		});
		// Each sub-agent's first reply streams for seconds: long enough to look, select one and steer it.
		for (const id of ["ls_1", "ls_2"]) {
			server.enqueue({ kind: "sse", chunks: toolCallRecords("ls", ["{", '"pa', "th", '":', '"', ".", '"', "}"], id), delayMs: 700 });
		}
		server.enqueue({ kind: "sse", chunks: [textBody("first answer")] }, { kind: "sse", chunks: [textBody("second answer")] });
		server.enqueue({ kind: "sse", chunks: [textBody("Both searches are done.")] });
		await start(["--model", "mock/mock-1", "--no-session"], { columns: 110, rows: 30 });
		sendText("search alpha and beta");
		sendKey("Enter");
		const running = await waitForScreen(
			(s) => s.includes("explore (explore-1)") && s.includes("explore (explore-2)") && s.includes("Todos 0/2"),
			"two sub-agents and the todo list",
		);
		keep("two-subagents-and-todos", running);
		expect(running).toContain("◐ Search alpha and beta");
		sendKey("M-s");
		const selected = await waitForScreen((s) => s.includes("▸ explore (explore-1)"), "explore-1 selected");
		expect(selected).toContain("steer sub-agent explore-1");
		sendText("only look at src");
		sendKey("Enter");
		const steered = await waitForScreen((s) => s.includes("Steering sub-agent explore-1: only look at src"), "the steer");
		keep("steer-sent-to-one", steered);
		// Ctrl+O shows the selected sub-agent's transcript in a pager; q closes it.
		sendKey("C-o");
		const pager = await waitForScreen((s) => s.includes("Sub-agent explore (explore-1) · running · look for alpha"), "the pager");
		keep("subagent-transcript-pager", pager);
		expect(pager).toContain("› Find alpha");
		sendText("q");
		await waitForScreen((s) => !s.includes("Sub-agent explore (explore-1) ·"), "the pager closed");
		await waitForScreen((s) => s.includes("Both searches are done."), "the answer", 30_000);
		// The steer went into one sub-agent's next request, and into no other request.
		const withSteer = bodies().filter((b) => b.includes("only look at src"));
		expect(withSteer).toHaveLength(1);
		expect(isSub(withSteer[0])).toBe(true);
		expect(capture()).not.toContain("↳ explore");
	});

	it("plan mode: the plan overlay, 1 approves and switches to auto-edit, the run carries the plan out", { timeout: LONG }, async () => {
		const { server } = await term.setUp();
		server.enqueue({
			kind: "sse",
			chunks: [toolCallBody("exit_plan_mode", { plan: "## Plan\n1. Write notes.md with the findings\n2. Run the tests" }, "plan_1")],
		});
		server.enqueue({ kind: "sse", chunks: [toolCallBody("write", { path: "notes.md", content: "findings\n" }, "write_1")] });
		server.enqueue({ kind: "sse", chunks: [textBody("Notes written.")] });
		await start(["--model", "mock/mock-1", "--no-session", "--permission-mode", "plan"], { columns: 110, rows: 30 });
		sendText("plan the notes");
		sendKey("Enter");
		const plan = await waitForScreen((s) => s.includes("The plan (approve to carry it out):"), "the plan overlay");
		keep("plan-approval", plan);
		expect(plan).toContain("1. Write notes.md with the findings");
		sendText("1");
		await waitForScreen((s) => s.includes("Notes written."), "the run carried on");
		expect(capture()).toContain("auto-edit");
	});
});
