// A model's reply reaches the screen and json/rpc clients delta by delta, long before message_end. A
// known secret the model writes may arrive split across two deltas ("sk-abc" + "def…"), so redacting
// each delta alone would let both halves through. Each content block of the streaming message gets a
// chunk redactor: a delta is passed on redacted, minus an end that could still become a secret, which
// is held until the next delta decides (at most the longest secret's length, so the cost per delta
// does not grow with the message). What is still held when a block or the message ends is released
// as one last delta first, so every listener sees the whole text, redacted.
import type { AssistantMessage, AssistantMessageEvent } from "../ai/types.js";
import { type ChunkRedactor, createChunkRedactor, processSecrets, type Redactor } from "../safety/secrets.js";

type DeltaEvent = Extract<AssistantMessageEvent, { delta: string }>;

interface OpenBlock {
	type: DeltaEvent["type"];
	stream: ChunkRedactor;
}

export class StreamRedaction {
	private readonly open = new Map<number, OpenBlock>();

	constructor(private readonly redactor: Redactor = processSecrets) {}

	/** Forgets the blocks of the previous message (at message_start). */
	reset(): void {
		this.open.clear();
	}

	/** Passes `event` on redacted through `emit`; an end event is preceded by its block's held rest. */
	map(event: AssistantMessageEvent, emit: (event: AssistantMessageEvent) => void): void {
		if (this.redactor.size === 0 && this.open.size === 0) {
			emit(event);
			return;
		}
		switch (event.type) {
			case "text_delta":
			case "thinking_delta":
			case "toolcall_delta": {
				let block = this.open.get(event.contentIndex);
				if (!block) {
					block = { type: event.type, stream: createChunkRedactor(this.redactor) };
					this.open.set(event.contentIndex, block);
				}
				const delta = block.stream.push(event.delta);
				// Unchanged (no secret, nothing held): the event itself, not a copy per token.
				if (delta === event.delta) emit(event);
				else if (delta !== "") emit({ ...event, delta });
				return;
			}
			case "text_end":
			case "thinking_end":
				this.release(event.contentIndex, event.partial, emit);
				emit({ ...event, content: this.redactor.redact(event.content) });
				return;
			case "toolcall_end":
				this.release(event.contentIndex, event.partial, emit);
				emit(event);
				return;
			case "websearch": {
				// What the model searched for may quote a key it saw; the pages' titles and URLs are shown too.
				const redact = (text: string) => this.redactor.redact(text);
				const { search } = event;
				const sources = search.sources.map((s) => ({ title: redact(s.title), url: redact(s.url) }));
				emit({ ...event, search: { ...search, query: redact(search.query), sources } });
				return;
			}
			default:
				emit(event);
		}
	}

	/** Releases every block's held rest (before message_end: an aborted or failed stream ends no block). */
	flush(partial: AssistantMessage, emit: (event: AssistantMessageEvent) => void): void {
		for (const index of [...this.open.keys()]) this.release(index, partial, emit);
	}

	private release(index: number, partial: AssistantMessage, emit: (event: AssistantMessageEvent) => void): void {
		const block = this.open.get(index);
		if (!block) return;
		this.open.delete(index);
		const rest = block.stream.end();
		if (rest !== "") emit({ type: block.type, contentIndex: index, delta: rest, partial });
	}
}
