// The coding assistant: builds the Agent (model, tools, system prompt, keys), persists every finished
// message, resumes sessions, routes typed input (commands, `!shell`, `@file`, steer / follow-up),
// compacts the context and keeps the cost totals. UIs and modes talk to it through `AgentSessionApi`.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Agent } from "../agent/index.js";
import type { AgentEvent, AgentMessage, AgentTool, StreamFn } from "../agent/types.js";
import type { AssistantMessageEvent, ImageContent, Model, ThinkingLevel, UserMessage } from "../ai/index.js";
import { preloadApi, streamSimple } from "../ai/stream.js";
import { type ConfigProblem, formatConfigProblem } from "../config/problems.js";
import { type CustomCommand, expandCommand, loadCustomCommands } from "../extensions/custom-commands.js";
import { type LoadedMcpConfig, loadMcpConfig } from "../extensions/mcp/config.js";
import { McpManager, type McpServerInfo, type McpStartMode, type McpTrustRequest } from "../extensions/mcp/manager.js";
import { formatSkillsForPrompt, loadSkills, type Skill } from "../extensions/skills.js";
import type { ApprovalResponse } from "../permissions/gate.js";
import type { PermissionMode } from "../permissions/types.js";
import { childEnv } from "../safety/child-env.js";
import { processSecrets, redactSecrets } from "../safety/secrets.js";
import { createAllTools, createCodingTools, type ToolsOptions, toolNames } from "../tools/index.js";
import type { CommandSandbox, SandboxSpec } from "../tools/sandbox.js";
import type { RewindPreview } from "./checkpoints/rewind-plan.js";
import { type CompactionReason, estimateTokens, findCutIndex, isContextOverflowError, shouldCompact, summarize } from "./compaction.js";
import { loadContextFiles } from "./context-files.js";
import { exportMarkdown, writeExport } from "./export-markdown.js";
import { isLoginCommand } from "./login-command.js";
import { expandAttachments } from "./prompt-attachments.js";
import { withRedactedResults } from "./redacting-tools.js";
import { type RestoreWhat, type RewindHost, type RewindPoint, type RewindResult, SessionRewind } from "./rewind.js";
import { RunPhaseBox } from "./run-phase.js";
import { currentBranch, type ForkPoint, forkBefore, forkPoints } from "./session-fork.js";
import type { SessionEntry } from "./session-format.js";
import { type LoadedSession, loadSession, repairTranscript } from "./session-load.js";
import { SessionLog } from "./session-log.js";
import { type CompactionSummaryMessage, convertToLlm, messageText, type ShellOutputMessage } from "./session-messages.js";
import { type ApprovalChannel, loadPermissionSetup, type PermissionSetup, SessionPermissions } from "./session-permissions.js";
import { findSession, listSessions, type SessionInfo, sessionsByLastUse } from "./session-store.js";
import { globalSettingsPath, loadSettings, type Settings } from "./settings.js";
import { parseSlashCommand, runSlashCommand, type SlashCommandHost, slashCommands } from "./slash-commands.js";
import { StreamRedaction } from "./stream-redaction.js";
import { buildSystemPrompt, type SystemPromptInput } from "./system-prompt.js";
import type {
	AgentSessionApi,
	RunPhase,
	SessionEvent,
	SessionState,
	SessionTotals,
	SlashCommandInfo,
	SubmitOptions,
	SubmitOutcome,
} from "./types.js";
import { runUserShell, type UserShellResult } from "./user-shell.js";

type Env = Record<string, string | undefined>;

/** `fork`: continue in a new file holding a copy (for a session another process has open). */
export type SessionMode =
	| { kind: "new" }
	| { kind: "continue"; fork?: boolean }
	| { kind: "file"; path: string; fork?: boolean }
	| { kind: "none" };

/** The part of `ModelRegistry` a session uses. */
export interface SessionModelRegistry {
	getAvailable(): Model[];
	find(spec: string): Model | undefined;
	getApiKey(provider: string): string | undefined;
	setApiKey(provider: string, key: string): void;
	/** Set when the provider needs a key and has none because auth.json could not be read. */
	keyProblem?(provider: string): ConfigProblem | undefined;
}

const LOGIN_NOT_QUEUED = "/login cannot be queued while a run is active: wait for it to finish";

export interface CreateAgentSessionOptions {
	cwd: string;
	/** Default: the settings' `defaultModel`, else the first available model of the registry. */
	model?: Model;
	/** Default: the resumed session's, else the settings', else "off". */
	thinkingLevel?: ThinkingLevel;
	/** Tool names (read, bash, edit, write, grep, find, ls). Default: read, bash, edit, write. */
	tools?: string[];
	/** Replaces the built-in role text of the system prompt. */
	systemPrompt?: string;
	appendSystemPrompt?: string;
	sessionMode: SessionMode;
	registry?: SessionModelRegistry;
	/** Default: loaded from the global and project settings files. */
	settings?: Settings;
	/** For config and data folders and keys. Default: `process.env`. */
	env?: Env;
	/** Key for the chosen model's provider, over the registry's. */
	apiKey?: string;
	/** Replaces `streamSimple` (tests). */
	streamFn?: StreamFn;
	/** Permission policy and trust. Default: from the settings files and the remembered trust, no flags. */
	permissions?: PermissionSetup;
	/** Overrides the policy's mode (tests, embedders). */
	permissionMode?: PermissionMode;
	/** Who answers approvals. Default "print": a call that would ask is denied with the flag that allows it. */
	approvals?: ApprovalChannel;
	/** Replaces the platform's bash sandbox (tests). */
	sandboxFactory?: (spec: SandboxSpec) => CommandSandbox | undefined;
}

const zeroTotals = (): SessionTotals => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 });

function userMessage(text: string, images: ImageContent[] = []): UserMessage {
	return { role: "user", content: [{ type: "text", text }, ...images], timestamp: Date.now() };
}

/** The chosen tools; the model's commands run without credential variables (see src/safety/child-env.ts). */
function pickTools(cwd: string, names: string[] | undefined, base: ToolsOptions, env: Env, settings: Settings): AgentTool[] {
	const options: ToolsOptions = { ...base, bash: { ...base.bash, env: childEnv(env, settings.shell.passEnv) } };
	if (!names) return createCodingTools(cwd, options).map(withRedactedResults);
	const all = createAllTools(cwd, options) as Record<string, AgentTool>;
	return names.map((name) => {
		const tool = all[name];
		if (!tool) throw new Error(`Unknown tool "${name}" (known: ${toolNames.join(", ")})`);
		return withRedactedResults(tool);
	});
}

/** Builds a session: settings, model, tools, system prompt, and the transcript to resume. */
export async function createAgentSession(options: CreateAgentSessionOptions): Promise<AgentSession> {
	const env = options.env ?? process.env;
	const cwd = resolve(options.cwd);
	const settings = options.settings ?? loadSettings({ cwd, env });
	const notices: string[] = [];
	const mode = options.sessionMode;
	const loaded = loadChosenSession(mode, cwd, env, notices);
	const model = await chooseModel(options, loaded, settings);
	const permissions = sessionPermissions(options, cwd, env);
	notices.push(...permissions.notices);

	const commands = loadCustomCommands({ cwd, env, reserved: slashCommands.map((c) => c.name) });
	const skills = loadSkills({ cwd, env });
	const mcp = loadMcpConfig({ cwd, env });
	notices.push(...commands.warnings, ...skills.warnings, ...mcp.warnings);

	// The tools exist before the session; edit/write reach its checkpoints through this forwarder.
	const beforeMutate: MutationForwarder = { target: undefined };
	return new AgentSession({
		cwd,
		env,
		settings,
		beforeMutate,
		model,
		thinkingLevel: options.thinkingLevel ?? loaded?.thinkingLevel ?? settings.defaultThinkingLevel ?? "off",
		tools: sessionTools(options.tools, { cwd, env, settings, permissions, beforeMutate }),
		permissions,
		systemPrompt: options.systemPrompt,
		appendSystemPrompt: options.appendSystemPrompt,
		persist: mode.kind !== "none",
		registry: options.registry,
		apiKey: options.apiKey,
		streamFn: options.streamFn,
		loaded,
		fork: (mode.kind === "continue" || mode.kind === "file") && mode.fork === true,
		notices,
		customCommands: commands.commands,
		skills: skills.skills,
		mcp,
	});
}

/** The session file `mode` asks for, loaded (its warnings added to `notices`); undefined for a new one. */
function loadChosenSession(mode: SessionMode, cwd: string, env: Env, notices: string[]): LoadedSession | undefined {
	let loaded: LoadedSession | undefined;
	if (mode.kind === "continue") {
		loaded = loadLatest(cwd, env, notices);
		if (!loaded) notices.push("No earlier session in this folder: starting a new one");
	} else if (mode.kind === "file") {
		loaded = loadSession(resolve(cwd, mode.path));
	}
	if (loaded) notices.push(...loaded.warnings);
	return loaded;
}

/** The model named by the caller, else the one the session used, the settings' default, the first available, the demo. */
async function chooseModel(options: CreateAgentSessionOptions, loaded: LoadedSession | undefined, settings: Settings): Promise<Model> {
	const recorded = loaded?.model;
	return (
		options.model ??
		(recorded && options.registry?.find(`${recorded.provider}/${recorded.modelId}`)) ??
		(settings.defaultModel ? options.registry?.find(settings.defaultModel) : undefined) ??
		options.registry?.getAvailable()[0] ??
		(await import("../ai/providers/demo.js")).registerDemoProvider()
	);
}

/** The permission set-up of `cwd` (or the caller's), with a mode from a flag over the settings' one. */
function sessionPermissions(options: CreateAgentSessionOptions, cwd: string, env: Env): SessionPermissions {
	const setup = options.permissions ?? loadPermissionSetup({ cwd, env });
	if (options.permissionMode) {
		setup.resolved.policy = { ...setup.resolved.policy, mode: options.permissionMode };
		setup.resolved.yoloChosen = options.permissionMode === "yolo";
	}
	return new SessionPermissions({ cwd, env, setup, channel: options.approvals ?? "print", sandboxFactory: options.sandboxFactory });
}

/** The chosen tools, wired to the permission gate and, through `beforeMutate`, the session's checkpoints. */
function sessionTools(
	names: CreateAgentSessionOptions["tools"],
	c: { cwd: string; env: Env; settings: Settings; permissions: SessionPermissions; beforeMutate: MutationForwarder },
) {
	const { permissions, beforeMutate } = c;
	return pickTools(
		c.cwd,
		names,
		{
			beforeMutate: (path) => beforeMutate.target?.(path) ?? Promise.resolve(),
			bash: { wrapSpawn: permissions.wrapSpawn },
			deniedPaths: permissions.deniedPaths,
			checkedPath: (id) => permissions.gate.takeCheckedPath(id),
		},
		c.env,
		c.settings,
	);
}

/**
 * The session of `cwd` used last (else the newest) that loads; one that does not is named in a notice
 * and passed over.
 */
function loadLatest(cwd: string, env: Env, notices: string[]): LoadedSession | undefined {
	for (const info of sessionsByLastUse(cwd, env)) {
		try {
			return loadSession(info.path);
		} catch (error) {
			notices.push(`Skipped the session ${info.path}: ${errorText(error)}`);
		}
	}
	return undefined;
}

/** Late binding of edit/write's `beforeMutate` to the session's checkpoints. */
interface MutationForwarder {
	target?: (absolutePath: string) => Promise<void>;
}

interface AgentSessionConfig {
	cwd: string;
	env: Env;
	settings: Settings;
	beforeMutate?: MutationForwarder;
	model: Model;
	thinkingLevel: ThinkingLevel;
	tools: AgentTool[];
	systemPrompt?: string;
	appendSystemPrompt?: string;
	persist: boolean;
	registry?: SessionModelRegistry;
	apiKey?: string;
	streamFn?: StreamFn;
	loaded?: LoadedSession;
	/** Continue `loaded` in a new file holding a copy of it. */
	fork?: boolean;
	notices: string[];
	/** Markdown commands from the commands folders (see src/extensions/custom-commands.ts). */
	customCommands?: CustomCommand[];
	/** Skills listed in the system prompt (see src/extensions/skills.ts). */
	skills?: Skill[];
	/** MCP servers; they start on `startMcpServers` (see src/extensions/mcp/). */
	mcp?: LoadedMcpConfig;
	permissions: SessionPermissions;
}

export class AgentSession implements AgentSessionApi, SlashCommandHost {
	readonly agent: Agent;
	readonly cwd: string;
	readonly settings: Settings;
	/** Set by `/quit`; modes stop when they see it (or the `quit` event). */
	quitRequested = false;

	private readonly env: Env;
	private readonly registry?: SessionModelRegistry;
	private readonly apiKeyOverride?: { provider: string; key: string };
	private readonly baseStreamFn: StreamFn;
	private readonly persist: boolean;
	private readonly listeners = new Set<(event: SessionEvent) => void>();
	/** Notices from before anyone subscribed (resume warnings), delivered to the first subscriber. */
	private readonly earlyNotices: SessionEvent[] = [];
	/** `watchPhases` callers: they see phase changes without being a subscriber (no early notices). */
	private readonly phaseWatchers = new Set<(phase: RunPhase) => void>();
	private readonly customCommands: ReadonlyMap<string, CustomCommand>;
	private readonly permissions: SessionPermissions;
	/** What the system prompt is built from; rebuilt when the permission mode changes. */
	private readonly promptInput: SystemPromptInput;
	private readonly loadedSkills: readonly Skill[];
	private readonly builtInTools: AgentTool[];
	private readonly mcp?: McpManager;
	private readonly streamRedaction = new StreamRedaction();

	/** The session file; absent with --no-session. */
	private log?: SessionLog;
	/** Checkpoints and the tree moves built on them (src/session/rewind.ts). */
	readonly rewind: SessionRewind;
	private sessionName?: string;
	private sessionId = "";

	/** What the user typed for each queued message (the queues themselves are the Agent's). */
	private readonly typedText = new WeakMap<AgentMessage, string>();
	/** `!cmd` outputs from while a run was active; they join the transcript when it ends. */
	private pendingShell: ShellOutputMessage[] = [];
	/** Running `!cmd`s, stopped by `abort()`. */
	private shells = new Set<AbortController>();
	private shellCount = 0;
	private totals: SessionTotals = zeroTotals();
	private contextTokens = 0;
	/** The run phase, derived in one place from what starts and ends. */
	private readonly phases: RunPhaseBox;
	private compacting?: AbortController;
	private compactionDone: Promise<void> = Promise.resolve();
	private queuedWhileCompacting = false;

	constructor(config: AgentSessionConfig) {
		this.cwd = config.cwd;
		this.env = config.env;
		this.settings = config.settings;
		this.registry = config.registry;
		this.persist = config.persist;
		if (config.apiKey) {
			this.apiKeyOverride = { provider: config.model.provider, key: config.apiKey };
			processSecrets.add(config.apiKey);
		}
		this.baseStreamFn = config.streamFn ?? streamSimple;
		const tools = config.tools;
		this.builtInTools = tools;
		this.permissions = config.permissions;
		this.customCommands = new Map((config.customCommands ?? []).map((c) => [c.name, c]));
		// The model reads a skill's body with `read`; without that tool a listed skill would be a dead end.
		this.loadedSkills = tools.some((t) => t.name === "read") ? (config.skills ?? []) : [];
		this.promptInput = {
			cwd: this.cwd,
			tools,
			skills: formatSkillsForPrompt(this.loadedSkills),
			contextFiles: loadContextFiles({ cwd: this.cwd, env: this.env, trusted: config.permissions.projectTrusted, notices: config.notices }),
			customPrompt: config.systemPrompt,
			appendSystemPrompt: config.appendSystemPrompt,
		};
		this.agent = new Agent({
			initialState: {
				systemPrompt: this.promptWithPermissions(),
				model: config.model,
				thinkingLevel: clampThinking(config.model, config.thinkingLevel),
				tools,
			},
			convertToLlm,
			streamFn: this.streamWithSettings,
			getApiKey: (provider) => this.apiKeyFor(provider),
			steeringMode: this.settings.steeringMode,
			followUpMode: this.settings.followUpMode,
			onListenerError: (error) => this.notify("error", `Listener failed: ${errorText(error)}`),
			beforeToolCall: this.permissions.gate.beforeToolCall,
			afterToolCall: this.permissions.gate.afterToolCall,
		});
		this.phases = new RunPhaseBox(
			() => this.agent.state.isStreaming,
			(phase) => {
				this.emit({ type: "phase_changed", phase });
				for (const watcher of this.phaseWatchers) watcher(phase);
			},
		);
		this.permissions.attach(
			(event) => this.emit(event),
			() => {
				this.agent.state.systemPrompt = this.promptWithPermissions();
			},
			(toolCall, ask) => this.awaitApproval(toolCall, ask),
		);
		// Synchronous on purpose: the Agent then adds no microtask per streamed token.
		this.agent.subscribe((event) => this.onAgentEvent(event));
		if (config.mcp && config.mcp.servers.length > 0) {
			this.mcp = new McpManager({
				servers: config.mcp.servers,
				trust: config.mcp.trust,
				cwd: this.cwd,
				env: this.env,
				notify: (level, text) => this.notify(level, text),
				// A run works on its own copy of the tools, so a change mid-run applies from the next run.
				onToolsChanged: () => {
					// The same redactor as the built-in tools: results, updates and thrown errors (a server's own message).
					this.agent.state.tools = [...this.builtInTools, ...(this.mcp?.tools() ?? []).map(withRedactedResults)];
				},
			});
			this.mcp.setSettingsPath(globalSettingsPath(this.env));
		}
		if (config.loaded) this.adoptLoaded(config.loaded, config.fork === true);
		else this.startFreshFile();
		this.rewind = new SessionRewind(this.rewindHost, { env: this.env, enabled: this.persist && this.settings.checkpoints !== false });
		if (config.beforeMutate) config.beforeMutate.target = this.rewind.beforeMutate;
		for (const text of config.notices) this.notify("warning", text);
	}

	// ---- AgentSessionApi: state and events -------------------------------------------------------

	getState(): SessionState {
		const s = this.agent.state;
		return {
			cwd: this.cwd,
			model: s.model,
			thinkingLevel: s.thinkingLevel,
			messages: s.messages,
			phase: this.phases.phase,
			isStreaming: this.phases.runActive,
			streamingMessage: s.streamingMessage,
			pendingToolCalls: s.pendingToolCalls,
			errorMessage: s.errorMessage,
			...this.queuedTexts(),
			totals: { ...this.totals },
			contextTokens: this.contextTokens,
			contextWindow: s.model.contextWindow,
			sessionFile: this.log?.path,
			sessionId: this.sessionId,
			...(this.sessionName !== undefined ? { sessionName: this.sessionName } : {}),
			isCompacting: this.compacting !== undefined,
			mcpServers: this.mcp?.servers() ?? [],
			permissionMode: this.permissions.mode,
			sandbox: this.permissions.sandboxState(),
			pendingApproval: this.permissions.pendingApproval,
		};
	}

	// ---- Permissions ---------------------------------------------------------------------------

	private promptWithPermissions(): string {
		return buildSystemPrompt({ ...this.promptInput, permissions: this.permissions.promptSection() });
	}

	setPermissionMode(mode: PermissionMode): void {
		this.permissions.setMode(mode);
	}

	permissionDetails() {
		return { ...this.permissions.gate.rules, workspace: this.permissions.gate.workspace };
	}

	cyclePermissionMode(): PermissionMode {
		return this.permissions.cycleMode();
	}

	respondToApproval(id: string, response: ApprovalResponse): boolean {
		return this.permissions.respond(id, response);
	}

	watchPhases(watcher: (phase: RunPhase) => void): () => void {
		this.phaseWatchers.add(watcher);
		return () => {
			this.phaseWatchers.delete(watcher);
		};
	}

	subscribe(listener: (event: SessionEvent) => void): () => void {
		this.listeners.add(listener);
		if (this.earlyNotices.length > 0) {
			const early = this.earlyNotices.splice(0);
			queueMicrotask(() => {
				for (const event of early) this.emit(event);
			});
		}
		return () => {
			this.listeners.delete(listener);
		};
	}

	private emit(event: SessionEvent): void {
		if (this.listeners.size === 0) {
			if (event.type === "notice") this.earlyNotices.push(event);
			return;
		}
		for (const listener of this.listeners) {
			try {
				listener(event);
			} catch (error) {
				// Reported to the others; a notice that itself throws is not reported again (no loop).
				if (event.type === "notice") continue;
				this.notify("error", `A session listener failed on ${event.type}: ${errorText(error)}`);
			}
		}
	}

	notify(level: "info" | "warning" | "error", text: string): void {
		// Notices quote errors, files and servers; every UI and mode shows them.
		this.emit({ type: "notice", level, text: redactSecrets(text) });
	}

	// ---- Input ---------------------------------------------------------------------------------

	private get busy(): boolean {
		return this.phases.phase.kind !== "idle";
	}

	/**
	 * Runs `ask` (a tool call's approval prompt, from a `beforeToolCall` hook) with the phase
	 * `awaiting-approval` while it is pending; back to `running` when it settles or throws.
	 */
	async awaitApproval<T>(toolCall: { id: string; name: string }, ask: () => Promise<T>): Promise<T> {
		const pending = { toolCallId: toolCall.id, toolName: toolCall.name };
		this.phases.approvalStarted(pending);
		try {
			return await ask();
		} finally {
			this.phases.approvalEnded(pending);
		}
	}

	async submit(text: string, options: SubmitOptions = {}): Promise<SubmitOutcome> {
		const line = text.trim();
		if (!line && !options.images?.length) return { kind: "ignored" };
		const custom = line.startsWith("/") ? this.expandCustomCommand(line) : undefined;
		if (line.startsWith("/") && custom === undefined) {
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
		// A custom command's prompt is sent in place of the line; the line is what Esc puts back.
		const expanded = expandAttachments(custom ?? text, this.cwd);
		for (const warning of expanded.warnings) this.notify("warning", warning);
		const images = [...(options.images ?? []), ...expanded.images];
		if (this.busy) {
			const message = userMessage(expanded.text, images);
			if (options.as === "followUp") {
				this.enqueue("followUp", message, text);
				return { kind: "queued_follow_up" };
			}
			this.enqueue("steer", message, text);
			return { kind: "steered" };
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
		const keyProblem = this.registry?.keyProblem?.(this.agent.state.model.provider);
		if (keyProblem) throw new Error(`No key for ${this.agent.state.model.provider}: ${formatConfigProblem(keyProblem)}`);
		await this.runAgent(async () => {
			await this.mcpReady();
			await this.rewind.beforePrompt();
			await this.agent.prompt(text, images);
		});
		await this.rewind.afterRun();
	}

	// ---- MCP servers ---------------------------------------------------------------------------

	/**
	 * Starts the trusted MCP servers in the background (once). The interactive mode calls this after the
	 * first frame once the keyboard rests (src/modes/input-rest.ts); the others at start. A prompt
	 * before it starts them itself.
	 */
	startMcpServers(mode: McpStartMode = "headless"): void {
		this.mcp?.start(mode);
	}

	/** Servers still starting hold the request a few seconds at most, so their tools are offered. */
	private async mcpReady(): Promise<void> {
		if (!this.mcp) return;
		this.mcp.start("headless");
		await this.mcp.whenReady();
	}

	mcpTrustRequest(): McpTrustRequest | undefined {
		return this.mcp?.trustRequest();
	}

	mcpServers(): readonly McpServerInfo[] {
		return this.mcp?.servers() ?? [];
	}

	/** Answers the trust question for the project's servers; returns the names it applied to. */
	answerMcpTrust(allow: boolean): string[] {
		return this.mcp?.answerTrust(allow) ?? [];
	}

	steer(text: string, images?: ImageContent[]): void {
		if (isLoginCommand(text)) throw new Error(LOGIN_NOT_QUEUED);
		this.enqueue("steer", userMessage(text, images), text);
	}

	followUp(text: string, images?: ImageContent[]): void {
		if (isLoginCommand(text)) throw new Error(LOGIN_NOT_QUEUED);
		this.enqueue("followUp", userMessage(text, images), text);
	}

	/** The prompt of a custom `/command` line, or undefined when the line names no custom command. */
	expandCustomCommand(line: string): string | undefined {
		const parsed = parseSlashCommand(line);
		const command = parsed && this.customCommands.get(parsed.name);
		return command && parsed ? expandCommand(command.template, parsed.args) : undefined;
	}

	private enqueue(kind: "steer" | "followUp", message: UserMessage, text: string): void {
		this.typedText.set(message, text);
		if (kind === "steer") this.agent.steer(message);
		else this.agent.followUp(message);
		// While compacting no run is there to drain the queue; the compaction starts one when it ends.
		if (this.compacting) this.queuedWhileCompacting = true;
		this.emitQueue();
	}

	abort(): void {
		this.agent.abort();
		this.compacting?.abort();
		for (const shell of this.shells) shell.abort();
	}

	takeQueuedMessages(): { steering: string[]; followUp: string[] } {
		const taken = this.queuedTexts();
		this.agent.clearAllQueues();
		this.emitQueue();
		return taken;
	}

	/** The Agent's queues as the user typed them, oldest first. */
	private queuedTexts(): { steering: string[]; followUp: string[] } {
		const queued = this.agent.getQueuedMessages();
		const text = (m: AgentMessage) => this.typedText.get(m) ?? messageText(m);
		return { steering: queued.steering.map(text), followUp: queued.followUp.map(text) };
	}

	async waitForIdle(): Promise<void> {
		// A run may be followed by a compaction and that by a retry run, so wait until neither is left.
		while (this.busy) {
			await this.agent.waitForIdle();
			await this.compactionDone;
			if (this.phases.runActive && !this.agent.state.isStreaming) await new Promise((r) => setImmediate(r));
		}
		await this.rewind.settled();
	}

	private emitQueue(): void {
		this.emit({ type: "queue_update", ...this.queuedTexts() });
	}

	// ---- Runs ----------------------------------------------------------------------------------

	/** Streams one run, then checks overflow and the compaction threshold. */
	private async runAgent(start: () => Promise<void>, overflowRetried = false): Promise<void> {
		this.phases.setRunning(true);
		try {
			await start();
		} finally {
			this.phases.setRunning(false);
			this.flushPendingShell();
		}
		const last = this.agent.state.messages.at(-1);
		if (!overflowRetried && last?.role === "assistant" && last.stopReason === "error" && isContextOverflowError(last.errorMessage)) {
			// The failed reply stays in the file; the context drops it so the retry ends on the user's turn.
			this.agent.replaceMessages(this.agent.state.messages.slice(0, -1));
			// Busy from the failure through the retry, so waitForIdle and submit see one stretch of work.
			this.phases.setRunning(true);
			try {
				if (await this.tryCompact("overflow")) await this.runAgent(() => this.agent.continue(), true);
			} finally {
				this.phases.setRunning(false);
			}
			return;
		}
		if (shouldCompact(this.contextTokens, this.agent.state.model.contextWindow, this.settings.compaction)) {
			await this.tryCompact("threshold");
		}
	}

	/** Runs a `!cmd` (rpc `bash`): its output joins the context unless `excluded`, after the run when one is active. */
	async runShell(command: string, excluded = false): Promise<UserShellResult> {
		const id = ++this.shellCount;
		const controller = new AbortController();
		this.shells.add(controller);
		this.emit({ type: "user_shell_start", id, command, excluded });
		let result: Awaited<ReturnType<typeof runUserShell>>;
		try {
			result = await runUserShell(command, this.cwd, controller.signal);
		} finally {
			this.shells.delete(controller);
		}
		const { exitCode, aborted } = result;
		const output = redactSecrets(result.output);
		this.emit({ type: "user_shell", id, command, output, exitCode, aborted, excluded });
		if (excluded) return result;
		const message: ShellOutputMessage = { role: "shellOutput", command, output, exitCode, timestamp: Date.now() };
		if (aborted) message.aborted = true;
		// A run works on its own copy of the context; adding to the transcript mid-run would interleave.
		if (this.busy) this.pendingShell.push(message);
		else this.appendToTranscript(message);
		return result;
	}

	/** Stops running `!cmd`s (and what they started), leaving the agent's run alone. */
	abortShells(): void {
		for (const shell of this.shells) shell.abort();
	}

	private flushPendingShell(): void {
		for (const message of this.pendingShell.splice(0)) this.appendToTranscript(message);
	}

	private appendToTranscript(message: AgentMessage): void {
		this.agent.appendMessage(message);
		this.syncToFile();
	}

	private onAgentEvent(event: AgentEvent): void {
		try {
			// A queued message the Agent has taken from its queue: the queue lines change.
			if (event.type === "message_start" && event.message.role === "user" && this.typedText.has(event.message)) this.emitQueue();
			else if (event.type === "message_end") {
				this.syncToFile();
				if (event.message.role === "assistant") this.addUsage(event.message);
			} else if (event.type === "agent_end") this.syncToFile();
		} catch (error) {
			// Persistence trouble (disk full) must not end the run; the user is told once per event.
			this.notify("error", `Could not save the session: ${errorText(error)}`);
		}
		this.emitRedacted(event);
		if (event.type === "message_update" || event.type === "message_end") this.phases.progressed();
		else if (event.type === "agent_start") this.phases.agentStart();
		else if (event.type === "agent_end") this.phases.agentEnd();
	}

	/** The message_update being redacted, for `emitRedactedUpdate`. */
	private redactingUpdate: Extract<AgentEvent, { type: "message_update" }> | undefined;

	/**
	 * Emits `redactingUpdate` with `assistantMessageEvent`, or the update itself when redaction left its
	 * event unchanged (the usual case): bound once, since a closure and a copy per token are garbage per token.
	 */
	private readonly emitRedactedUpdate = (assistantMessageEvent: AssistantMessageEvent): void => {
		const update = this.redactingUpdate as Extract<AgentEvent, { type: "message_update" }>;
		this.emit(assistantMessageEvent === update.assistantMessageEvent ? update : { ...update, assistantMessageEvent });
	};

	/** `event`, with a streamed reply's deltas redacted (see stream-redaction.ts). */
	private emitRedacted(event: AgentEvent): void {
		if (event.type === "message_start" && event.message.role === "assistant") this.streamRedaction.reset();
		if (event.type === "message_update") {
			this.redactingUpdate = event;
			this.streamRedaction.map(event.assistantMessageEvent, this.emitRedactedUpdate);
			return;
		}
		if (event.type === "message_end" && event.message.role === "assistant") {
			this.streamRedaction.flush(event.message, (assistantMessageEvent) =>
				this.emit({ type: "message_update", message: event.message, assistantMessageEvent }),
			);
		}
		this.emit(event);
	}

	private addUsage(message: Extract<AgentMessage, { role: "assistant" }>): void {
		const u = message.usage;
		this.totals.input += u.input;
		this.totals.output += u.output;
		this.totals.cacheRead += u.cacheRead;
		this.totals.cacheWrite += u.cacheWrite;
		this.totals.cost += u.cost.total;
		const used = u.totalTokens || u.input + u.output + u.cacheRead + u.cacheWrite;
		if (used > 0) this.contextTokens = used;
	}

	// ---- Persistence ---------------------------------------------------------------------------

	/** Writes transcript messages not yet in the file; each is one appended line. */
	private syncToFile(): void {
		this.log?.syncMessages(this.agent.state.messages);
	}

	private secrets = (): string[] => {
		const keys = this.apiKeyOverride ? [this.apiKeyOverride.key] : [];
		if (this.mcp) keys.push(...this.mcp.secrets());
		const provider = this.agent?.state.model.provider;
		const registryKey = provider ? this.registry?.getApiKey(provider) : undefined;
		if (registryKey) keys.push(registryKey);
		return keys;
	};

	private startFreshFile(parentSession?: string): void {
		this.sessionName = undefined;
		this.log?.close();
		this.log = this.persist ? SessionLog.create({ cwd: this.cwd, env: this.env, secrets: this.secrets, parentSession }) : undefined;
		this.sessionId = this.log?.header.id ?? randomUUID();
		this.totals = zeroTotals();
		this.contextTokens = 0;
		this.agent.sessionId = this.sessionId;
	}

	/**
	 * Continues a loaded file (or, with `fork`, a new file holding a copy of it). Throws if it is locked.
	 * With `keep`, that open log is the file's and only the transcript is replaced.
	 */
	private adoptLoaded(loaded: LoadedSession, fork: boolean, keep?: SessionLog): void {
		const options = { secrets: this.secrets };
		let log = keep;
		if (!keep) {
			// `keep`: the open log moved to another branch of its own file (a rewind); it stays open and locked.
			if (this.persist)
				log = fork ? SessionLog.fork(loaded, { ...options, cwd: this.cwd, env: this.env }) : SessionLog.open(loaded, options);
			this.log?.close();
			this.log = log;
		}
		this.sessionId = log?.header.id ?? loaded.header.id;
		this.sessionName = latestSessionName(loaded.entries);
		this.agent.sessionId = this.sessionId;
		this.agent.replaceMessages(repairTranscript(loaded.messages));
		const messages = this.agent.state.messages;
		log?.adopt(messages, loaded);
		// Totals cover the whole branch, compacted turns included: they were paid for.
		this.totals = zeroTotals();
		this.contextTokens = 0;
		for (const entry of loaded.branch) if (entry.type === "message" && entry.message.role === "assistant") this.addUsage(entry.message);
		if (loaded.branch.some((e) => e.type === "compaction")) this.contextTokens = estimateContext(messages);
	}

	// ---- Model and thinking --------------------------------------------------------------------

	async warmUp(): Promise<void> {
		// The first snapshot of a large tree takes a while: take it while the user types.
		this.rewind.start();
		await preloadApi(this.agent.state.model.api);
		// Node's HTTP client and the stream parsers, run once in memory: their first-use cost, off the first reply.
		// Loaded here, as the providers are: not at start-up.
		const { warmUpTransport } = await import("../ai/providers/warm-up.js");
		await warmUpTransport(this.agent.state.model);
	}

	async setModel(model: Model): Promise<void> {
		const s = this.agent.state;
		s.model = model;
		s.thinkingLevel = clampThinking(model, s.thinkingLevel);
		this.log?.appendModelChange(model.provider, model.id);
		this.emit({ type: "model_changed", model, thinkingLevel: s.thinkingLevel });
	}

	setThinkingLevel(level: ThinkingLevel): void {
		const s = this.agent.state;
		const next = clampThinking(s.model, level);
		if (next !== level)
			this.notify(
				"warning",
				s.model.reasoning
					? `${s.model.provider}/${s.model.id} does not support thinking level "${level}"; thinking: ${next}`
					: `${s.model.provider}/${s.model.id} does not support thinking; thinking stays off`,
			);
		s.thinkingLevel = next;
		this.log?.appendThinkingLevel(next);
		this.emit({ type: "model_changed", model: s.model, thinkingLevel: next });
	}

	availableModels(): Model[] {
		const current = this.agent.state.model;
		const models = this.registry?.getAvailable() ?? [];
		return models.some((m) => m.provider === current.provider && m.id === current.id) ? models : [current, ...models];
	}

	findModel(pattern: string): Model | undefined {
		return this.registry?.find(pattern) ?? this.availableModels().find((m) => `${m.provider}/${m.id}`.includes(pattern));
	}

	private apiKeyFor(provider: string): string | undefined {
		if (this.apiKeyOverride?.provider === provider) return this.apiKeyOverride.key;
		return this.registry?.getApiKey(provider);
	}

	/** The stream function with the retry settings applied to every call. */
	private readonly streamWithSettings: StreamFn = (model, context, options) =>
		this.baseStreamFn(model, context, {
			...options,
			maxRetries: this.settings.retry.enabled ? this.settings.retry.maxRetries : 0,
			onRetry: (retry, m) => {
				options?.onRetry?.(retry, m);
				this.phases.retrying(retry);
			},
		});

	login(provider: string, key: string): void {
		if (!this.registry) throw new Error("No model registry to store the key in");
		this.registry.setApiKey(provider, key);
	}

	// ---- Sessions ------------------------------------------------------------------------------

	commands(): SlashCommandInfo[] {
		const builtIn = slashCommands.map(({ name, description, args }) => ({ name, description, args }));
		const custom = [...this.customCommands.values()].map((c) => ({
			name: c.name,
			description: c.description,
			args: c.argumentHint,
			source: c.shadows ? `project command ${c.path}, shadows the global ${c.shadows}` : `${c.scope} command ${c.path}`,
		}));
		return [...builtIn, ...custom];
	}

	/** The markdown commands, with their files (rpc `get_commands`). */
	customCommandList(): readonly CustomCommand[] {
		return [...this.customCommands.values()];
	}

	skills(): readonly Skill[] {
		return this.loadedSkills;
	}

	listSessions(): SessionInfo[] {
		return listSessions(this.cwd, this.env);
	}

	/** A fresh session; `parentSession` is recorded in its header (pi's lineage tracking). */
	async newSession(options: { parentSession?: string } = {}): Promise<void> {
		await this.stopForSwitch();
		this.agent.reset();
		this.startFreshFile(options.parentSession);
		this.emit({ type: "session_changed", sessionFile: this.log?.path });
		this.emitQueue();
	}

	/**
	 * Switches to a saved session of this folder, by id prefix or file path. With `fork`, continues in a
	 * new file holding a copy (the way on when another process has the session open).
	 */
	async resumeSession(idPrefixOrPath: string, options: { fork?: boolean } = {}): Promise<void> {
		const looksLikePath = /[/\\]|\.jsonl$/.test(idPrefixOrPath);
		const path = looksLikePath ? resolve(this.cwd, idPrefixOrPath) : findSession(this.cwd, idPrefixOrPath, this.env).path;
		const loaded = loadSession(path);
		if (path === this.log?.path && !options.fork) throw new Error("That session is the one open now");
		await this.stopForSwitch();
		this.agent.reset();
		this.adoptLoaded(loaded, options.fork === true);
		for (const warning of loaded.warnings) this.notify("warning", warning);
		this.emit({ type: "session_changed", sessionFile: this.log?.path });
		this.emitQueue();
	}

	// ---- Forks (pi's rpc fork / clone / get_fork_messages; see session-fork.ts) ---------------------

	/** The current file as loaded now, with every transcript message written first. */
	private loadCurrent(what: string): LoadedSession {
		if (!this.log) throw new Error(`${what} needs a saved session (this one runs with --no-session)`);
		this.log.syncMessages(this.agent.state.messages);
		// A session with nothing written yet has no file: an empty branch then.
		if (!existsSync(this.log.path)) {
			return {
				path: this.log.path,
				header: this.log.header,
				entries: [],
				branch: [],
				leafId: null,
				messages: [],
				messageEntryIds: [],
				warnings: [],
			};
		}
		return loadSession(this.log.path);
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
		else await this.switchToCopy(kept);
		// The UI puts the prompt back in the input, as after a conversation rewind.
		this.emit({ type: "rewound", entryId, restore: "conversation", files: [], prompt: text, text });
		return { text };
	}

	/** Continues in a new session file holding a copy of the current branch (pi's `clone`). */
	async cloneSession(): Promise<void> {
		const current = this.loadCurrent("Cloning");
		if (current.branch.length === 0) await this.newSession({ parentSession: current.path });
		else await this.switchToCopy(currentBranch(current));
	}

	private async switchToCopy(entries: LoadedSession): Promise<void> {
		const copy = SessionLog.fork(entries, { cwd: this.cwd, env: this.env, secrets: this.secrets });
		// Written and let go: resuming takes the new file's lock like any other.
		copy.close();
		await this.resumeSession(copy.path);
	}

	/** Names the session (pi's `session_info` entry, so a resumed or forked session keeps it). */
	setSessionName(name: string): void {
		const trimmed = name.trim();
		if (!trimmed) throw new Error("A session name cannot be empty");
		this.sessionName = trimmed;
		this.log?.append({ type: "session_info", name: trimmed });
	}

	/** The id of the session-file entry holding `message`, once it is written. */
	entryIdOf(message: AgentMessage): string | undefined {
		return this.log?.entryIdOf(message);
	}

	private async stopForSwitch(): Promise<void> {
		this.abort();
		await this.waitForIdle();
		this.pendingShell = [];
	}

	exportMarkdown(file: string): string {
		const path = resolve(this.cwd, file);
		const model = this.agent.state.model;
		const markdown = exportMarkdown(this.agent.state.messages, { cwd: this.cwd, model: `${model.provider}/${model.id}` });
		writeExport(path, markdown);
		return path;
	}

	requestQuit(): void {
		this.quitRequested = true;
		this.emit({ type: "quit" });
	}

	// ---- Rewind --------------------------------------------------------------------------------

	private readonly rewindHost: RewindHost = {
		cwd: () => this.cwd,
		log: () => this.log,
		adoptBranch: (loaded) => {
			this.agent.reset();
			this.adoptLoaded(loaded, false, this.log);
			this.emit({ type: "session_changed", sessionFile: this.log?.path });
		},
		notify: (level, text) => this.notify(level, text),
		emitCheckpoint: (entryId, snapshot, engine) => this.emit({ type: "checkpoint_created", entryId, snapshot, engine }),
	};

	/**
	 * Restores code, conversation or both to just before the prompt `entryId` (a user-message entry of
	 * the current branch). Only when idle; a conversation restore starts a branch in the same file.
	 */
	async rewindTo(entryId: string, restore: RestoreWhat): Promise<RewindResult> {
		this.assertIdleFor("Rewind");
		const result = await this.rewind.rewind(entryId, restore);
		this.emit({ type: "rewound", ...result });
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
		this.emit({ type: "rewound", ...result });
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

	private async runCompaction(reason: CompactionReason, instructions?: string): Promise<void> {
		this.syncToFile();
		const messages = this.agent.state.messages;
		const cut = findCutIndex(messages, this.settings.compaction.keepRecentTokens);
		const controller = new AbortController();
		let finished!: () => void;
		this.compactionDone = new Promise((r) => {
			finished = r;
		});
		// Set before the start event, so a listener reading getState() sees it.
		this.compacting = controller;
		this.phases.compactionStarted(reason);
		this.emit({ type: "compaction_start", reason });
		try {
			if (cut === undefined) throw new Error("Nothing to compact yet: the conversation has a single user turn");
			const model = this.agent.state.model;
			const summary = await summarize({
				model,
				messages: messages.slice(0, cut),
				instructions,
				streamFn: this.streamWithSettings,
				apiKey: this.apiKeyFor(model.provider),
				signal: controller.signal,
			});
			const kept = messages.slice(cut);
			const tokensBefore = this.contextTokens || estimateContext(messages);
			const summaryMessage: CompactionSummaryMessage = { role: "compactionSummary", summary, tokensBefore, timestamp: Date.now() };
			this.log?.appendCompaction(summaryMessage, kept[0]);
			this.agent.replaceMessages([summaryMessage, ...kept]);
			this.contextTokens = estimateContext(this.agent.state.messages);
			this.emit({ type: "compaction_end", reason, summary });
		} catch (error) {
			this.emit({ type: "compaction_end", reason, error: errorText(error) });
			throw error;
		} finally {
			this.compacting = undefined;
			this.phases.compactionEnded();
			finished();
		}
		// Input typed during the compaction was queued with no run to drain it; send it now. (Messages
		// left queued by an abort stay queued: the user decides what happens to them.)
		const queuedDuring = this.queuedWhileCompacting;
		this.queuedWhileCompacting = false;
		if (reason !== "overflow" && queuedDuring && this.agent.hasQueuedMessages() && !this.busy) {
			void this.runAgent(() => this.agent.continue()).catch((error) => this.notify("error", errorText(error)));
		}
	}

	async dispose(): Promise<void> {
		this.abort();
		await this.waitForIdle();
		this.permissions.dispose();
		this.flushPendingShell();
		await this.mcp?.dispose();
		this.log?.close();
		this.listeners.clear();
	}
}

function latestSessionName(entries: readonly SessionEntry[]): string | undefined {
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i];
		if (entry.type === "session_info") return entry.name;
	}
	return undefined;
}

function clampThinking(model: Model, level: ThinkingLevel): ThinkingLevel {
	return model.reasoning ? level : "off";
}

function estimateContext(messages: readonly AgentMessage[]): number {
	return messages.reduce((sum, m) => sum + estimateTokens(m), 0);
}

function errorText(error: unknown): string {
	return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}
