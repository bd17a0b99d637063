// Questions MCP servers ask the user (`elicitation/create`), held like an approval: one at a time (a
// second waits its turn), announced as an `elicitation_request` event, kept as
// `getState().pendingElicitation`, settled by `respond` (the TUI's form, rpc `elicitation_response`),
// the server's cancellation or the session's end. Where nobody answers (print, json, rpc without
// `--rpc-approvals`) each request is declined with a notice. A URL the user accepts is opened in the
// browser and printed. The server's `notifications/elicitation/complete` for a URL elicitation says its
// page is done: a question still open (or still waiting its turn) for it closes, one already answered is
// marked done with a notice; an id it never asked, or asked about no longer, is ignored.
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

/** Where a URL elicitation is: asked (shown or waiting its turn), its page opened, or done by the server's word. */
type UrlProgress = { state: "asked" | "opened" | "done"; request: Extract<McpElicitation, { mode: "url" }> };

/** URL elicitations remembered for their completion; the oldest are forgotten past this. */
const MAX_TRACKED_URLS = 100;

export class ElicitationPrompts {
	private pending?: { request: ElicitationRequest; answer: (answer: ElicitAnswer) => void };
	/** URL elicitations by server and elicitation id, until done, declined or forgotten. */
	private readonly urls = new Map<string, UrlProgress>();
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
			if (request.mode === "url") this.track(request);
			const asked = this.turn.then(() => this.ask(request, signal));
			this.turn = asked.catch(() => undefined);
			return asked;
		},
		refused: (server, reason) => this.deps.notify("warning", `The MCP server "${server}" asked for input and was declined: ${reason}`),
		completed: (server, elicitationId) => this.completed(server, elicitationId),
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
		this.urls.clear();
	}

	private track(request: Extract<McpElicitation, { mode: "url" }>): void {
		this.urls.delete(urlKey(request.server, request.elicitationId));
		this.urls.set(urlKey(request.server, request.elicitationId), { state: "asked", request });
		for (const key of this.urls.keys()) {
			if (this.urls.size <= MAX_TRACKED_URLS) break;
			this.urls.delete(key);
		}
	}

	/**
	 * The server says the page of a URL elicitation is done. A question still asked about it closes with
	 * "accept": nothing is left to consent to, the URL is not opened, and the server goes on; one already
	 * accepted is marked done.
	 */
	private completed(server: string, elicitationId: string): void {
		const key = urlKey(server, elicitationId);
		const progress = this.urls.get(key);
		if (!progress || progress.state === "done") return;
		const what = `${who(progress.request)} says "${preview(progress.request)}" is done`;
		if (progress.state === "opened") {
			this.urls.delete(key);
			this.deps.notify("info", what);
			return;
		}
		progress.state = "done";
		const open = this.pending;
		if (open?.request.mode === "url" && open.request.server === server && open.request.elicitationId === elicitationId) {
			this.deps.notify("info", `${what}; its question is closed`);
			open.answer({ action: "accept" });
		}
	}

	private async ask(request: McpElicitation, signal: AbortSignal): Promise<ElicitAnswer> {
		if (signal.aborted || this.ended) return this.settled(request, { action: "cancel" });
		const progress = request.mode === "url" ? this.urls.get(urlKey(request.server, request.elicitationId)) : undefined;
		if (progress?.state === "done") {
			// Done before its turn came: never shown.
			this.deps.notify("info", `${who(request)} says "${preview(request)}" is done; its question is closed`);
			return this.settled(request, { action: "accept" });
		}
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
		// Accepted: the page opens, and the URL is remembered until the server says it is done.
		if (held.mode === "url" && answer.action === "accept" && progress?.state === "asked") {
			progress.state = "opened";
			await this.open(held);
			return answer;
		}
		return this.settled(request, answer);
	}

	/** An answer that ends a URL elicitation here (declined, cancelled, closed as done): it is forgotten. */
	private settled(request: McpElicitation, answer: ElicitAnswer): ElicitAnswer {
		if (request.mode === "url") this.urls.delete(urlKey(request.server, request.elicitationId));
		return answer;
	}

	private async open(request: Extract<ElicitationRequest, { mode: "url" }>): Promise<void> {
		const opened = await openUrl(request.url, this.deps.env);
		this.deps.notify("info", `${opened ? "Opened" : "Open this page in a browser"}: ${request.url}`);
	}
}

const who = (request: McpElicitation) => `The MCP server "${request.server}"`;
const urlKey = (server: string, elicitationId: string) => `${server}\n${elicitationId}`;

function preview(request: McpElicitation): string {
	const text = request.message || (request.mode === "url" ? request.url : "");
	return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
