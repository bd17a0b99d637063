// Questions MCP servers ask the user (`elicitation/create`), held like an approval: one at a time (a
// second waits its turn), announced as an `elicitation_request` event, kept as
// `getState().pendingElicitation`, settled by `respond` (the TUI's form, rpc `elicitation_response`),
// the server's cancellation or the session's end. Where nobody answers (print, json, rpc without
// `--rpc-approvals`) each request is declined with a notice. A URL the user accepts is opened in the
// browser and printed.
import { checkedAnswer, type ElicitAnswer, type McpElicitation, type McpElicitHandler } from "../extensions/mcp/elicitation.js";
import { openUrl } from "../extensions/mcp/open-url.js";
import type { SessionEvent } from "./types.js";

/** A server's question with the id its answer names. */
export type ElicitationRequest = McpElicitation & { id: string };

export interface ElicitationPromptsDeps {
	emit: (event: SessionEvent) => void;
	notify: (level: "info" | "warning" | "error", text: string) => void;
	/** Whether a user answers now (the TUI; rpc after opting in). */
	canAsk: () => boolean;
	env: Record<string, string | undefined>;
}

export class ElicitationPrompts {
	private pending?: { request: ElicitationRequest; answer: (answer: ElicitAnswer) => void };
	private turn: Promise<unknown> = Promise.resolve();
	private nextId = 0;
	private ended = false;

	constructor(private readonly deps: ElicitationPromptsDeps) {}

	get pendingElicitation(): ElicitationRequest | undefined {
		return this.pending?.request;
	}

	/** What the MCP connections call. */
	readonly handler: McpElicitHandler = {
		ask: (request, signal) => {
			if (!this.deps.canAsk() || this.ended) {
				this.deps.notify(
					"warning",
					`${who(request)} asked for input and was declined: nobody can answer in this mode (${preview(request)})`,
				);
				return Promise.resolve({ action: "decline" });
			}
			const asked = this.turn.then(() => this.ask(request, signal));
			this.turn = asked.catch(() => undefined);
			return asked;
		},
		refused: (server, reason) => this.deps.notify("warning", `The MCP server "${server}" asked for input and was declined: ${reason}`),
	};

	/**
	 * Answers the waiting request; false when `id` is not the one waiting. An answer from outside is
	 * checked against the form (throws a one-line reason when it does not fit).
	 */
	respond(id: string, answer: unknown): boolean {
		if (!this.pending || this.pending.request.id !== id) return false;
		this.pending.answer(checkedAnswer(this.pending.request, answer));
		return true;
	}

	dispose(): void {
		this.ended = true;
		this.pending?.answer({ action: "cancel" });
	}

	private async ask(request: McpElicitation, signal: AbortSignal): Promise<ElicitAnswer> {
		if (signal.aborted || this.ended) return { action: "cancel" };
		const held: ElicitationRequest = { ...request, id: `elicit-${++this.nextId}` };
		const answer = await new Promise<ElicitAnswer>((resolve) => {
			const finish = (a: ElicitAnswer) => {
				signal.removeEventListener("abort", onAbort);
				this.pending = undefined;
				this.deps.emit({ type: "elicitation_end", id: held.id, action: a.action });
				resolve(a);
			};
			const onAbort = () => finish({ action: "cancel" });
			this.pending = { request: held, answer: finish };
			signal.addEventListener("abort", onAbort, { once: true });
			this.deps.emit({ type: "elicitation_request", ...held });
		});
		if (held.mode === "url" && answer.action === "accept") await this.open(held);
		return answer;
	}

	private async open(request: Extract<ElicitationRequest, { mode: "url" }>): Promise<void> {
		const opened = await openUrl(request.url, this.deps.env);
		this.deps.notify("info", `${opened ? "Opened" : "Open this page in a browser"}: ${request.url}`);
	}
}

const who = (request: McpElicitation) => `The MCP server "${request.server}"`;

function preview(request: McpElicitation): string {
	const text = request.message || (request.mode === "url" ? request.url : "");
	return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
