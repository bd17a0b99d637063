// Sub-agents against a scripted model on 127.0.0.1 that plays the main agent and the sub-agents, told
// apart by their system prompts: parallel runs with tools, Esc stopping the whole tree, a steer routed
// to one sub-agent, an approval naming the sub-agent, the side branch in the session file.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { processSecrets, REDACTED } from "../../../src/safety/secrets.js";
import { STOP_HOOK_LIMIT } from "../../../src/session/session-hooks.js";
import { loadSession } from "../../../src/session/session-load.js";
import type { SessionEvent } from "../../../src/session/types.js";
import { commandHook } from "../../extensions/hooks/hook-project.js";
import { latch } from "../../helpers/latch.js";
import { isRunning } from "../../helpers/processes.js";
import { putFile } from "../../helpers/put-file.js";
import { type ChatRequest, textReply, toolCallsReply, toolResults } from "../../helpers/routed-model-server.js";
import { routedSessionPerTest } from "../../helpers/routed-session.js";
import { waitUntil } from "../../helpers/wait-until.js";
import type { Fixture } from "../session-fixture.js";

const bed = routedSessionPerTest(["read", "ls", "bash"]);
const { open } = bed;

const isMain = (r: ChatRequest) => r.system.startsWith("You are Rudder");
const isExplorer = (r: ChatRequest) => r.system.startsWith("You are an explorer sub-agent");
const isGeneral = (r: ChatRequest) => r.system.startsWith("You are a sub-agent of Rudder");
/** The task a sub-agent's request is about (its first user message). */
const taskOf = (r: ChatRequest) => JSON.stringify(r.messages.find((m) => m.role === "user")?.content ?? "");

/** Resolves once `count` calls arrived; each call waits for that. */
function barrier(count: number): () => Promise<void> {
	let arrived = 0;
	let open!: () => void;
	const opened = new Promise<void>((r) => {
		open = r;
	});
	return () => {
		arrived++;
		if (arrived >= count) open();
		return opened;
	};
}

const twoTasks = (agent = "explore") =>
	toolCallsReply([
		{ id: "task_a", name: "task", args: { agent, description: "look for alpha", prompt: "Find alpha" } },
		{ id: "task_b", name: "task", args: { agent, description: "look for beta", prompt: "Find beta" } },
	]);

describe("the task tool", () => {
	it("runs two sub-agents in parallel, each with its own tools; their answers are the results and their usage counts", async () => {
		const bothAsked = barrier(2);
		const f = await open(async (r) => {
			if (isMain(r)) {
				const results = toolResults(r);
				return results.size === 0 ? twoTasks() : textReply(`main saw: ${results.get("task_a")} / ${results.get("task_b")}`);
			}
			expect(isExplorer(r)).toBe(true);
			const which = taskOf(r).includes("alpha") ? "alpha" : "beta";
			const results = toolResults(r);
			if (results.size === 0) {
				// Neither is answered until both asked: run one after the other, they would wait here forever.
				await bothAsked();
				return toolCallsReply([{ id: `ls_${which}`, name: "ls", args: {} }]);
			}
			return textReply(`${which} found, listing had ${results.get(`ls_${which}`)?.includes(`${which}.txt`)}`);
		});
		writeFileSync(join(f.cwd, "alpha.txt"), "a");
		writeFileSync(join(f.cwd, "beta.txt"), "b");
		await f.session.prompt("Search both");
		const last = f.session.getState().messages.at(-1);
		expect(last).toMatchObject({
			role: "assistant",
			content: [{ type: "text", text: "main saw: alpha found, listing had true / beta found, listing had true" }],
		});
		// The explorer has its read-only subset: no bash, no task.
		expect(bed.server.requests.find(isExplorer)?.tools).toEqual(["read", "ls"]);
		expect(bed.server.requests.find(isMain)?.tools).toEqual(["read", "ls", "bash", "task", "todo_write"]);
		const starts = f.events.filter((e) => e.type === "subagent_start");
		expect(starts.map((e) => (e as { task: string }).task).sort()).toEqual(["look for alpha", "look for beta"]);
		const ends = f.events.filter((e): e is Extract<SessionEvent, { type: "subagent_end" }> => e.type === "subagent_end");
		expect(ends.map((e) => e.status)).toEqual(["done", "done"]);
		// 2 main requests and 2 per sub-agent, 12 input tokens each: all counted in the session totals.
		expect(bed.server.requests).toHaveLength(6);
		expect(f.session.getState().totals.input).toBe(72);
		// The main agent's second request holds the results, not the sub-agents' messages.
		const mainSecond = bed.server.requests.filter(isMain)[1];
		expect(mainSecond?.text).not.toContain("ls_alpha");
	});

	it("streams a sub-agent's reply to listeners as subagent_message_update, named by agent and task call, redacted", async () => {
		const secret = "sk-subagent-secret-0123456789";
		processSecrets.add(secret);
		const f = await open((r) =>
			isMain(r)
				? toolResults(r).size === 0
					? toolCallsReply([{ id: "task_a", name: "task", args: { agent: "explore", description: "look", prompt: "Find alpha" } }])
					: textReply("main done")
				: textReply(`alpha is in the key ${secret} file`),
		);
		await f.session.prompt("Search");
		const updates = f.events.filter(
			(e): e is Extract<SessionEvent, { type: "subagent_message_update" }> => e.type === "subagent_message_update",
		);
		expect(updates.length).toBeGreaterThan(0);
		for (const u of updates) expect(u).toMatchObject({ agentId: "explore-1", parentToolCallId: "task_a" });
		const deltas = updates.flatMap((u) => (u.assistantMessageEvent.type === "text_delta" ? [u.assistantMessageEvent.delta] : []));
		expect(deltas.join("")).toBe(`alpha is in the key ${REDACTED} file`);
		// The main agent's own updates are not mixed with them.
		const mainDeltas = f.events.flatMap((e) =>
			e.type === "message_update" && e.assistantMessageEvent.type === "text_delta" ? [e.assistantMessageEvent.delta] : [],
		);
		expect(mainDeltas.join("")).toBe("main done");
	});

	it("keeps the sub-agents' messages on a side branch: a resumed session's next request carries none of them", async () => {
		const f = await open((r) => {
			if (isMain(r)) {
				if (r.text.includes("second question")) return textReply("second answer");
				return toolResults(r).size === 0 ? twoTasks() : textReply("both done");
			}
			const which = taskOf(r).includes("alpha") ? "alpha" : "beta";
			return toolResults(r).size === 0 ? toolCallsReply([{ id: `ls_${which}`, name: "ls", args: {} }]) : textReply(`${which} answer`);
		});
		await f.session.prompt("Search both");
		const file = f.session.getState().sessionFile as string;
		const lines = readFileSync(file, "utf8")
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l));
		const aside = lines.filter((l) => l.type === "subagent");
		// Per sub-agent: its prompt, the ls call, the ls result, its answer; chained on one another.
		expect(aside).toHaveLength(8);
		const firstA = aside.find((l) => l.agentId === "explore-1");
		expect(firstA.parentToolCallId).toMatch(/^task_[ab]$/);
		const loaded = loadSession(file);
		expect(JSON.stringify(loaded.messages)).not.toContain("ls_alpha");
		expect(loaded.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "both done" }] });

		// Resume the file in a new session: its next request carries the main branch only.
		await f.session.dispose();
		const resumed = await f.open({ sessionMode: { kind: "file", path: file } });
		await resumed.prompt("second question");
		const request = bed.server.requests.at(-1);
		expect(request?.text).toContain("second question");
		expect(request?.text).toContain("alpha answer");
		expect(request?.text).not.toContain("ls_alpha");
		expect(request?.text).not.toContain("You are an explorer");
	});

	it("Esc stops every agent of the run: the stalled stream's socket closes and the running command's process is gone", async () => {
		const pidFile = (which: string) => join(f.root, `${which}.pid`);
		const f = await open(
			(r) => {
				if (isMain(r)) return toolResults(r).size === 0 ? twoTasks("general") : textReply("unexpected");
				// alpha runs a long command; beta's model stream stalls.
				if (taskOf(r).includes("alpha"))
					return toolCallsReply([{ id: "bash_alpha", name: "bash", args: { command: `echo $$ > ${pidFile("alpha")}; exec sleep 60` } }]);
				return { stall: true };
			},
			{ session: { permissionMode: "yolo" } },
		);
		void f.session.prompt("Go");
		await f.waitForEvent("subagent_update", (e) => e.currentTool === "bash");
		await waitUntil(() => existsSync(pidFile("alpha")) && readFileSync(pidFile("alpha"), "utf8").trim() !== "");
		await waitUntil(() => bed.server.requests.filter((r) => taskOf(r).includes("beta")).length === 1);
		const pid = Number(readFileSync(pidFile("alpha"), "utf8"));
		expect(isRunning(pid)).toBe(true);
		f.session.abort();
		await f.session.waitForIdle();
		const ends = f.events.filter((e): e is Extract<SessionEvent, { type: "subagent_end" }> => e.type === "subagent_end");
		expect(ends.map((e) => e.status)).toEqual(["aborted", "aborted"]);
		await waitUntil(() => !isRunning(pid));
		await waitUntil(() => bed.server.openSockets() === 0);
		expect(f.session.getState().subagents).toEqual([]);
	});

	it("routes a steer to one sub-agent: it reaches that sub-agent's next request and no other", async () => {
		const { released, release } = latch();
		const f = await open(async (r) => {
			if (isMain(r)) return toolResults(r).size === 0 ? twoTasks() : textReply("done");
			const which = taskOf(r).includes("alpha") ? "alpha" : "beta";
			if (toolResults(r).size === 0) {
				await released;
				return toolCallsReply([{ id: `ls_${which}`, name: "ls", args: {} }]);
			}
			return textReply(`${which} done`);
		});
		void f.session.prompt("Go");
		await waitUntil(() => (bed.server.requests.filter((r) => !isMain(r)).length ?? 0) === 2);
		const alpha = f.session.getState().subagents?.find((a) => a.task === "look for alpha");
		expect(alpha?.status).toBe("running");
		f.session.steerAgent(alpha?.agentId as string, "Only look at the src folder");
		expect(() => f.session.steerAgent("nobody-9", "x")).toThrow(/No running sub-agent "nobody-9"/);
		release();
		await f.session.waitForIdle();
		const second = (which: string) => bed.server.requests.filter((r) => !isMain(r) && taskOf(r).includes(which))[1];
		expect(second("alpha")?.text).toContain("Only look at the src folder");
		expect(second("beta")?.text).not.toContain("Only look at the src folder");
		expect(bed.server.requests.filter(isMain).every((r) => !r.text.includes("Only look at the src folder"))).toBe(true);
	});

	it("a steer to a sub-agent passes UserPromptSubmit: a blocked one never reaches it, an allowed one carries the context", async () => {
		const { released, release } = latch();
		const f = await open(async (r) => {
			if (isMain(r)) return toolResults(r).size === 0 ? twoTasks() : textReply("done");
			if (toolResults(r).size === 0) {
				await released;
				return toolCallsReply([{ id: `ls_${taskOf(r).includes("alpha") ? "alpha" : "beta"}`, name: "ls", args: {} }]);
			}
			return textReply("sub done");
		});
		const hook = `p=$(jq -r .prompt); case "$p" in *secret*) echo "no secrets for agents" >&2; exit 2;; esac; echo "ctx: $p"`;
		putFile(join(f.env.RUDDER_HOME, "settings.json"), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [commandHook(hook)] }] } }));
		const session = await f.open();
		void session.prompt("Go");
		await waitUntil(() => bed.server.requests.filter((r) => !isMain(r)).length === 2, "both sub-agents' first requests");
		const alpha = session.getState().subagents?.find((a) => a.task === "look for alpha")?.agentId as string;
		session.steerAgent(alpha, "my secret is 42");
		session.steerAgent(alpha, "only src");
		expect(() => session.steerAgent("nobody-9", "x")).toThrow(/No running sub-agent "nobody-9"/);
		await waitUntil(() => f.events.filter((e) => e.type === "hook_finished").length === 3, "the hooks of the prompt and both steers");
		release();
		await session.waitForIdle();
		const second = bed.server.requests.filter((r) => !isMain(r) && taskOf(r).includes("alpha"))[1];
		expect(second.text).toContain("only src");
		expect(second.text).toContain("ctx: only src");
		expect(JSON.stringify(bed.server.requests)).not.toContain("secret is 42");
		expect(f.notices()).toContain(`The steering message for ${alpha} "my secret is 42" was not sent: no secrets for agents`);
	});

	it("runs at most tools.maxSubagents at once: the rest wait, shown as queued", async () => {
		const f = await open(
			(r) => {
				if (isMain(r)) return toolResults(r).size === 0 ? twoTasks() : textReply("done");
				return textReply(taskOf(r).includes("alpha") ? "alpha done" : "beta done");
			},
			{ settings: { tools: { maxSubagents: 1 } } },
		);
		await f.session.prompt("Go");
		const starts = f.events.filter((e): e is Extract<SessionEvent, { type: "subagent_start" }> => e.type === "subagent_start");
		expect(starts.map((e) => e.status)).toEqual(["running", "queued"]);
		// The second asked the model only after the first had ended.
		const firstEnd = f.events.findIndex((e) => e.type === "subagent_end" && e.agentId === "explore-1");
		const secondRuns = f.events.findIndex((e) => e.type === "subagent_update" && e.agentId === "explore-2");
		expect(f.events[secondRuns]).toMatchObject({ status: "running" });
		expect(secondRuns).toBeGreaterThan(firstEnd);
	});

	it("a sub-agent starts sub-agents only when its definition names the task tool, one level deep at most", async () => {
		const f = await open((r) => {
			if (isMain(r))
				return toolResults(r).size === 0
					? toolCallsReply([{ id: "task_1", name: "task", args: { agent: "lead", description: "lead", prompt: "Lead the work" } }])
					: textReply("main done");
			if (r.system.startsWith("You lead") && taskOf(r).includes("Lead the work"))
				return toolResults(r).size === 0
					? toolCallsReply([{ id: "task_2", name: "task", args: { agent: "lead", description: "helper", prompt: "Help out" } }])
					: textReply(`lead saw ${toolResults(r).get("task_2")}`);
			return textReply("helper done");
		});
		mkdirSync(join(f.env.RUDDER_HOME, "agents"), { recursive: true });
		writeFileSync(join(f.env.RUDDER_HOME, "agents", "lead.md"), "---\nname: lead\ndescription: leads\ntools: read, task\n---\nYou lead.\n");
		const session = await f.open({});
		await session.prompt("Go");
		const lead = bed.server.requests.find((r) => r.system.startsWith("You lead") && taskOf(r).includes("Lead the work"));
		const helper = bed.server.requests.find((r) => r.system.startsWith("You lead") && taskOf(r).includes("Help out"));
		expect(lead?.tools).toEqual(["read", "task"]);
		expect(helper?.tools).toEqual(["read"]);
		expect(bed.server.requests.filter((r) => !r.system.startsWith("You lead") && !isMain(r))).toEqual([]);
		const helperStart = f.events.find(
			(e): e is Extract<SessionEvent, { type: "subagent_start" }> => e.type === "subagent_start" && e.task === "helper",
		);
		expect(helperStart?.parentAgentId).toBe("lead-1");
		expect(session.getState().messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "main done" }] });
	});

	it("a sub-agent's approval in ask mode names the agent that asks", async () => {
		const f = await open(
			(r) => {
				if (isMain(r))
					return toolResults(r).size === 0
						? toolCallsReply([{ id: "task_1", name: "task", args: { agent: "general", description: "echo", prompt: "Run echo" } }])
						: textReply("main done");
				expect(isGeneral(r)).toBe(true);
				const results = toolResults(r);
				return results.size === 0
					? toolCallsReply([{ id: "bash_1", name: "bash", args: { command: "echo hi" } }])
					: textReply(`sub saw: ${results.get("bash_1")}`);
			},
			{ session: { permissionMode: "ask", approvals: "prompt" } },
		);
		void f.session.prompt("Go");
		const request = await f.waitForEvent("approval_request");
		expect(request.agent).toEqual({ id: "general-1", name: "general" });
		// general has every session tool but the session's own: no task, so no sub-agents of its own.
		expect(bed.server.requests.find(isGeneral)?.tools).toEqual(["read", "ls", "bash"]);
		expect(f.session.getState().pendingApproval?.agent?.name).toBe("general");
		f.session.respondToApproval(request.id, { decision: "deny", reason: "not now" });
		await f.session.waitForIdle();
		const sub = bed.server.requests.filter(isGeneral)[1];
		expect(sub?.text).toContain("not now");
	});
});

describe("SubagentStop hooks", () => {
	const oneTask = toolCallsReply([{ id: "task_a", name: "task", args: { agent: "explore", description: "look", prompt: "Find alpha" } }]);
	const writeHooks = (f: Fixture, hooks: unknown) => putFile(join(f.env.RUDDER_HOME, "settings.json"), JSON.stringify({ hooks }));

	it("exit 2 keeps the sub-agent going with the reason; the payload names it; a hook for another agent type does not run", async () => {
		const f = await open((r) => {
			if (isMain(r)) return toolResults(r).size === 0 ? oneTask : textReply(`main saw: ${toolResults(r).get("task_a")}`);
			return r.text.includes("Also check gamma") ? textReply("alpha and gamma found") : textReply("alpha found");
		});
		writeHooks(f, {
			SubagentStop: [
				{
					matcher: "explore",
					hooks: [
						commandHook(
							`p=$(cat); echo "$p" >> payloads.jsonl; [ "$(echo "$p" | jq .stop_hook_active)" = true ] && exit 0; echo "Also check gamma" >&2; exit 2`,
						),
					],
				},
				{ matcher: "general", hooks: [commandHook("touch general-hook-ran")] },
			],
		});
		const session = await f.open();
		await session.prompt("Search");
		const subRequests = bed.server.requests.filter(isExplorer) ?? [];
		expect(subRequests).toHaveLength(2);
		expect(subRequests[1].text).toContain("SubagentStop hook feedback (the sub-agent continues): Also check gamma");
		// The main agent gets the answer given after the hook let it end; it never sees the feedback.
		expect(session.getState().messages.at(-1)).toMatchObject({ content: [{ type: "text", text: "main saw: alpha and gamma found" }] });
		expect(bed.server.requests.filter(isMain).every((r) => !r.text.includes("Also check gamma"))).toBe(true);
		const payloads = readFileSync(join(f.cwd, "payloads.jsonl"), "utf8")
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l));
		expect(payloads).toEqual([
			expect.objectContaining({
				hook_event_name: "SubagentStop",
				session_id: session.getState().sessionId,
				transcript_path: session.getState().sessionFile,
				cwd: f.cwd,
				stop_hook_active: false,
				agent_id: "explore-1",
				agent_type: "explore",
				agent_transcript_path: session.getState().sessionFile,
				last_assistant_message: "alpha found",
			}),
			expect.objectContaining({ stop_hook_active: true, last_assistant_message: "alpha and gamma found" }),
		]);
		expect(existsSync(join(f.cwd, "general-hook-ran"))).toBe(false);
	});

	it(`a hook that always blocks keeps it going at most ${STOP_HOOK_LIMIT} times, then it ends with a notice`, async () => {
		const f = await open((r) => (isMain(r) ? (toolResults(r).size === 0 ? oneTask : textReply("main done")) : textReply("still here")));
		writeHooks(f, { SubagentStop: [{ hooks: [commandHook(`echo '{"decision":"block","reason":"one more time"}'`)] }] });
		const session = await f.open();
		await session.prompt("Search");
		expect(bed.server.requests.filter(isExplorer)).toHaveLength(1 + STOP_HOOK_LIMIT);
		expect(f.notices()).toContainEqual(
			expect.stringMatching(/^SubagentStop hooks kept the sub-agent explore-1 going 5 times in a row; it stops here/),
		);
		expect(session.getState().messages.at(-1)).toMatchObject({ content: [{ type: "text", text: "main done" }] });
	});
});
