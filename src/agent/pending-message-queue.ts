// The steering and follow-up queues of the Agent (docs/agent-contract.md §6): a FIFO with a drain mode.
import type { AgentMessage, QueueMode } from "./types.js";

export class PendingMessageQueue {
	private items: AgentMessage[] = [];

	/** "all" drains every queued message at once; "one-at-a-time" drains the oldest only. */
	constructor(public mode: QueueMode = "one-at-a-time") {}

	enqueue(message: AgentMessage): void {
		this.items.push(message);
	}

	hasItems(): boolean {
		return this.items.length > 0;
	}

	/** Removes and returns the next batch by mode; `[]` when empty. */
	drain(): AgentMessage[] {
		if (this.items.length === 0) return [];
		if (this.mode === "all") return this.items.splice(0);
		return this.items.splice(0, 1);
	}

	/** The queued messages, oldest first, without removing them (a UI shows or restores them). */
	peek(): readonly AgentMessage[] {
		return this.items.slice();
	}

	clear(): void {
		this.items = [];
	}
}
