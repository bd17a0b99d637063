// One ACP session: a Rudder session and what its client sees of it. Events become `session/update`s,
// sent at once (the SDK writes messages in the order they are sent, so updates, fs requests and the
// prompt's response reach the client in event order); a prompt is a turn that ends with a stop reason;
// approvals become `session/request_permission`; permission modes are the session's modes.
import type {
	AgentContext,
	PromptResponse,
	SessionConfigOption,
	SessionModeState,
	SessionUpdate,
	StopReason,
} from "@agentclientprotocol/sdk";
import type { AgentSession } from "../../session/agent-session.js";
import type { ApprovalRequest, RunPhase, SessionEvent, SessionState } from "../../session/types.js";
import { internalError, invalidParams, invalidRequest } from "./acp-error.js";
import { configOptionsOf, setConfigOption } from "./config-options.js";
import { approvalResponseOf, isPermissionMode, permissionOptions, SESSION_MODES } from "./permission-options.js";
import { type PromptInput, promptInput } from "./prompt-content.js";
import { planUpdate, replayUpdates, UpdateMapper } from "./session-updates.js";
import { turnEnd } from "./stop-reason.js";
import { toolCallView } from "./tool-calls.js";

/** The editor opens and ends sessions; these would only stop the agent under it. */
const EDITOR_OWNED_COMMANDS = new Set(["quit", "exit"]);

/** A prompt being answered: the client's `session/prompt` (and any sent while it runs) resolve with it. */
interface Turn {
	done: Promise<PromptResponse>;
	cancelled: boolean;
	/** Error notices while it ran (also shown as message chunks). */
	errors: string[];
	/**
	 * Prompts sent while it runs, on their way into the steering queue: `submit` awaits before it
	 * enqueues, so the turn waits for them before its last look at the queue.
	 */
	steers: Promise<unknown>[];
}

/** Context use after a turn (the last request's tokens, of the model's window) and the session's cost so far. */
function usageUpdate(state: SessionState): SessionUpdate {
	return {
		sessionUpdate: "usage_update",
		used: state.contextTokens,
		size: state.contextWindow,
		...(state.totals.cost > 0 ? { cost: { amount: state.totals.cost, currency: "USD" } } : {}),
	};
}

/** The model run has ended; the session is saving or compacting after it (as rpc mode reads the phase). */
function isSettling(phase: RunPhase): boolean {
	return (phase.kind === "running" && phase.settling === true) || (phase.kind === "compacting" && phase.reason !== "manual");
}

export class AcpSession {
	private readonly mapper: UpdateMapper;
	/** The last update sent (written once it settles). */
	private sent: Promise<void> = Promise.resolve();
	private turn?: Turn;
	/** The open `session/request_permission`, withdrawn on cancel. */
	private asking?: AbortController;
	/** The command names last announced, to announce again only on a change. */
	private announced = "";
	private readonly unsubscribe: () => void;

	constructor(
		readonly id: string,
		readonly session: AgentSession,
		private readonly client: AgentContext,
	) {
		this.mapper = new UpdateMapper(session.cwd);
		this.unsubscribe = session.subscribe((event) => this.onEvent(event));
	}

	/** The model and thinking level the editor can pick. */
	configOptions(): SessionConfigOption[] {
		return configOptionsOf(this.session);
	}

	async setConfigOption(configId: string, value: unknown): Promise<SessionConfigOption[]> {
		await setConfigOption(this.session, configId, value);
		return this.configOptions();
	}

	modes(): SessionModeState {
		return { currentModeId: this.session.getState().permissionMode ?? "ask", availableModes: SESSION_MODES };
	}

	/** Sends `update` now; a closed connection drops it. */
	send(update: SessionUpdate): Promise<void> {
		this.sent = this.client.notify("session/update", { sessionId: this.id, update }).catch(() => {});
		return this.sent;
	}

	/** The slash commands (built-in, custom and MCP prompts), as `available_commands_update`. */
	announceCommands(): Promise<void> {
		const availableCommands = this.commandList();
		this.announced = availableCommands.map((c) => c.name).join("\n");
		return this.send({ sessionUpdate: "available_commands_update", availableCommands });
	}

	/** Again when the list changed since (MCP servers that started with prompts). */
	announceCommandsIfChanged(): Promise<void> {
		const names = this.commandList()
			.map((c) => c.name)
			.join("\n");
		return names === this.announced ? Promise.resolve() : this.announceCommands();
	}

	private commandList() {
		return this.session
			.commands()
			.filter((c) => !EDITOR_OWNED_COMMANDS.has(c.name))
			.map((c) => ({
				name: c.name,
				description: c.description,
				...(c.args ? { input: { hint: c.args } } : {}),
			}));
	}

	/** A loaded session's todo list, as the plan the client shows (nothing for an empty list). */
	announcePlan(): Promise<void> {
		const todos = this.session.getState().todos ?? [];
		return todos.length > 0 ? this.send(planUpdate(todos)) : Promise.resolve();
	}

	/** `session/load`: the saved transcript as updates, all sent before the response. */
	async replay(): Promise<void> {
		for (const update of replayUpdates(this.session.getState().messages, this.session.cwd)) void this.send(update);
		await this.sent;
	}

	/**
	 * `session/prompt`. While a turn runs the prompt steers it (Rudder's steering: it reaches the model
	 * at its next step) and its response is that turn's; otherwise it starts a turn. A turn whose run
	 * has not started yet, or has ended (it is saving), takes no steering: the prompt waits for it and
	 * starts the next turn.
	 */
	async prompt(blocks: Parameters<typeof promptInput>[0]): Promise<PromptResponse> {
		const input = promptInput(blocks);
		const running = this.turn;
		const phase = this.session.getState().phase;
		if (running && phase.kind !== "idle" && !isSettling(phase)) {
			const steer = this.session.submit(input.text, { images: input.images });
			running.steers.push(steer);
			await steer;
			return running.done;
		}
		// The turn is claimed before the first await, so two prompts sent together never both start one.
		const turn: Turn = { cancelled: false, errors: [], steers: [], done: Promise.resolve({ stopReason: "end_turn" }) };
		this.turn = turn;
		turn.done = (async () => {
			await running?.done.catch(() => {});
			// A run that ended a moment ago may still be saving: start after it.
			await this.session.waitForIdle();
			return this.runTurn(input, turn);
		})().finally(() => {
			if (this.turn === turn) this.turn = undefined;
		});
		return turn.done;
	}

	private async runTurn(input: PromptInput, turn: Turn): Promise<PromptResponse> {
		const start = this.session.getState().messages.length;
		this.mapper.turnStarted();
		const outcome = await this.session.submit(input.text, { images: input.images });
		if (outcome.kind === "prompted" || outcome.kind === "shell") await this.session.waitForIdle();
		await this.runLateMessages(turn);
		void this.send(usageUpdate(this.session.getState()));
		await this.sent;
		const added = this.session.getState().messages.slice(start);
		const end = turnEnd(added, turn.cancelled);
		if ("error" in end) throw internalError(end.error.split("\n")[0] ?? "");
		// A run that could not start (no key for the provider) or a command that failed: the error, not end_turn.
		const [failure] = turn.errors;
		if (failure !== undefined && !added.some((m) => (m as { role?: string }).role === "assistant")) throw internalError(failure);
		return { stopReason: end.stopReason satisfies StopReason };
	}

	/**
	 * Steering or a follow-up that arrived after the run's last look at its queues (as its model call
	 * ended) would wait for the next prompt; the turn runs it instead, as one message.
	 */
	private async runLateMessages(turn: Turn): Promise<void> {
		while (!turn.cancelled) {
			await Promise.allSettled(turn.steers.splice(0));
			// A run the session started itself for what was left in its queue ends first.
			await this.session.waitForIdle();
			const queued = this.session.takeQueuedMessages();
			const late = [...queued.steering, ...queued.followUp];
			if (late.length === 0 && turn.steers.length === 0) return;
			if (late.length > 0) await this.session.submit(late.join("\n\n"));
		}
	}

	/** `session/cancel`: everything stops at once, as Esc in the terminal (queued messages are dropped). */
	cancel(): void {
		if (this.turn) this.turn.cancelled = true;
		this.asking?.abort();
		this.session.takeQueuedMessages();
		this.session.abort();
	}

	/** `_rudder/steer` and `_rudder/follow_up`: only into a running turn. */
	queue(kind: "steer" | "followUp", text: string): void {
		if (!this.turn) throw invalidRequest("no prompt turn is running: send session/prompt");
		if (kind === "steer") this.session.steer(text);
		else this.session.followUp(text);
	}

	setMode(modeId: string): void {
		if (!isPermissionMode(modeId)) throw invalidParams(`unknown mode "${modeId}"`, { modeId });
		this.session.setPermissionMode(modeId);
	}

	async close(): Promise<void> {
		this.cancel();
		this.unsubscribe();
		await this.session.dispose();
	}

	private onEvent(event: SessionEvent): void {
		for (const update of this.mapper.updatesFor(event)) void this.send(update);
		if (event.type === "notice" && event.level === "error") this.turn?.errors.push(event.text.split("\n")[0] ?? "");
		if (event.type === "approval_request") void this.askPermission(event);
		// ACP has no way to show a server's form yet: declined, and the editor's user is told.
		else if (event.type === "elicitation_request") {
			this.session.respondToElicitation(event.id, { action: "decline" });
			void this.send({
				sessionUpdate: "agent_message_chunk",
				content: { type: "text", text: `Warning: the MCP server "${event.server}" asked for input; declined (ACP cannot show forms)\n` },
			});
		} else if (event.type === "permissions_changed") void this.send({ sessionUpdate: "current_mode_update", currentModeId: event.mode });
		else if (event.type === "model_changed") void this.send({ sessionUpdate: "config_option_update", configOptions: this.configOptions() });
	}

	/** An approval as `session/request_permission`, after the tool call it names has been announced. */
	private async askPermission(request: ApprovalRequest): Promise<void> {
		const options = permissionOptions(request);
		const view = toolCallView(request.tool, request.args, this.session.cwd);
		const controller = new AbortController();
		this.asking = controller;
		const why = request.kind === "unsandboxed" ? `It failed inside the sandbox: ${request.reason}` : request.reason;
		let response: ReturnType<typeof approvalResponseOf>;
		try {
			const answer = await this.client.request(
				"session/request_permission",
				{
					sessionId: this.id,
					toolCall: {
						toolCallId: request.toolCallId,
						title: view.title,
						kind: view.kind,
						status: "pending",
						locations: view.locations,
						rawInput: request.args,
						content: [...view.content, { type: "content", content: { type: "text", text: `Asks because: ${why}` } }],
					},
					options,
				},
				{ cancellationSignal: controller.signal },
			);
			response = approvalResponseOf(answer.outcome, options);
		} catch {
			response = { decision: "deny", reason: "The client did not answer the permission request." };
		} finally {
			if (this.asking === controller) this.asking = undefined;
		}
		this.session.respondToApproval(request.id, response);
	}
}
