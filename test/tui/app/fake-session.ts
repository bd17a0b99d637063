// A small in-memory AgentSessionApi for component tests: it keeps state and emits the same events, in
// the same order, as the real session (agent_start, user message_start/end, assistant message_start,
// message_update per delta, message_end, tool_execution_*, agent_end, queue_update). Tests drive the
// "model" through its methods (text, tool, finish) instead of a provider.
import type { AgentMessage } from "../../../src/agent/types.js";
import type { AssistantMessage, Model } from "../../../src/ai/types.js";
import { emptyUsage } from "../../../src/ai/usage.js";
import { loadedRules, RuleAdmin, type RuleEntry, type RuleFiles } from "../../../src/permissions/rule-admin.js";
import type { PermissionRule } from "../../../src/permissions/types.js";
import { appendMemory, type MemoryScope, type MemoryTarget } from "../../../src/session/memory-file.js";
import { defaultSettings } from "../../../src/session/settings.js";
import { runSlashCommand, type SlashCommandHost, slashCommands } from "../../../src/session/slash-commands.js";
import type {
	AgentSessionApi,
	FileChangeInfo,
	PermissionMode,
	RunPhase,
	SessionEvent,
	SessionState,
	SessionSummary,
	SubAgentMessages,
	SubmitOptions,
	SubmitOutcome,
} from "../../../src/session/types.js";

export const fakeModel: Model = {
	id: "fake-1",
	name: "Fake",
	api: "faux",
	provider: "fake",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 100_000,
	maxTokens: 4096,
};

/** Entries back to rules, as permissionDetails gives them. */
function ruleGroups(entries: readonly RuleEntry[]): { allow: PermissionRule[]; deny: PermissionRule[] } {
	const rule = (e: RuleEntry): PermissionRule => ({ text: e.text, tool: "", source: e.file ?? e.scope, scope: e.scope });
	return { allow: entries.filter((e) => e.kind === "allow").map(rule), deny: entries.filter((e) => e.kind === "deny").map(rule) };
}

/** What this double lacks answers as an unavailable capability would: no points, no servers, a rejected restore. */
const NO_REWIND = "Rewind is not available in this session (no session file)";

export class FakeSession implements AgentSessionApi {
	readonly calls: { method: string; args: unknown[] }[] = [];
	readonly settings = defaultSettings;
	private listeners = new Set<(e: SessionEvent) => void>();
	private phaseWatchers = new Set<(phase: RunPhase) => void>();
	private state: SessionState = {
		cwd: "/work/project",
		model: fakeModel,
		thinkingLevel: "off",
		messages: [],
		phase: { kind: "idle" },
		isStreaming: false,
		pendingToolCalls: new Set(),
		steering: [],
		followUp: [],
		totals: { input: 1200, output: 345, cacheRead: 0, cacheWrite: 0, cost: 0.0123 },
		contextTokens: 25_000,
		contextWindow: 100_000,
		sessionId: "s1",
		isCompacting: false,
	};
	private partial: AssistantMessage | undefined;
	private idle: (() => void)[] = [];

	getState(): SessionState {
		return this.state;
	}
	subscribe(listener: (event: SessionEvent) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}
	requestQuit(): void {
		this.emit({ type: "quit" });
	}
	notify(level: "info" | "warning" | "error", text: string): void {
		this.emit({ type: "notice", level, text });
	}
	findModel(pattern: string) {
		return this.availableModels().find((m) => `${m.provider}/${m.id}`.includes(pattern));
	}
	watchPhases(watcher: (phase: RunPhase) => void): () => void {
		this.phaseWatchers.add(watcher);
		return () => this.phaseWatchers.delete(watcher);
	}
	emit(event: SessionEvent): void {
		for (const l of this.listeners) l(event);
		if (event.type === "phase_changed") for (const w of this.phaseWatchers) w(event.phase);
	}

	/** Whether the last submit said the caller acts on a command's UI request (the TUI does). */
	lastSubmitUi = false;

	async submit(text: string, options?: SubmitOptions): Promise<SubmitOutcome> {
		const { ui, ...rest } = options ?? {};
		this.lastSubmitUi = ui === true;
		this.calls.push({ method: "submit", args: [text, Object.keys(rest).length ? rest : undefined] });
		// The real registry: the UI's commands (/quit, /exit, a bare /model or /resume) are its too. The
		// commands used here need only what this fake has; others report through notices.
		if (text.startsWith("/")) {
			const host = this as unknown as SlashCommandHost;
			const { name, ui: request } = await runSlashCommand(host, text, slashCommands, { ui: ui === true });
			return request ? { kind: "command", name, ui: request } : { kind: "command", name };
		}
		if (!this.state.isStreaming) {
			void this.prompt(text);
			return { kind: "prompted" };
		}
		if (options?.as === "followUp") {
			this.followUp(text);
			return { kind: "queued_follow_up" };
		}
		this.steer(text);
		return { kind: "steered" };
	}

	prompt(text: string): Promise<void> {
		this.calls.push({ method: "prompt", args: [text] });
		this.state = { ...this.state, phase: { kind: "running" }, isStreaming: true };
		this.emit({ type: "agent_start" });
		this.addMessage({ role: "user", content: text, timestamp: Date.now() });
		this.emit({ type: "turn_start" });
		this.startAssistant();
		return new Promise((resolve) => this.idle.push(resolve));
	}

	steer(text: string): void {
		this.calls.push({ method: "steer", args: [text] });
		this.state = { ...this.state, steering: [...this.state.steering, text] };
		this.emitQueue();
	}
	followUp(text: string): void {
		this.calls.push({ method: "followUp", args: [text] });
		this.state = { ...this.state, followUp: [...this.state.followUp, text] };
		this.emitQueue();
	}
	abort(): void {
		this.calls.push({ method: "abort", args: [] });
		if (this.state.isStreaming) this.finish("aborted");
	}
	takeQueuedMessages(): { steering: string[]; followUp: string[] } {
		this.calls.push({ method: "takeQueuedMessages", args: [] });
		const { steering, followUp } = this.state;
		this.state = { ...this.state, steering: [], followUp: [] };
		this.emitQueue();
		return { steering, followUp };
	}
	waitForIdle(): Promise<void> {
		return this.state.isStreaming ? new Promise((r) => this.idle.push(r)) : Promise.resolve();
	}
	async setModel(model: Model): Promise<void> {
		this.calls.push({ method: "setModel", args: [model] });
		this.state = { ...this.state, model };
		this.emit({ type: "model_changed", model, thinkingLevel: this.state.thinkingLevel });
	}
	setThinkingLevel(): void {}
	availableModels(): Model[] {
		return [fakeModel, { ...fakeModel, id: "fake-2", name: "Fake Two" }];
	}
	/** Saved sessions for the /resume picker. */
	sessions: SessionSummary[] = [
		{ id: "aaaa1111", modified: new Date("2026-11-30T10:00:00Z"), messageCount: 4, firstMessage: "fix the parser", bytes: 2048 },
		{ id: "bbbb2222", modified: new Date("2026-11-29T09:00:00Z"), messageCount: 9, firstMessage: "add tests", bytes: 310 },
	];
	/** A method that reads `this`, as AgentSession's does: calling it unbound fails. */
	listSessions(): SessionSummary[] {
		this.calls.push({ method: "listSessions", args: [] });
		return this.sessions;
	}
	commands() {
		return [
			{ name: "model", description: "Pick a model" },
			{ name: "compact", description: "Summarise the context", args: "[instructions]" },
			{ name: "quit", description: "Quit" },
		];
	}
	async newSession(): Promise<void> {}
	async compact(): Promise<void> {}
	async dispose(): Promise<void> {}
	async rewindPoints() {
		return [];
	}
	async previewRewind(): Promise<{ changes: FileChangeInfo[]; changedOutside: string[] }> {
		throw new Error(NO_REWIND);
	}
	async rewindTo(): Promise<{ files: FileChangeInfo[]; text?: string }> {
		throw new Error(NO_REWIND);
	}
	startMcpServers(): void {}
	mcpTrustRequest() {
		return undefined;
	}
	async mcpSignIn(): Promise<void> {}

	async mcpSignOut(): Promise<void> {}

	answerMcpTrust(): string[] {
		return [];
	}
	/** No hooks in this double. */
	hookList() {
		return [];
	}
	answerHooksTrust(): string[] {
		return [];
	}
	async warmUp(): Promise<void> {}
	/** This double has no permission gate: the mode stays unset and no approval ever waits. */
	setPermissionMode(mode: PermissionMode): void {
		this.calls.push({ method: "setPermissionMode", args: [mode] });
	}
	cyclePermissionMode(): PermissionMode {
		this.calls.push({ method: "cyclePermissionMode", args: [] });
		return "ask";
	}
	/**
	 * The rules behind /permissions: a real RuleAdmin. Without `keepRules` a call fails like a session
	 * that has none, so no test writes rule files by accident.
	 */
	private rules: RuleAdmin | undefined;
	/** Real rules kept in `files` (temp folders of the test), starting with `rules` in force. */
	keepRules(files: RuleFiles, rules: { allow: PermissionRule[]; deny: PermissionRule[] } = { allow: [], deny: [] }): RuleAdmin {
		this.rules = new RuleAdmin(files, loadedRules(rules));
		return this.rules;
	}
	/** The AGENTS.md files `#text` offers; tests set them (none by default). */
	memory: MemoryTarget[] = [];
	memoryTargets(): MemoryTarget[] {
		return this.memory;
	}
	/** The real write (memory-file.ts), on the targets the test set. */
	addMemory(scope: MemoryScope, text: string): string {
		const target = this.memory.find((t) => t.scope === scope);
		if (!target) throw new Error(`No ${scope} memory file`);
		return appendMemory(target, text);
	}
	permissionRules(): RuleAdmin {
		if (!this.rules) throw new Error("This double keeps no permission rules");
		return this.rules;
	}
	permissionDetails() {
		const { allow, deny } = ruleGroups(this.permissionRules().list());
		return { allow, deny, workspace: [this.state.cwd] };
	}
	moveToBackground(): string[] {
		this.calls.push({ method: "moveToBackground", args: [] });
		return [];
	}
	respondToApproval(id: string): boolean {
		this.calls.push({ method: "respondToApproval", args: [id] });
		return false;
	}

	respondToPlan(id: string, response: unknown): boolean {
		this.calls.push({ method: "respondToPlan", args: [id, response] });
		const plan = this.state.pendingPlan;
		if (!plan || plan.id !== id) return false;
		this.setState({ pendingPlan: undefined });
		return true;
	}

	respondToElicitation(id: string, answer: unknown): boolean {
		this.calls.push({ method: "respondToElicitation", args: [id, answer] });
		const asked = this.state.pendingElicitation;
		if (!asked || asked.id !== id) return false;
		this.setState({ pendingElicitation: undefined });
		return true;
	}

	steerAgent(agentId: string, text: string): void {
		this.calls.push({ method: "steerAgent", args: [agentId, text] });
	}

	followUpAgent(agentId: string, text: string): void {
		this.calls.push({ method: "followUpAgent", args: [agentId, text] });
	}

	/** The sub-agents' transcripts a test gave it, by id; the last one stands for "the one started last". */
	subAgentTranscripts: SubAgentMessages[] = [];

	subAgentTranscript(agentId?: string): SubAgentMessages | undefined {
		this.calls.push({ method: "subAgentTranscript", args: [agentId] });
		return agentId === undefined ? this.subAgentTranscripts.at(-1) : this.subAgentTranscripts.find((t) => t.info.agentId === agentId);
	}

	/** Replaces fields of the state and tells listeners (a plan, sub-agents, todos arriving). */
	setState(fields: Partial<SessionState>, event?: SessionEvent): void {
		this.state = { ...this.state, ...fields };
		if (event) this.emit(event);
	}

	// ---- the scripted "model" ----

	/** Streams a piece of assistant text (a message_update with a text_delta). */
	text(delta: string): void {
		const p = this.partial!;
		let index = p.content.findIndex((c) => c.type === "text");
		if (index === -1) {
			p.content.push({ type: "text", text: "" });
			index = p.content.length - 1;
			this.emit({ type: "message_update", message: p, assistantMessageEvent: { type: "text_start", contentIndex: index, partial: p } });
		}
		const block = p.content[index] as { text: string };
		block.text += delta;
		this.emit({
			type: "message_update",
			message: p,
			assistantMessageEvent: { type: "text_delta", contentIndex: index, delta, partial: p },
		});
	}

	/** Streams a whole thinking block (start, one delta, end). */
	thinking(text: string): void {
		const p = this.partial!;
		p.content.push({ type: "thinking", thinking: text });
		const contentIndex = p.content.length - 1;
		this.emit({ type: "message_update", message: p, assistantMessageEvent: { type: "thinking_start", contentIndex, partial: p } });
		this.emit({
			type: "message_update",
			message: p,
			assistantMessageEvent: { type: "thinking_delta", contentIndex, delta: text, partial: p },
		});
		this.emit({
			type: "message_update",
			message: p,
			assistantMessageEvent: { type: "thinking_end", contentIndex, content: text, partial: p },
		});
	}

	startTool(id: string, name: string, args: unknown): void {
		this.state = { ...this.state, pendingToolCalls: new Set([...this.state.pendingToolCalls, id]) };
		this.emit({ type: "tool_execution_start", toolCallId: id, toolName: name, args });
	}
	toolOutput(id: string, name: string, text: string): void {
		this.emit({
			type: "tool_execution_update",
			toolCallId: id,
			toolName: name,
			args: {},
			partialResult: { content: [{ type: "text", text }], details: {} },
		});
	}
	endTool(id: string, name: string, text: string, details: unknown = {}): void {
		const pending = new Set(this.state.pendingToolCalls);
		pending.delete(id);
		this.state = { ...this.state, pendingToolCalls: pending };
		this.emit({
			type: "tool_execution_end",
			toolCallId: id,
			toolName: name,
			result: { content: [{ type: "text", text }], details },
			isError: false,
		});
	}

	/** The provider failed with a retryable error: the run waits `delayMs` before the next attempt. */
	retrying(delayMs: number, reason: string): void {
		const phase = { kind: "retrying" as const, attempt: 2, maxAttempts: 4, delayMs, until: Date.now() + delayMs, reason };
		this.state = { ...this.state, phase };
		this.emit({ type: "phase_changed", phase });
	}

	/** Ends the assistant message and the run. */
	finish(stopReason: "stop" | "aborted" | "error" = "stop", errorMessage?: string): void {
		const message: AssistantMessage = { ...this.partial!, stopReason, errorMessage };
		this.partial = undefined;
		this.state = { ...this.state, messages: [...this.state.messages, message], streamingMessage: undefined };
		this.emit({ type: "message_end", message });
		this.emit({ type: "turn_end", message, toolResults: [] });
		this.state = { ...this.state, phase: { kind: "idle" }, isStreaming: false, pendingToolCalls: new Set() };
		this.emit({ type: "agent_end", messages: [] });
		for (const r of this.idle.splice(0)) r();
	}

	private startAssistant(): void {
		this.partial = {
			role: "assistant",
			content: [],
			api: "faux",
			provider: "fake",
			model: "fake-1",
			usage: emptyUsage(),
			stopReason: "stop",
			timestamp: Date.now(),
		};
		this.state = { ...this.state, streamingMessage: this.partial };
		this.emit({ type: "message_start", message: this.partial });
	}

	private addMessage(message: AgentMessage): void {
		this.state = { ...this.state, messages: [...this.state.messages, message] };
		this.emit({ type: "message_start", message });
		this.emit({ type: "message_end", message });
	}

	private emitQueue(): void {
		this.emit({ type: "queue_update", steering: [...this.state.steering], followUp: [...this.state.followUp] });
	}
}
