// The app over a real session and a scripted model on 127.0.0.1 playing the main agent and two
// sub-agents: each running sub-agent is a live line under its task call; Alt+S selects one and Enter
// steers it (and only it); the todo list shows above the input during the run; the plan waits in an
// overlay where 1 approves and switches to auto-edit.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentSession } from "../../../src/session/agent-session.js";
import { latch } from "../../helpers/latch.js";
import { type ChatRequest, type RoutedReply, textReply, toolCallsReply, toolResults } from "../../helpers/routed-model-server.js";
import { routedSessionPerTest } from "../../helpers/routed-session.js";
import { mountOnSession } from "./mount-app.js";

const bed = routedSessionPerTest(["read", "ls", "write"]);
let session: AgentSession | undefined;
let app: { unmount: () => void } | undefined;

// Before the bed's own clean-up (hooks run last-registered first): the app goes, the run stops.
afterEach(async () => {
	app?.unmount();
	session?.abort();
	await session?.waitForIdle();
	session = app = undefined;
});

const isMain = (r: ChatRequest) => r.system.startsWith("You are Rudder");
const taskOf = (r: ChatRequest) => JSON.stringify(r.messages.find((m) => m.role === "user")?.content ?? "");

/**
 * The main agent starts one explore sub-agent per name (`look for <name>`) and then says "All done.";
 * each sub-agent waits for `released`, lists the folder, and answers `<name> <word>`.
 */
function exploreScript(names: string[], released: Promise<void>, word: string) {
	return async (r: ChatRequest): Promise<RoutedReply> => {
		if (isMain(r))
			return toolResults(r).size === 0
				? toolCallsReply(
						names.map((name, i) => ({
							id: `task_${String.fromCharCode(97 + i)}`,
							name: "task",
							args: { agent: "explore", description: `look for ${name}`, prompt: `Find ${name}` },
						})),
					)
				: textReply("All done.");
		const which = names.find((name) => taskOf(r).includes(name)) ?? names[0];
		if (toolResults(r).size === 0) {
			await released;
			return toolCallsReply([{ id: `ls_${which}`, name: "ls", args: {} }]);
		}
		return textReply(`${which} ${word}`);
	};
}

async function start(reply: (r: ChatRequest) => RoutedReply | Promise<RoutedReply>, permissionMode: "ask" | "plan" = "ask") {
	const fx = await bed.open(reply, { session: { sessionMode: { kind: "none" }, permissionMode, approvals: "prompt" } });
	session = fx.session;
	const mounted = await mountOnSession(fx.session, { rows: 30, columns: 120 });
	app = mounted.app;
	return mounted;
}

describe("sub-agents, todos and the plan in the app", () => {
	it("shows each running sub-agent under its task call; Alt+S then Enter steers the selected one only; the todos show during the run", async () => {
		const { released, release } = latch();
		const { frame, type } = await start(async (r) => {
			if (isMain(r)) {
				const results = toolResults(r);
				if (results.size === 0)
					return toolCallsReply([
						{
							id: "todo_1",
							name: "todo_write",
							args: {
								todos: [
									{ content: "Search alpha and beta", status: "in_progress" },
									{ content: "Report", status: "pending" },
								],
							},
						},
					]);
				if (!results.has("task_a"))
					return toolCallsReply([
						{ id: "task_a", name: "task", args: { agent: "explore", description: "look for alpha", prompt: "Find alpha" } },
						{ id: "task_b", name: "task", args: { agent: "explore", description: "look for beta", prompt: "Find beta" } },
					]);
				return textReply("All done.");
			}
			const which = taskOf(r).includes("alpha") ? "alpha" : "beta";
			if (toolResults(r).size === 0) {
				await released;
				return toolCallsReply([{ id: `ls_${which}`, name: "ls", args: {} }]);
			}
			return textReply(`${which} done`);
		});
		await type("search");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("explore (explore-2) look for beta"), { timeout: 10_000 });
		const shown = frame();
		expect(shown).toContain("↳ explore (explore-1) look for alpha · thinking");
		expect(shown).toContain("Todos 0/2");
		expect(shown).toContain("◐ Search alpha and beta");
		expect(shown).toContain("☐ Report");
		expect(shown).toContain("Alt+S: steer a sub-agent");
		await type("\x1bs");
		await vi.waitFor(() => expect(frame()).toContain("▸ explore (explore-1)"));
		expect(frame()).toContain("steer sub-agent explore-1");
		await type("only src please");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Steering sub-agent explore-1: only src please"));
		release();
		await vi.waitFor(() => expect(frame()).toContain("All done."), { timeout: 10_000 });
		const second = (which: string) => bed.server.requests.filter((r) => !isMain(r) && taskOf(r).includes(which))[1];
		expect(second("alpha")?.text).toContain("only src please");
		expect(second("beta")?.text).not.toContain("only src please");
		// The run is over: no live sub-agent lines, no checklist above the input.
		expect(frame()).not.toContain("↳ explore");
		expect(frame()).not.toContain("Todos 0/2");
	});

	it("Ctrl+O shows the selected sub-agent's transcript in a pager, q closes it; after the run it shows the last one's", async () => {
		const { released, release } = latch();
		const { frame, type } = await start(exploreScript(["alpha", "beta"], released, "done"));
		writeFileSync(join(session?.cwd as string, "beta-notes.txt"), "b");
		await type("search");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("explore (explore-2) look for beta"), { timeout: 10_000 });
		await type("\x1bs");
		await vi.waitFor(() => expect(frame()).toContain("▸ explore (explore-1)"));
		await type("\x0f");
		await vi.waitFor(() => expect(frame()).toContain("Sub-agent explore (explore-1) · running · look for alpha"));
		expect(frame()).toContain("› Find alpha");
		expect(frame()).toMatch(/lines 1-1 of 1 · .*closes/);
		// The pager has the screen: the live lines and the input are not drawn under it.
		expect(frame()).not.toContain("↳ explore (explore-2)");
		await type("q");
		await vi.waitFor(() => expect(frame()).toContain("↳ explore (explore-2) look for beta"));
		expect(frame()).not.toContain("Sub-agent explore (explore-1)");
		release();
		await vi.waitFor(() => expect(frame()).toContain("All done."), { timeout: 10_000 });
		await type("\x0f");
		await vi.waitFor(() => expect(frame()).toContain("Sub-agent explore (explore-2) · done · look for beta"));
		const pager = frame();
		expect(pager).toContain("› Find beta");
		expect(pager).toContain("⏺ ls(");
		expect(pager).toMatch(/⎿ .*beta-notes\.txt/);
		expect(pager).toContain("  beta done");
		await type("\x1b");
		await vi.waitFor(() => expect(frame()).not.toContain("Sub-agent explore (explore-2)"));
	});

	it("the open pager follows its sub-agent: its new messages and its status as they come, without reopening", async () => {
		const { released, release } = latch();
		const { frame, type } = await start(exploreScript(["alpha"], released, "found"));
		await type("search");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("explore (explore-1) look for alpha"), { timeout: 10_000 });
		await type("\x0f");
		await vi.waitFor(() => expect(frame()).toContain("Sub-agent explore (explore-1) · running · look for alpha"));
		expect(frame()).not.toContain("alpha found");
		release();
		await vi.waitFor(() => expect(frame()).toContain("Sub-agent explore (explore-1) · done · look for alpha"), { timeout: 10_000 });
		expect(frame()).toContain("  alpha found");
		expect(frame()).toContain("⏺ ls(");
		await type("q");
		await vi.waitFor(() => expect(frame()).toContain("All done."), { timeout: 10_000 });
	});

	it("an approval asked by a sub-agent names it", async () => {
		const { frame, type } = await start((r) => {
			if (isMain(r))
				return toolResults(r).size === 0
					? toolCallsReply([{ id: "task_1", name: "task", args: { agent: "general", description: "write notes", prompt: "Write notes" } }])
					: textReply("main done");
			return toolResults(r).size === 0
				? toolCallsReply([{ id: "write_1", name: "write", args: { path: "n.md", content: "x" } }])
				: textReply("sub done");
		});
		await type("go");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("sub-agent general (general-1): write wants to run"), { timeout: 10_000 });
		// Deny is highlighted first: Enter opens the reason, Enter sends the denial without one.
		await type("\r");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("main done"), { timeout: 10_000 });
	});

	it("an approval asked while the transcript pager is open takes the screen and the keys; the pager comes back after", async () => {
		const { released, release } = latch();
		const { frame, type } = await start(async (r) => {
			if (isMain(r))
				return toolResults(r).size === 0
					? toolCallsReply([{ id: "task_1", name: "task", args: { agent: "general", description: "write notes", prompt: "Write notes" } }])
					: textReply("main done");
			if (toolResults(r).size > 0) return textReply("sub done");
			await released;
			return toolCallsReply([{ id: "write_1", name: "write", args: { path: "n.md", content: "x" } }]);
		});
		await type("go");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("general (general-1) write notes"), { timeout: 10_000 });
		await type("\x0f");
		await vi.waitFor(() => expect(frame()).toContain("Sub-agent general (general-1) · running · write notes"));
		release();
		await vi.waitFor(() => expect(frame()).toContain("sub-agent general (general-1): write wants to run"), { timeout: 10_000 });
		expect(frame()).not.toContain("Sub-agent general (general-1) · running");
		// Enter goes to the approval (deny first, then send the denial without a reason), not to the pager.
		await type("\r");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Sub-agent general (general-1)"), { timeout: 10_000 });
		expect(frame()).not.toContain("write wants to run");
		await type("q");
		await vi.waitFor(() => expect(frame()).toContain("main done"), { timeout: 10_000 });
	});

	it("the plan waits in an overlay; 1 approves it, switches to auto-edit and the run carries it out", async () => {
		const { frame, type } = await start((r) => {
			const results = toolResults(r);
			if (results.has("write_1")) return textReply("Notes written.");
			if (results.has("plan_1")) return toolCallsReply([{ id: "write_1", name: "write", args: { path: "notes.md", content: "x" } }]);
			return toolCallsReply([{ id: "plan_1", name: "exit_plan_mode", args: { plan: "## Plan\n1. Write notes.md\n2. Stop" } }]);
		}, "plan");
		await type("make notes");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("The plan (approve to carry it out):"), { timeout: 10_000 });
		expect(frame()).toContain("1. Write notes.md");
		expect(frame()).toContain("1  approve, and switch to auto-edit");
		await type("1");
		await vi.waitFor(() => expect(frame()).toContain("Notes written."), { timeout: 10_000 });
		expect(session?.getState().permissionMode).toBe("auto-edit");
		expect(frame()).not.toContain("The plan (approve");
	});
});
