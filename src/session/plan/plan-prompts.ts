// The plan the model proposes in plan mode (`exit_plan_mode`), held for the user's answer like an
// approval: announced as a `plan_request` event, kept as `getState().pendingPlan`, settled by
// `respond` (`AgentSession.respondToPlan`, rpc `plan_response`), the run's abort or the session's end.
import type { RunPhaseBox } from "../run-phase.js";
import type { PlanRequest, PlanResponse, SessionEvent } from "../types.js";

export interface PlanPromptsDeps {
	emit: (event: SessionEvent) => void;
	phases: Pick<RunPhaseBox, "approvalStarted" | "approvalEnded">;
}

export class PlanPrompts {
	private pending?: { request: PlanRequest; answer: (response: PlanResponse) => void };
	private nextId = 0;

	constructor(private readonly deps: PlanPromptsDeps) {}

	get pendingPlan(): PlanRequest | undefined {
		return this.pending?.request;
	}

	/** Waits for the user's answer; a stopped run or an ended session keeps planning. */
	ask(toolCallId: string, plan: string, signal?: AbortSignal): Promise<PlanResponse> {
		const request: PlanRequest = { id: `plan-${++this.nextId}`, toolCallId, plan };
		const phase = { toolCallId, toolName: "exit_plan_mode" };
		this.deps.phases.approvalStarted(phase);
		return new Promise<PlanResponse>((resolve) => {
			const finish = (response: PlanResponse) => {
				signal?.removeEventListener("abort", onAbort);
				this.pending = undefined;
				this.deps.phases.approvalEnded(phase);
				this.deps.emit({ type: "plan_end", id: request.id, decision: response.decision });
				resolve(response);
			};
			const onAbort = () => finish({ decision: "revise", feedback: "The run was stopped." });
			this.pending = { request, answer: finish };
			signal?.addEventListener("abort", onAbort, { once: true });
			this.deps.emit({ type: "plan_request", ...request });
		});
	}

	/** Answers the waiting plan; false when `id` is not the one waiting. */
	respond(id: string, response: PlanResponse): boolean {
		if (!this.pending || this.pending.request.id !== id) return false;
		this.pending.answer(response);
		return true;
	}

	dispose(): void {
		this.pending?.answer({ decision: "revise", feedback: "The session ended." });
	}
}
