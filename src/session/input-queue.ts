// Steering and follow-up messages typed while a run is active. The queues are the Agent's; this keeps
// what the user typed for each (a custom command's or an `@file` expansion is not what Esc puts back)
// and reports each change as a `queue_update` event.
import type { Agent } from "../agent/index.js";
import type { AgentMessage } from "../agent/types.js";
import type { UserMessage } from "../ai/index.js";
import type { CompactionRunner } from "./compaction-runner.js";
import { messageText } from "./session-messages.js";
import type { SessionEvent } from "./types.js";

export interface InputQueueDeps {
	agent: Agent;
	emit: (event: SessionEvent) => void;
	/** While compacting no run is there to drain the queue; the compaction starts one when it ends. */
	compaction: Pick<CompactionRunner, "noteQueued">;
}

export class InputQueue {
	private readonly typedText = new WeakMap<AgentMessage, string>();

	constructor(private readonly deps: InputQueueDeps) {}

	enqueue(kind: "steer" | "followUp", message: UserMessage, text: string): void {
		this.typedText.set(message, text);
		if (kind === "steer") this.deps.agent.steer(message);
		else this.deps.agent.followUp(message);
		this.deps.compaction.noteQueued();
		this.emitUpdate();
	}

	/** The queues as the user typed them, oldest first. */
	texts(): { steering: string[]; followUp: string[] } {
		const queued = this.deps.agent.getQueuedMessages();
		const text = (m: AgentMessage) => this.typedText.get(m) ?? messageText(m);
		return { steering: queued.steering.map(text), followUp: queued.followUp.map(text) };
	}

	/** Empties both queues and returns their text, steering first. */
	take(): { steering: string[]; followUp: string[] } {
		const taken = this.texts();
		this.deps.agent.clearAllQueues();
		this.emitUpdate();
		return taken;
	}

	/** Whether `message` came from a queue (the Agent took it: the queue lines change). */
	isQueued(message: AgentMessage): boolean {
		return this.typedText.has(message);
	}

	emitUpdate(): void {
		this.deps.emit({ type: "queue_update", ...this.texts() });
	}
}
