// The approval channel of a session whose user answers ("prompt": the TUI, rpc). The permission gate
// calls `ask` for a tool call that needs a yes or no; this holds that one request, announces it as an
// `approval_request` event, keeps the run phase at `awaiting-approval` while it waits, and settles it
// when the UI answers (`respond`), the run is stopped (its signal), or the session ends (`dispose`).
import type { ApprovalRequest, ApprovalResponse } from "../permissions/gate.js";
import type { RunPhaseBox } from "./run-phase.js";
import { askingAgent } from "./subagents/asking-agent.js";
import type { SessionApprovalRequest, SessionEvent } from "./types.js";

export interface ApprovalPromptsDeps {
	emit: (event: SessionEvent) => void;
	phases: Pick<RunPhaseBox, "approvalStarted" | "approvalEnded">;
}

export class ApprovalPrompts {
	private pending?: { request: SessionApprovalRequest; answer: (response: ApprovalResponse) => void };

	constructor(private readonly deps: ApprovalPromptsDeps) {}

	/** The tool call waiting for the user's answer. */
	get pendingApproval(): SessionApprovalRequest | undefined {
		return this.pending?.request;
	}

	/**
	 * The gate's `ask`: the request waits for `respond`, with the phase held at `awaiting-approval`. A
	 * sub-agent's request names that agent (the gate runs inside its `asAgent`).
	 */
	readonly ask = (request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalResponse> => {
		const agent = askingAgent();
		const named: SessionApprovalRequest = agent ? { ...request, agent: { id: agent.id, name: agent.name } } : request;
		return this.hold({ id: request.toolCallId, name: request.tool }, () => this.waitForAnswer(named, signal));
	};

	/** Runs `wait` (an approval prompt) with the phase `awaiting-approval`; back to `running` when it settles or throws. */
	async hold<T>(toolCall: { id: string; name: string }, wait: () => Promise<T>): Promise<T> {
		const pending = { toolCallId: toolCall.id, toolName: toolCall.name };
		this.deps.phases.approvalStarted(pending);
		try {
			return await wait();
		} finally {
			this.deps.phases.approvalEnded(pending);
		}
	}

	/** Answers the waiting approval; false when `id` is not the one waiting. */
	respond(id: string, response: ApprovalResponse): boolean {
		if (!this.pending || this.pending.request.id !== id) return false;
		this.pending.answer(response);
		return true;
	}

	dispose(): void {
		this.pending?.answer({ decision: "deny", reason: "The session ended." });
	}

	private waitForAnswer(request: SessionApprovalRequest, signal?: AbortSignal): Promise<ApprovalResponse> {
		return new Promise((resolve) => {
			const finish = (response: ApprovalResponse) => {
				signal?.removeEventListener("abort", onAbort);
				this.pending = undefined;
				this.deps.emit({ type: "approval_end", id: request.id, decision: response.decision });
				resolve(response);
			};
			const onAbort = () => finish({ decision: "deny", reason: "The run was stopped." });
			this.pending = { request, answer: finish };
			signal?.addEventListener("abort", onAbort, { once: true });
			this.deps.emit({ type: "approval_request", ...request });
		});
	}
}
