// What a session's runs cost (tokens and money) and how full the context is, from each assistant
// message's usage; recomputed from the branch when a session is resumed or rewound.
import type { AgentMessage } from "../agent/types.js";
import { estimateTokens } from "./compaction.js";
import type { LoadedSession } from "./session-load.js";
import type { SessionTotals } from "./types.js";

const zeroTotals = (): SessionTotals => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 });

export class UsageTotals {
	private sums: SessionTotals = zeroTotals();
	/** Input tokens of the last request (context use). */
	contextTokens = 0;

	get totals(): SessionTotals {
		return { ...this.sums };
	}

	reset(): void {
		this.sums = zeroTotals();
		this.contextTokens = 0;
	}

	add(message: Extract<AgentMessage, { role: "assistant" }>): void {
		const u = message.usage;
		this.sums.input += u.input;
		this.sums.output += u.output;
		this.sums.cacheRead += u.cacheRead;
		this.sums.cacheWrite += u.cacheWrite;
		this.sums.cost += u.cost.total;
		const used = u.totalTokens || u.input + u.output + u.cacheRead + u.cacheWrite;
		if (used > 0) this.contextTokens = used;
	}

	/** A sub-agent's reply: paid for, but not part of the main context, so its size stays. */
	addSpent(message: Extract<AgentMessage, { role: "assistant" }>): void {
		const context = this.contextTokens;
		this.add(message);
		this.contextTokens = context;
	}

	/**
	 * Totals cover the whole branch, compacted turns included, and the sub-agents started from it (their
	 * side branches hang off it): they were all paid for.
	 */
	fromBranch(loaded: LoadedSession, messages: readonly AgentMessage[]): void {
		this.reset();
		for (const entry of loaded.branch) if (entry.type === "message" && entry.message.role === "assistant") this.add(entry.message);
		const onBranch = new Set<string | null>(loaded.branch.map((e) => e.id));
		// Entries are in file order, so an aside entry's parent was seen before it.
		for (const entry of loaded.entries) {
			if (entry.type !== "subagent" || !onBranch.has(entry.parentId)) continue;
			onBranch.add(entry.id);
			if (entry.message.role === "assistant") this.addSpent(entry.message);
		}
		if (loaded.branch.some((e) => e.type === "compaction")) this.contextTokens = estimateContext(messages);
	}
}

export function estimateContext(messages: readonly AgentMessage[]): number {
	return messages.reduce((sum, m) => sum + estimateTokens(m), 0);
}
