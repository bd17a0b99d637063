// Plan mode's exit_plan_mode against a scripted model on 127.0.0.1: the plan waits for the user like an
// approval; approving switches the mode and the run goes on with the plan; feedback keeps planning;
// where nobody can answer (print) the plan ends the run.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lastRunOutcome } from "../../../src/modes/print.js";
import { type ChatRequest, textReply, toolCallsReply, toolResults } from "../../helpers/routed-model-server.js";
import { routedSessionPerTest } from "../../helpers/routed-session.js";

const bed = routedSessionPerTest(["read", "write"]);

const PLAN = "1. Write notes.md with the findings";

/** The model: plans, then (once approved) writes the file, then says done. */
function planningModel(r: ChatRequest): string {
	const results = toolResults(r);
	if (results.has("write_1")) return textReply("done");
	const plan = results.get("plan_1") ?? results.get("plan_2");
	if (plan?.includes("approved"))
		return toolCallsReply([{ id: "write_1", name: "write", args: { path: "notes.md", content: "findings" } }]);
	if (plan) return toolCallsReply([{ id: "plan_2", name: "exit_plan_mode", args: { plan: `${PLAN}\n2. Mention the tests` } }]);
	return toolCallsReply([{ id: "plan_1", name: "exit_plan_mode", args: { plan: PLAN } }]);
}

/** Plan mode, with someone to answer the plan (the app or an rpc client). */
const ANSWERED = { session: { permissionMode: "plan", approvals: "prompt" } } as const;

describe("plan approval", () => {
	it("approve and switch to auto-edit: the mode changes and the run carries the plan out", async () => {
		const fx = await bed.open(planningModel, ANSWERED);
		void fx.session.prompt("Plan notes");
		const request = await fx.waitForEvent("plan_request");
		expect(request.plan).toBe(PLAN);
		expect(fx.session.getState().pendingPlan?.id).toBe(request.id);
		expect(fx.session.getState().phase.kind).toBe("awaiting-approval");
		expect(fx.session.respondToPlan("plan-nope", { decision: "approve", mode: "auto-edit" })).toBe(false);
		expect(fx.session.respondToPlan(request.id, { decision: "approve", mode: "auto-edit" })).toBe(true);
		await fx.session.waitForIdle();
		expect(fx.session.getState().permissionMode).toBe("auto-edit");
		expect(fx.events.some((e) => e.type === "permissions_changed" && e.mode === "auto-edit")).toBe(true);
		// The plan is the next instruction, and the write it led to ran without asking.
		expect(toolResults(bed.server.requests[1]).get("plan_1")).toContain(`Carry out this plan now:\n\n${PLAN}`);
		expect(readFileSync(join(fx.cwd, "notes.md"), "utf8")).toBe("findings");
		expect(fx.events.some((e) => e.type === "approval_request")).toBe(false);
	});

	it("keep planning with feedback: the feedback reaches the model, the mode stays plan, the next plan is asked again", async () => {
		const fx = await bed.open(planningModel, ANSWERED);
		void fx.session.prompt("Plan notes");
		const first = await fx.waitForEvent("plan_request");
		fx.session.respondToPlan(first.id, { decision: "revise", feedback: "mention the tests" });
		const second = await fx.waitForEvent("plan_request", (e) => e.id !== first.id);
		expect(toolResults(bed.server.requests[1]).get("plan_1")).toContain("The user said: mention the tests");
		expect(fx.session.getState().permissionMode).toBe("plan");
		fx.session.abort();
		await fx.session.waitForIdle();
		expect(second.plan).toContain("Mention the tests");
		expect(existsSync(join(fx.cwd, "notes.md"))).toBe(false);
	});

	it("exit_plan_mode is offered in plan mode only, last in the list, and follows each mode change", async () => {
		const fx = await bed.open(() => textReply("ok"), { session: { permissionMode: "ask" } });
		const { server } = bed;
		await fx.session.prompt("one");
		fx.session.setPermissionMode("plan");
		await fx.session.prompt("two");
		expect(fx.session.cyclePermissionMode()).not.toBe("plan");
		await fx.session.prompt("three");
		const others = ["read", "write", "task", "todo_write"];
		expect(server.requests.map((r) => r.tools)).toEqual([others, [...others, "exit_plan_mode"], others]);
		expect(server.requests[0].system).not.toContain("exit_plan_mode");
		expect(server.requests[1].system).toContain("- exit_plan_mode:");
		expect(server.requests[2].system).not.toContain("exit_plan_mode");
	});

	it("with nobody to answer (print), the plan is the run's answer and the run ends", async () => {
		const fx = await bed.open(planningModel, { session: { permissionMode: "plan" } });
		const { server } = bed;
		await fx.session.prompt("Plan notes");
		expect(server.requests).toHaveLength(1);
		expect(lastRunOutcome(fx.session.getState().messages)).toEqual({ ok: true, text: PLAN });
		expect(fx.session.getState().permissionMode).toBe("plan");
	});
});
