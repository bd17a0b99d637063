// The coding assistant as a coordinator: it routes typed input (commands, `!shell`, `@file`, steer /
// follow-up), runs the Agent (overflow retry, threshold compaction), switches sessions and forks, and
// answers `AgentSessionApi` for the UI and the modes. Its parts exist before it and are given to it
// (see assemble.ts for what each one needs and the order they are built in).

import { resolve } from "node:path";
import type { Agent } from "../agent/index.js";
import type { AgentEvent, AgentMessage } from "../agent/types.js";
import type { ImageContent, Model, ThinkingLevel, UserMessage } from "../ai/index.js";
import { preloadApi } from "../ai/stream.js";
import { formatConfigProblem } from "../config/problems.js";
import type { CustomCommand } from "../extensions/custom-commands.js";
import type { HookListing } from "../extensions/hooks/user-hooks.js";
import type { ElicitAnswer } from "../extensions/mcp/elicitation.js";
import type { McpServerInfo, McpStartMode, McpTrustRequest } from "../extensions/mcp/manager.js";
import type { Skill } from "../extensions/skills.js";
import type { ApprovalResponse } from "../permissions/gate.js";
import type { RuleAdmin } from "../permissions/rule-admin.js";
import type { PermissionMode } from "../permissions/types.js";
import type { BackgroundJobs } from "../tools/index.js";
import type { RewindPreview } from "./checkpoints/rewind-plan.js";
import { type CompactionReason, isContextOverflowError, shouldCompact } from "./compaction.js";
import { exportMarkdown, subAgentTranscripts, writeExport } from "./export-markdown.js";
import { isLoginCommand } from "./login-command.js";
import { appendMemory, type MemoryScope, type MemoryTarget, memoryTargets } from "./memory-file.js";
import { expandAttachments } from "./prompt-attachments.js";
import type { RestoreWhat, RewindPoint, RewindResult, SessionRewind } from "./rewind.js";
import { errorText, type NoticeLevel } from "./session-events.js";
import { currentBranch, type ForkPoint, forkBefore, forkPoints } from "./session-fork.js";
import { hookContextText } from "./session-hooks.js";
import { type LoadedSession, loadSession } from "./session-load.js";
import type { SessionParts } from "./session-parts.js";
import { sessionState } from "./session-state.js";
import { findSession, listSessions, type SessionInfo } from "./session-store.js";
import type { Settings } from "./settings.js";
import { parseSlashCommand, runSlashCommand, type SlashCommandHost, slashCommands } from "./slash-commands.js";
import type { AgentDefinition } from "./subagents/agent-definitions.js";
import type { SubAgentMessages } from "./subagents/sub-agents.js";
import type {
	AgentSessionApi,
	PlanResponse,
	RunPhase,
	SessionEvent,
	SessionState,
	SlashCommandInfo,
	SubmitOptions,
	SubmitOutcome,
} from "./types.js";
import type { UserShellResult } from "./user-shell.js";

export type { SessionModelRegistry } from "./session-keys.js";

const LOGIN_NOT_QUEUED = "/login cannot be queued while a run is active: wait for it to finish";

/** `notes`: text the model reads after the prompt and its images (hooks' context). */
function userMessage(text: string, images: ImageContent[] = [], notes: string[] = []): UserMessage {
	return {
		role: "user",
		content: [{ type: "text", text }, ...images, ...notes.map((note) => ({ type: "text" as const, text: note }))],
		timestamp: Date.now(),
	};
}

export class AgentSession implements AgentSessionApi, SlashCommandHost {
	readonly agent: Agent;
	readonly cwd: string;
	readonly settings: Settings;
	/** Checkpoints and the tree moves built on them (rpc `get_tree`, the rewind commands). */
	readonly rewind: SessionRewind;
	/** Set by `/quit`; modes stop when they see it (or the `quit` event). */
	quitRequested = false;
	private readonly p: SessionParts;
	/** Steered and queued messages waiting for their UserPromptSubmit hooks, admitted in the order typed. */
	private admitting: Promise<void> = Promise.resolve();
	/** Counts Esc presses: a message whose hooks were waiting when Esc came is not sent. */
	private aborts = 0;

	constructor(parts: SessionParts) {
		this.p = parts;
		this.agent = parts.agent;
		this.cwd = parts.cwd;
		this.settings = parts.settings;
		this.rewind = parts.rewind;
		// Synchronous on purpose: the Agent then adds no microtask per streamed token.
		this.agent.subscribe((event) => this.onAgentEvent(event));
	}

	// ---- State and events ----------------------------------------------------------------------

	getState(): SessionState {
		return sessionState(this.p);
	}

	subscribe(listener: (event: SessionEvent) => void): () => void {
		return this.p.events.subscribe(listener);
	}

	watchPhases(watcher: (phase: RunPhase) => void): () => void {
		return this.p.events.watchPhases(watcher);
	}

	notify(level: NoticeLevel, text: string): void {
		this.p.events.notify(level, text);
	}

	// ---- Permissions ---------------------------------------------------------------------------

	setPermissionMode(mode: PermissionMode): void {
		this.p.setPermissionMode(mode);
	}

	/** Shift+Tab: the next mode of the cycle. */
	/** rpc: the client answers `approval_request` events (true) or a call that would ask fails with a hint (false). */
	setApprovals(enabled: boolean): void {
		this.p.permissions.setApprovals(enabled);
	}

	cyclePermissionMode(): PermissionMode {
		const mode = this.p.permissions.cycleMode();
		this.permissionsChanged(mode);
		return mode;
	}

	/** The system prompt names the mode in force and the tools follow it; listeners hear of the change once it is in place. */
	private permissionsChanged(mode: PermissionMode): void {
		this.p.applyMode();
		this.p.events.emit({ type: "permissions_changed", mode });
	}

	/** List, add and remove rules, in force and in their files (the /permissions screen). */
	permissionRules(): RuleAdmin {
		return this.p.permissions.rules;
	}

	memoryTargets(): MemoryTarget[] {
		return memoryTargets(this.cwd, this.p.env);
	}

	addMemory(scope: MemoryScope, text: string): string {
		const target = this.memoryTargets().find((t) => t.scope === scope);
		if (!target) throw new Error(`No ${scope} memory file`);
		return appendMemory(target, text);
	}

	promptFromCommand(text: string): void {
		this.prompt(text).catch((error) => this.notify("error", errorText(error)));
	}

	permissionDetails() {
		const { gate } = this.p.permissions;
		return { ...gate.rules, workspace: gate.workspace };
	}

	/** Runs `ask` (an approval prompt of a `beforeToolCall` hook) with the phase `awaiting-approval`. */
	awaitApproval<T>(toolCall: { id: string; name: string }, ask: () => Promise<T>): Promise<T> {
		return this.p.approvals.hold(toolCall, ask);
	}

	respondToApproval(id: string, response: ApprovalResponse): boolean {
		return this.p.approvals.respond(id, response);
	}

	/** Answers the plan waiting for approval (plan mode's `exit_plan_mode`); false when `id` is not the one waiting. */
	respondToPlan(id: string, response: PlanResponse): boolean {
		return this.p.plans.respond(id, response);
	}

	respondToElicitation(id: string, answer: ElicitAnswer): boolean {
		return this.p.elicitations.respond(id, answer);
	}

	// ---- Sub-agents and the todo list ------------------------------------------------------------

	/** The agent definitions the task tool can start, with where each comes from (`/agents`). */
	agentDefinitions(): readonly AgentDefinition[] {
		return this.p.agents;
	}

	/**
	 * Queues `text` for before the running sub-agent `agentId`'s next request, once the UserPromptSubmit
	 * hooks let it (as a steer to the main agent). Throws when it is not running.
	 */
	steerAgent(agentId: string, text: string, images?: ImageContent[]): void {
		if (isLoginCommand(text)) throw new Error(LOGIN_NOT_QUEUED);
		this.p.subAgents.ensureRunning(agentId);
		this.admit(`steering message for ${agentId}`, text, images, text, (message) => this.p.subAgents.steer(agentId, message));
	}

	subAgentTranscript(agentId?: string): SubAgentMessages | undefined {
		const id = agentId ?? this.p.subAgents.lastStarted();
		return id === undefined ? undefined : this.p.subAgents.transcript(id);
	}

	/** Queues `text` to start another turn of the sub-agent `agentId` once it would stop. */
	followUpAgent(agentId: string, text: string, images?: ImageContent[]): void {
		if (isLoginCommand(text)) throw new Error(LOGIN_NOT_QUEUED);
		this.p.subAgents.ensureRunning(agentId);
		this.admit(`follow-up for ${agentId}`, text, images, text, (message) => this.p.subAgents.followUp(agentId, message));
	}

	// ---- Input ---------------------------------------------------------------------------------

	private get busy(): boolean {
		return this.p.phases.phase.kind !== "idle";
	}

	async submit(text: string, options: SubmitOptions = {}): Promise<SubmitOutcome> {
		const line = text.trim();
		if (!line && !options.images?.length) return { kind: "ignored" };
		const custom = line.startsWith("/") ? this.expandCustomCommand(line) : undefined;
		const mcpPrompt = line.startsWith("/") && custom === undefined ? await this.p.extensions.expandMcpPrompt(line) : undefined;
		if (mcpPrompt && "error" in mcpPrompt) {
			this.notify("error", mcpPrompt.error);
			return { kind: "command", name: parseSlashCommand(line)?.name ?? "" };
		}
		if (line.startsWith("/") && custom === undefined && mcpPrompt === undefined) {
			const { name, ui } = await runSlashCommand(this, line, slashCommands, { ui: options.ui === true });
			return ui ? { kind: "command", name, ui } : { kind: "command", name };
		}
		if (line.startsWith("!")) {
			// `!!cmd` shows its output but keeps it out of the model's context.
			const excluded = line.startsWith("!!");
			const command = line.slice(excluded ? 2 : 1).trim();
			if (!command) return { kind: "ignored" };
			await this.runShell(command, excluded);
			return { kind: "shell" };
		}
		// A custom command's (or MCP prompt's) prompt is sent in place of the line; the line is what Esc puts back.
		const expanded = expandAttachments(custom ?? mcpPrompt?.text ?? text, this.cwd);
		const withResources = await this.p.extensions.attachMcpResources(expanded.text);
		expanded.text = withResources.text;
		for (const warning of [...expanded.warnings, ...withResources.warnings]) this.notify("warning", warning);
		const images = [...(options.images ?? []), ...(mcpPrompt?.images ?? []), ...expanded.images];
		if (this.busy) {
			const kind = options.as === "followUp" ? "followUp" : "steer";
			this.enqueue(kind, expanded.text, images, text);
			return kind === "followUp" ? { kind: "queued_follow_up" } : { kind: "steered" };
		}
		// Resolve once accepted; the run's failures are reported, not thrown at the typist.
		this.prompt(expanded.text, images).catch((error) => this.notify("error", errorText(error)));
		return { kind: "prompted" };
	}

	async prompt(text: string, images?: ImageContent[]): Promise<void> {
		// `/login <provider> <key>` is a command wherever it arrives (-p, rpc): the key never reaches the model or the file.
		if (isLoginCommand(text)) {
			await runSlashCommand(this, text.trim());
			return;
		}
		if (this.busy) throw new Error("A run is already active: steer or queue a follow-up, or wait for it to finish");
		const provider = this.agent.state.model.provider;
		const keyProblem = this.p.keys.keyProblem(provider);
		if (keyProblem) throw new Error(`No key for ${provider}: ${formatConfigProblem(keyProblem)}`);
		// The model hears of background jobs that ended since its last turn.
		const notes = this.p.jobs.takeExitNotes();
		const withNotes = notes.length > 0 ? `${text}\n\n[${notes.join(" ")}]` : text;
		await this.runAgent(async () => {
			// The user's UserPromptSubmit hooks may drop the prompt (their notice says why) or add context.
			const hooked = await this.p.hooks.userPromptSubmit(text);
			if (!hooked.send) {
				this.notify("info", "The prompt was not sent.");
				return;
			}
			const startContext = await this.p.hooks.takeStartContext();
			await this.p.extensions.mcpReady();
			await this.rewind.beforePrompt();
			const contexts = [
				startContext && hookContextText("SessionStart", startContext),
				hooked.context && hookContextText("UserPromptSubmit", hooked.context),
			].filter((c): c is string => typeof c === "string");
			if (contexts.length === 0) await this.agent.prompt(withNotes, images);
			else await this.agent.prompt(userMessage(withNotes, images, contexts));
			await this.continueWhileStopHooksBlock();
		});
		await this.rewind.afterRun();
	}

	/**
	 * Stop hooks: while one blocks the end of the run, its reason is the model's next instruction (at
	 * most STOP_HOOK_LIMIT rounds). Not after Esc or a failed reply.
	 */
	private async continueWhileStopHooksBlock(): Promise<void> {
		for (let round = 0; ; round++) {
			const last = this.agent.state.messages.at(-1);
			if (last?.role !== "assistant" || last.stopReason === "aborted" || last.stopReason === "error") return;
			const next = await this.p.hooks.stop(round);
			if (next === undefined) return;
			await this.agent.prompt(`Stop hook feedback (the run continues): ${next}`);
		}
	}

	steer(text: string, images?: ImageContent[]): void {
		if (isLoginCommand(text)) throw new Error(LOGIN_NOT_QUEUED);
		this.enqueue("steer", text, images, text);
	}

	followUp(text: string, images?: ImageContent[]): void {
		if (isLoginCommand(text)) throw new Error(LOGIN_NOT_QUEUED);
		this.enqueue("followUp", text, images, text);
	}

	/** A steered or queued message for the main agent; see `admit`. */
	private enqueue(kind: "steer" | "followUp", text: string, images: ImageContent[] | undefined, typed: string): void {
		this.admit(kind === "steer" ? "steering message" : "follow-up", text, images, typed, (message, late) => {
			this.p.queue.enqueue(kind, message, typed);
			// The run ended while the hooks ran: no run is left to take it from the queue, so one starts.
			if (late && !this.busy) void this.runAgent(() => this.agent.continue()).catch((error) => this.notify("error", errorText(error)));
		});
	}

	/**
	 * A steered or queued message passes the user's UserPromptSubmit hooks as a prompt does: a block
	 * drops it (the user sees why), their context goes with it; messages are admitted in the order typed.
	 * Without such hooks it is delivered at once. `typed` is what the user typed (what Esc puts back);
	 * `late` tells `deliver` that hooks ran first (the run it was meant for may have ended).
	 */
	private admit(
		what: string,
		text: string,
		images: ImageContent[] | undefined,
		typed: string,
		deliver: (message: UserMessage, late: boolean) => void,
	): void {
		if (!this.p.hooks.hooks.has("UserPromptSubmit")) {
			deliver(userMessage(text, images), false);
			return;
		}
		const aborts = this.aborts;
		const admitOne = async () => {
			const hooked = this.aborts === aborts ? await this.p.hooks.userPromptSubmit(text) : undefined;
			if (!hooked || this.aborts !== aborts) {
				this.notify("info", `The ${what} "${typed}" was not sent: the run was stopped while its hooks ran.`);
				return;
			}
			if (!hooked.send) {
				this.notify("info", `The ${what} "${typed}" was not sent: ${hooked.reason}`);
				return;
			}
			deliver(userMessage(text, images, hooked.context ? [hookContextText("UserPromptSubmit", hooked.context)] : []), true);
		};
		this.admitting = this.admitting.then(admitOne).catch((error) => this.notify("error", errorText(error)));
	}

	abort(): void {
		this.aborts++;
		this.p.hooks.abort();
		this.agent.abort();
		this.p.compaction.abort();
		this.p.shells.abort();
	}

	takeQueuedMessages(): { steering: string[]; followUp: string[] } {
		return this.p.queue.take();
	}

	async waitForIdle(): Promise<void> {
		// A run may be followed by a compaction and that by a retry run, so wait until neither is left;
		// a message still passing its hooks may start one more.
		for (;;) {
			await this.admitting;
			if (!this.busy) break;
			await this.agent.waitForIdle();
			await this.p.compaction.settled();
			if (this.p.phases.runActive && !this.agent.state.isStreaming) await new Promise((r) => setImmediate(r));
		}
		await this.rewind.settled();
	}

	/** Runs a `!cmd` (rpc `bash`): its output joins the context unless `excluded`, after the run when one is active. */
	runShell(command: string, excluded = false): Promise<UserShellResult> {
		return this.p.shells.run(command, excluded);
	}

	/** Stops running `!cmd`s (and what they started), leaving the agent's run alone. */
	abortShells(): void {
		this.p.shells.abort();
	}

	// ---- Extensions (see extension-host.ts) ----------------------------------------------------

	commands(): SlashCommandInfo[] {
		return this.p.extensions.commands();
	}

	/** The markdown commands, with their files (rpc `get_commands`). */
	customCommandList(): readonly CustomCommand[] {
		return this.p.extensions.customCommandList();
	}

	expandCustomCommand(line: string): string | undefined {
		return this.p.extensions.expandCustomCommand(line);
	}

	skills(): readonly Skill[] {
		return this.p.extensions.skills();
	}

	/** Starts the trusted MCP servers in the background (once); the interactive mode after the first frame. */
	startMcpServers(mode: McpStartMode = "headless"): void {
		this.p.extensions.startMcpServers(mode);
	}

	/** An MCP prompt's `/mcp__<server>__<prompt> args` line as its messages (undefined: no such prompt). */
	expandMcpPrompt(line: string) {
		return this.p.extensions.expandMcpPrompt(line);
	}

	/** Resolves once no MCP server is starting (a few seconds at most). */
	mcpReady(): Promise<void> {
		return this.p.extensions.mcpReady();
	}

	mcpTrustRequest(): McpTrustRequest | undefined {
		return this.p.extensions.mcpTrustRequest();
	}

	mcpServers(): readonly McpServerInfo[] {
		return this.p.extensions.mcpServers();
	}

	mcpToolBudget() {
		return this.p.extensions.mcpToolBudget(this.agent.state.model.contextWindow);
	}

	answerMcpTrust(allow: boolean): string[] {
		return this.p.extensions.answerMcpTrust(allow);
	}

	mcpSignIn(name: string): Promise<void> {
		return this.p.extensions.mcpSignIn(name);
	}

	mcpSignOut(name: string): Promise<void> {
		return this.p.extensions.mcpSignOut(name);
	}

	// ---- User hooks (see session-hooks.ts, docs/hooks.md) ----------------------------------------

	hookList(): readonly HookListing[] {
		return this.p.hooks.hooks.list();
	}

	answerHooksTrust(allow: boolean): string[] {
		return this.p.hooks.hooks.answerTrust(allow).map((h) => h.command);
	}

	// ---- Runs ----------------------------------------------------------------------------------

	/** Streams one run, then checks overflow and the compaction threshold. */
	private async runAgent(start: () => Promise<void>, overflowRetried = false): Promise<void> {
		const { phases } = this.p;
		phases.setRunning(true);
		try {
			await start();
		} finally {
			phases.setRunning(false);
			this.p.shells.flush();
		}
		const last = this.agent.state.messages.at(-1);
		if (!overflowRetried && last?.role === "assistant" && last.stopReason === "error" && isContextOverflowError(last.errorMessage)) {
			// The failed reply stays in the file; the context drops it so the retry ends on the user's turn.
			this.agent.replaceMessages(this.agent.state.messages.slice(0, -1));
			// Busy from the failure through the retry, so waitForIdle and submit see one stretch of work.
			phases.setRunning(true);
			try {
				if (await this.tryCompact("overflow")) await this.runAgent(() => this.agent.continue(), true);
			} finally {
				phases.setRunning(false);
			}
			return;
		}
		if (shouldCompact(this.p.usage.contextTokens, this.agent.state.model.contextWindow, this.settings.compaction)) {
			await this.tryCompact("threshold");
		}
	}

	private onAgentEvent(event: AgentEvent): void {
		try {
			// A queued message the Agent has taken from its queue: the queue lines change.
			if (event.type === "message_start" && event.message.role === "user" && this.p.queue.isQueued(event.message))
				this.p.queue.emitUpdate();
			else if (event.type === "message_end") {
				this.p.transcript.sync();
				if (event.message.role === "assistant") this.p.usage.add(event.message);
			} else if (event.type === "agent_end") this.p.transcript.sync();
		} catch (error) {
			// Persistence trouble (disk full) must not end the run; the user is told once per event.
			this.notify("error", `Could not save the session: ${errorText(error)}`);
		}
		this.p.agentEvents.forward(event);
		const { phases } = this.p;
		if (event.type === "message_update" || event.type === "message_end") phases.progressed();
		else if (event.type === "agent_start") phases.agentStart();
		else if (event.type === "agent_end") phases.agentEnd();
	}

	// ---- Compaction ----------------------------------------------------------------------------

	async compact(instructions?: string): Promise<void> {
		if (this.busy) throw new Error("Cannot compact while a run is active: wait for it or abort");
		await this.runCompaction("manual", instructions);
	}

	/** Automatic compaction: failures are reported by the event, never thrown into the run. */
	private async tryCompact(reason: CompactionReason): Promise<boolean> {
		try {
			await this.runCompaction(reason);
			return true;
		} catch {
			return false;
		}
	}

	/** Input typed during the compaction was queued with no run to drain it; it is sent when it ends. */
	private async runCompaction(reason: CompactionReason, instructions?: string): Promise<void> {
		await this.p.hooks.preCompact(reason === "manual" ? "manual" : "auto", instructions);
		const sendQueued = await this.p.compaction.run(reason, instructions);
		if (sendQueued && !this.busy) {
			void this.runAgent(() => this.agent.continue()).catch((error) => this.notify("error", errorText(error)));
		}
	}

	// ---- Model and thinking --------------------------------------------------------------------

	/** Loads what the first request needs while the user is still typing. */
	async warmUp(): Promise<void> {
		// The first snapshot of a large tree takes a while: take it while the user types.
		this.p.checkpoints.start();
		await preloadApi(this.agent.state.model.api);
		// Node's HTTP client and the stream parsers, run once in memory: their first-use cost, off the first reply.
		// Loaded here, as the providers are: not at start-up.
		const { warmUpTransport } = await import("../ai/providers/warm-up.js");
		await warmUpTransport(this.agent.state.model);
	}

	async setModel(model: Model): Promise<void> {
		this.p.models.setModel(model);
	}

	setThinkingLevel(level: ThinkingLevel): void {
		this.p.models.setThinkingLevel(level);
	}

	availableModels(): Model[] {
		return this.p.models.available();
	}

	findModel(pattern: string): Model | undefined {
		return this.p.models.find(pattern);
	}

	login(provider: string, key: string): void {
		this.p.keys.login(provider, key);
	}

	// ---- Sessions and forks (see session-file.ts, session-fork.ts) -------------------------------

	listSessions(): SessionInfo[] {
		return listSessions(this.cwd, this.p.env);
	}

	/** A fresh session; `parentSession` is recorded in its header (pi's lineage tracking). */
	async newSession(options: { parentSession?: string } = {}): Promise<void> {
		await this.stopForSwitch();
		await this.p.hooks.sessionEnd("clear");
		this.agent.reset();
		this.p.transcript.startFresh(options.parentSession);
		this.switched();
		this.p.hooks.beginSession("clear");
	}

	/**
	 * Switches to a saved session of this folder, by id prefix or file path. With `fork`, continues in a
	 * new file holding a copy (the way on when another process has the session open).
	 */
	async resumeSession(idPrefixOrPath: string, options: { fork?: boolean } = {}): Promise<void> {
		const looksLikePath = /[/\\]|\.jsonl$/.test(idPrefixOrPath);
		const path = looksLikePath ? resolve(this.cwd, idPrefixOrPath) : findSession(this.cwd, idPrefixOrPath, this.p.env).path;
		const loaded = loadSession(path);
		if (path === this.p.file.log?.path && !options.fork) throw new Error("That session is the one open now");
		await this.stopForSwitch();
		this.agent.reset();
		this.p.transcript.adopt(loaded, options.fork === true);
		for (const warning of loaded.warnings) this.notify("warning", warning);
		this.switched();
	}

	private switched(): void {
		this.p.events.emit({ type: "session_changed", sessionFile: this.p.file.log?.path });
		this.p.queue.emitUpdate();
	}

	private loadCurrent(what: string): LoadedSession {
		return this.p.file.loadCurrent(what, this.agent.state.messages);
	}

	/** The user messages of the current branch a fork can start from. */
	forkPoints(): ForkPoint[] {
		return forkPoints(this.loadCurrent("Forking"));
	}

	/**
	 * Continues in a new session file holding the branch before the user message `entryId` (its header
	 * names this file); returns that message's text, for the user to edit and send again.
	 */
	async forkAt(entryId: string): Promise<{ text: string }> {
		const current = this.loadCurrent("Forking");
		const { text, kept } = forkBefore(current, entryId);
		if (kept.entries.length === 0) await this.newSession({ parentSession: current.path });
		else await this.resumeSession(this.p.file.writeCopy(kept));
		// The UI puts the prompt back in the input, as after a conversation rewind.
		this.p.events.emit({ type: "rewound", entryId, restore: "conversation", files: [], prompt: text, text });
		return { text };
	}

	/** Continues in a new session file holding a copy of the current branch (pi's `clone`). */
	async cloneSession(): Promise<void> {
		const current = this.loadCurrent("Cloning");
		if (current.branch.length === 0) await this.newSession({ parentSession: current.path });
		else await this.resumeSession(this.p.file.writeCopy(currentBranch(current)));
	}

	/** Names the session (pi's `session_info` entry, so a resumed or forked session keeps it). */
	setSessionName(name: string): void {
		this.p.file.setName(name);
	}

	/** The id of the session-file entry holding `message`, once it is written. */
	entryIdOf(message: AgentMessage): string | undefined {
		return this.p.file.log?.entryIdOf(message);
	}

	private async stopForSwitch(): Promise<void> {
		this.abort();
		await this.waitForIdle();
		this.p.shells.drop();
	}

	exportMarkdown(file: string): string {
		const path = resolve(this.cwd, file);
		const model = this.agent.state.model;
		// With a session file, the sub-agents' side branches follow the main transcript.
		const subAgents = this.p.file.log ? subAgentTranscripts(this.loadCurrent("Exporting").entries) : [];
		const markdown = exportMarkdown(this.agent.state.messages, { cwd: this.cwd, model: `${model.provider}/${model.id}` }, subAgents);
		writeExport(path, markdown);
		return path;
	}

	requestQuit(): void {
		this.quitRequested = true;
		this.p.events.emit({ type: "quit" });
	}

	// ---- Rewind (see rewind.ts) -----------------------------------------------------------------

	/**
	 * Restores code, conversation or both to just before the prompt `entryId` (a user-message entry of
	 * the current branch). Only when idle; a conversation restore starts a branch in the same file.
	 */
	async rewindTo(entryId: string, restore: RestoreWhat): Promise<RewindResult> {
		this.assertIdleFor("Rewind");
		const result = await this.rewind.rewind(entryId, restore);
		this.p.events.emit({ type: "rewound", ...result });
		return result;
	}

	rewindPoints(): Promise<RewindPoint[]> {
		return this.rewind.points();
	}

	previewRewind(entryId: string): Promise<RewindPreview> {
		return this.rewind.preview(entryId);
	}

	async undo(): Promise<RewindResult> {
		this.assertIdleFor("Undo");
		const result = await this.rewind.undo();
		this.p.events.emit({ type: "rewound", ...result });
		return result;
	}

	/** Continues on another branch of this session's tree (`/tree`). */
	switchBranch(leafId: string): void {
		this.assertIdleFor("Switching branches");
		this.rewind.switchBranch(leafId);
	}

	private assertIdleFor(what: string): void {
		if (this.busy) throw new Error(`${what} works when the agent is idle: press Esc to stop the run first`);
	}

	/** The model's background jobs, for `/ps`. */
	backgroundJobs(): BackgroundJobs {
		return this.p.jobs;
	}

	moveToBackground(): string[] {
		const moved = this.p.jobs.adoptForeground();
		this.p.events.notify(
			"info",
			moved.length > 0
				? `Moved to the background: ${moved.map((j) => `${j.id} (${j.command})`).join(", ")}. /ps lists the jobs; Esc does not stop them.`
				: // Only the model's bash calls can move; a running `!cmd` must not be met with "nothing runs".
					this.p.shells.active
					? "Ctrl+B moves the model's bash commands; your !command stays in the foreground (Esc stops it)."
					: "No bash command is running in the foreground.",
		);
		return moved.map((j) => j.id);
	}

	async dispose(): Promise<void> {
		this.abort();
		await this.waitForIdle();
		await this.p.hooks.sessionEnd("other");
		this.p.approvals.dispose();
		this.p.plans.dispose();
		this.p.elicitations.dispose();
		this.p.permissions.dispose();
		this.p.shells.flush();
		await this.p.extensions.dispose();
		this.p.file.close();
		this.p.events.clear();
	}
}
