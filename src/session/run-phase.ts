// The run phase (types.ts `RunPhase`) kept in one place: the session reports what starts and ends (a
// run, the Agent's end, a compaction, a retry wait, an approval) and this box derives the one phase
// from them and reports each change once. Pure bookkeeping: no timers, no I/O.
import type { RetryInfo } from "../ai/index.js";
import type { RunPhase } from "./types.js";

type CompactionReason = Extract<RunPhase, { kind: "compacting" }>["reason"];
interface PendingApproval {
	toolCallId: string;
	toolName: string;
}

export class RunPhaseBox {
	private running = false;
	private agentEnded = false;
	private compaction?: CompactionReason;
	private retry?: Extract<RunPhase, { kind: "retrying" }>;
	private readonly approvals: PendingApproval[] = [];
	private last: RunPhase = { kind: "idle" };

	constructor(
		private readonly onChange: (phase: RunPhase) => void,
		private readonly now: () => number = Date.now,
	) {}

	get phase(): RunPhase {
		if (this.compaction) return { kind: "compacting", reason: this.compaction };
		const approval = this.approvals[0];
		if (approval) return { kind: "awaiting-approval", ...approval };
		if (this.retry) return this.retry;
		if (this.running) return this.agentEnded ? { kind: "running", settling: true } : { kind: "running" };
		return { kind: "idle" };
	}

	/**
	 * True while a run is active (the old `isStreaming`: not a compaction outside a run). Every run goes
	 * through the session's `runAgent`, which brackets it with `setRunning`.
	 */
	get runActive(): boolean {
		return this.running;
	}

	setRunning(running: boolean): void {
		this.running = running;
		if (running) this.agentEnded = false;
		this.publish();
	}

	/** The Agent emitted `agent_end`: what is left of the run is saving and, maybe, a compaction. */
	agentEnd(): void {
		this.agentEnded = true;
		this.retry = undefined;
		this.publish();
	}

	agentStart(): void {
		this.agentEnded = false;
		this.publish();
	}

	compactionStarted(reason: CompactionReason): void {
		this.compaction = reason;
		this.publish();
	}

	compactionEnded(): void {
		this.compaction = undefined;
		this.publish();
	}

	retrying(info: RetryInfo): void {
		const { attempt, maxAttempts, delayMs, reason, status } = info;
		this.retry = {
			kind: "retrying",
			attempt,
			maxAttempts,
			delayMs,
			until: this.now() + delayMs,
			reason,
			...(status !== undefined ? { status } : {}),
		};
		this.publish();
	}

	/** The stream moved on (an event of the next attempt): the retry wait is over. Cheap when none. */
	progressed(): void {
		if (!this.retry) return;
		this.retry = undefined;
		this.publish();
	}

	approvalStarted(approval: PendingApproval): void {
		this.approvals.push(approval);
		this.publish();
	}

	approvalEnded(approval: PendingApproval): void {
		const i = this.approvals.indexOf(approval);
		if (i >= 0) this.approvals.splice(i, 1);
		this.publish();
	}

	/** Reports the phase if it differs from the last one reported. */
	publish(): void {
		const next = this.phase;
		if (samePhase(next, this.last)) return;
		this.last = next;
		this.onChange(next);
	}
}

function samePhase(a: RunPhase, b: RunPhase): boolean {
	if (a.kind !== b.kind) return false;
	const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
	for (const key of keys) if ((a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false;
	return true;
}
