// Forwards the Agent's events to the session's stream with a streamed reply's deltas redacted of
// secrets (see stream-redaction.ts): a key split across two deltas never reaches a screen.
import type { AgentEvent } from "../agent/types.js";
import type { AssistantMessageEvent } from "../ai/index.js";
import { StreamRedaction } from "./stream-redaction.js";
import type { SessionEvent } from "./types.js";

type MessageUpdate = Extract<AgentEvent, { type: "message_update" }>;

export class RedactedAgentEvents {
	private readonly redaction = new StreamRedaction();
	/** The message_update being redacted, for `emitUpdate`. */
	private updating: MessageUpdate | undefined;

	constructor(private readonly emit: (event: SessionEvent) => void) {}

	/** `event`, with a streamed reply's deltas redacted. */
	forward(event: AgentEvent): void {
		if (event.type === "message_start" && event.message.role === "assistant") this.redaction.reset();
		if (event.type === "message_update") {
			this.updating = event;
			this.redaction.map(event.assistantMessageEvent, this.emitUpdate);
			return;
		}
		if (event.type === "message_end" && event.message.role === "assistant") {
			this.redaction.flush(event.message, (assistantMessageEvent) =>
				this.emit({ type: "message_update", message: event.message, assistantMessageEvent }),
			);
		}
		this.emit(event);
	}

	/**
	 * Emits `updating` with `assistantMessageEvent`, or the update itself when redaction left its event
	 * unchanged (the usual case): bound once, since a closure and a copy per token are garbage per token.
	 */
	private readonly emitUpdate = (assistantMessageEvent: AssistantMessageEvent): void => {
		const update = this.updating as MessageUpdate;
		this.emit(assistantMessageEvent === update.assistantMessageEvent ? update : { ...update, assistantMessageEvent });
	};
}
