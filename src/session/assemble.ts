// Builds a session from its parts, each given what it needs when it is made; nothing is attached
// later. The order below is the dependency graph. An approval's path, by reading:
//   1. the Agent's `beforeToolCall` is the gate's (`permissions.gate`, src/permissions/gate.ts), made
//      by `SessionPermissions` (session-permissions.ts) with the channel's `ask` for "prompt" sessions;
//   2. `ApprovalPrompts.ask` (approval-prompts.ts) holds the phase at awaiting-approval (`RunPhaseBox`)
//      and emits `approval_request` on `SessionEvents`;
//   3. the UI reads `getState().pendingApproval` (components/App.tsx, `useApprovalPrompt` in
//      components/app-hooks.ts) and answers with `AgentSession.respondToApproval` (rpc: rpc-commands.ts);
//   4. `ApprovalPrompts.respond` settles `ask` (`approval_end`), and the gate runs or blocks the call.
import { resolve } from "node:path";
import { Agent } from "../agent/index.js";
import type { AgentTool, StreamFn } from "../agent/types.js";
import type { Model, ThinkingLevel, Tool } from "../ai/index.js";
import { streamSimple } from "../ai/stream.js";
import { formatConfigProblem } from "../config/problems.js";
import { loadCustomCommands } from "../extensions/custom-commands.js";
import { loadHooks } from "../extensions/hooks/config.js";
import type { HookSession } from "../extensions/hooks/types.js";
import { UserHooks } from "../extensions/hooks/user-hooks.js";
import { type LoadedMcpConfig, loadMcpConfig, readMcpServers } from "../extensions/mcp/config.js";
import { formatSkillsForPrompt, loadSkills } from "../extensions/skills.js";
import { fetchHostNamed } from "../permissions/policy.js";
import type { PermissionMode } from "../permissions/types.js";
import { childEnv } from "../safety/child-env.js";
import { processSecrets } from "../safety/secrets.js";
import { BackgroundJobs, createAllTools, createCodingTools, type ToolsOptions, toolNames } from "../tools/index.js";
import { ProcessSlots } from "../tools/process-slots.js";
import type { CommandSandbox, SandboxSpec } from "../tools/sandbox.js";
import { findShell } from "../tools/shell.js";
import { AgentSession } from "./agent-session.js";
import { ApprovalPrompts } from "./approval-prompts.js";
import { CheckpointStore } from "./checkpoint-store.js";
import { CompactionRunner } from "./compaction-runner.js";
import { loadContextFiles } from "./context-files.js";
import { ElicitationPrompts } from "./elicitation-prompts.js";
import { ExtensionHost, offeredSkills } from "./extension-host.js";
import { InputQueue } from "./input-queue.js";
import { createExitPlanModeTool, toolsForMode } from "./plan/exit-plan-mode-tool.js";
import { PlanPrompts } from "./plan/plan-prompts.js";
import { RedactedAgentEvents } from "./redacted-agent-events.js";
import { withRedactedResults } from "./redacting-tools.js";
import { SessionRewind } from "./rewind.js";
import { RunPhaseBox } from "./run-phase.js";
import { errorText, SessionEvents } from "./session-events.js";
import { SessionFile } from "./session-file.js";
import { SessionHooks } from "./session-hooks.js";
import { SessionKeys, type SessionModelRegistry } from "./session-keys.js";
import { type LoadedSession, loadSession } from "./session-load.js";
import { convertToLlm } from "./session-messages.js";
import { clampThinking, SessionModels } from "./session-models.js";
import { type ApprovalChannel, loadPermissionSetup, type PermissionSetup, SessionPermissions } from "./session-permissions.js";
import { sessionsByLastUse } from "./session-store.js";
import { sessionAfterToolCall, sessionBeforeToolCall } from "./session-tool-gate.js";
import { SessionTranscript } from "./session-transcript.js";
import { loadSettings, type Settings } from "./settings.js";
import { slashCommands } from "./slash-commands.js";
import { loadAgentDefinitions } from "./subagents/agent-definitions.js";
import { SubAgents } from "./subagents/sub-agents.js";
import { agentsSection, createTaskTool } from "./subagents/task-tool.js";
import { buildSystemPrompt } from "./system-prompt.js";
import { TodoList, todoReminder } from "./todos/todo-list.js";
import { createTodoWriteTool } from "./todos/todo-write-tool.js";
import { UsageTotals } from "./usage-totals.js";
import { UserShells } from "./user-shells.js";
import { withWebSearchOffer } from "./web-search-offer.js";

type Env = Record<string, string | undefined>;

/** `fork`: continue in a new file holding a copy (for a session another process has open). */
export type SessionMode =
	| { kind: "new" }
	| { kind: "continue"; fork?: boolean }
	| { kind: "file"; path: string; fork?: boolean }
	| { kind: "none" };

export interface CreateAgentSessionOptions {
	cwd: string;
	/** Default: the settings' `defaultModel`, else the first available model of the registry. */
	model?: Model;
	/** Default: the resumed session's, else the settings', else "off". */
	thinkingLevel?: ThinkingLevel;
	/** Tool names (read, bash, edit, write, grep, find, ls). Default: read, bash, edit, write, grep, find. */
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
	/** Runs a bash call the user approved to run again outside the sandbox (ACP: the editor's terminal). */
	outsideBash?: AgentTool["execute"];
	/**
	 * MCP servers given by the client with the session (ACP's `session/new`), in the settings' shape: trusted
	 * (they are the client's own), over a configured server of the same name.
	 */
	mcpServers?: Record<string, unknown>;
	/** `--trust-project`: trust this folder's hooks as they are now (remembered, each command in full). */
	trustProjectHooks?: boolean;
}

/** Builds a session: settings, model, its parts in dependency order, and the transcript to resume. */
export async function createAgentSession(options: CreateAgentSessionOptions): Promise<AgentSession> {
	const env = options.env ?? process.env;
	const cwd = resolve(options.cwd);
	const settings = options.settings ?? loadSettings({ cwd, env });
	const notices: string[] = [];
	const mode = options.sessionMode;
	const loaded = loadChosenSession(mode, cwd, env, notices);
	const model = await chooseModel(options, loaded, settings);
	const commands = loadCustomCommands({ cwd, env, reserved: slashCommands.map((c) => c.name) });
	const skills = loadSkills({ cwd, env });
	const mcpConfig = withClientServers(loadMcpConfig({ cwd, env }), options.mcpServers, env);

	// The stream every part reports through, and the run phase derived from what starts and ends.
	const events = new SessionEvents();
	const phases = new RunPhaseBox(events.phaseChanged);
	// Before the tools: edit and write show each file to the store before changing it; and before what
	// runs commands (bash, hooks, `!cmd`), which waits for the snapshot of an edits-only rewind point.
	const persist = mode.kind !== "none";
	const checkpoints = new CheckpointStore({
		workspace: cwd,
		env,
		enabled: persist && settings.checkpoints !== false,
		notify: events.notify,
	});
	// The user's hooks (src/extensions/hooks): the gate asks PreToolUse, and an approval that waits is a Notification.
	const hooks = sessionHooks(options, {
		cwd,
		env,
		settings,
		events,
		notices,
		untrackedChangesMayStart: checkpoints.untrackedChangesMayStart,
		identity: () => ({
			sessionId: file.sessionId,
			transcriptPath: file.log?.path ?? "",
			cwd,
			permissionMode: permissions.mode,
		}),
	});
	// The gate and its channel: a call that needs a yes or no waits in `approvals` for the UI's answer.
	const approvals = new ApprovalPrompts({
		emit: (event) => {
			events.emit(event);
			if (event.type === "approval_request") hooks.notification(`Rudder needs your permission to use ${event.tool}`);
		},
		phases,
	});
	// What every command gets: the model's, background jobs and a command run again outside the sandbox.
	const commandEnv = childEnv(env, settings.shell.passEnv);
	const permissions = sessionPermissions(options, { cwd, env, commandEnv, ask: approvals.ask, toolHook: hooks.preToolUse });
	notices.push(...permissions.notices, ...commands.warnings, ...skills.warnings, ...mcpConfig.warnings);
	// Background jobs run like the model's other commands: sandbox wrapper, environment without credentials.
	const jobs = new BackgroundJobs(cwd, {
		wrapSpawn: permissions.wrapSpawn,
		env: commandEnv,
		// job_started / job_exited for json and rpc clients (the command is the model's, as in tool events).
		onEvent: (event) => events.emit(event),
	});
	const builtInTools = sessionTools(options.tools, { cwd, env, settings, permissions, checkpoints, jobs });
	const keys = new SessionKeys(options.registry, options.apiKey ? { provider: model.provider, key: options.apiKey } : undefined);
	const skillsOffered = offeredSkills(skills.skills, builtInTools);
	const agents = loadAgentDefinitions({ cwd, env, projectTrusted: permissions.projectTrusted });
	notices.push(...agents.warnings);
	const contextFiles = loadContextFiles({ cwd, env, trusted: permissions.projectTrusted, notices });
	// web_search as each request's model may have it: the provider's own once allowed (src/session/web-search-offer.ts);
	// and each request sends the tools the MCP tool search lets through (extension-host.ts, tool-search.ts) — the
	// host is built further down and is read only during a run.
	const searchable = withWebSearchOffer(withRetrySettings(options.streamFn ?? streamSimple, settings, phases), {
		allowed: () => permissions.gate.decide({ tool: "web_search", args: {} }).kind === "allow",
		endpoint: settings.webSearch?.searxngUrl !== undefined,
	});
	const streamFn = withToolView(searchable, (tools, model) => extensions.toolsForModel(tools, model.contextWindow));
	// Every agent of the session passes the same gate; the session's own tools pass it at once.
	const beforeToolCall = sessionBeforeToolCall(
		permissions.gate.beforeToolCall,
		checkpoints.untrackedChangesMayStart,
		(toolCallId, waiting) => events.emit({ type: "tool_waiting", toolCallId, waiting }),
	);
	const afterToolCall = sessionAfterToolCall(permissions.gate.afterToolCall);
	const usage = new UsageTotals();
	const plans = new PlanPrompts({ emit: events.emit, phases });
	// The closures below read the Agent and the session file, which are built further down: they run
	// only during a run (a tool call), by when both exist.
	const todos = new TodoList({
		save: (items) => file.saveTodos(items),
		changed: (items) => events.emit({ type: "todo_updated", todos: items }),
	});
	const subAgents: SubAgents = new SubAgents({
		model: () => agent.state.model,
		findModel: (spec) => options.registry?.find(spec),
		thinkingLevel: () => agent.state.thinkingLevel,
		systemPrompt: (definition, tools) =>
			buildSystemPrompt({ cwd, tools, contextFiles, customPrompt: definition.systemPrompt, permissions: permissions.promptSection() }),
		streamFn,
		getApiKey: keys.apiKeyFor,
		convertToLlm,
		beforeToolCall,
		afterToolCall,
		steeringMode: settings.steeringMode,
		followUpMode: settings.followUpMode,
		slots: new ProcessSlots(settings.tools.maxSubagents),
		emit: events.emit,
		addUsage: (message) => usage.addSpent(message),
		record: (info, message) => file.recordSubAgent(info, message),
		onListenerError: (error) => events.notify("error", `Listener failed: ${errorText(error)}`),
		stopHook: (round, agent, signal) => hooks.subagentStop(round, agent, signal),
	});
	const setPermissionMode = (mode: PermissionMode) => {
		permissions.setMode(mode);
		applyMode();
		events.emit({ type: "permissions_changed", mode });
	};
	const planTool = createExitPlanModeTool({
		mode: () => permissions.mode,
		...(permissions.canAsk ? { ask: (id: string, plan: string, signal?: AbortSignal) => plans.ask(id, plan, signal) } : {}),
		setMode: setPermissionMode,
	});
	// Offered in every mode; exit_plan_mode joins them in plan mode only (toolsForMode).
	const tools: AgentTool[] = [
		...builtInTools,
		createTaskTool({ definitions: agents.definitions, subAgents, sessionTools: () => agent.state.tools, depth: 1 }),
		createTodoWriteTool(todos),
	];
	const inMode = (all: readonly AgentTool[]) => toolsForMode(all, planTool, permissions.mode);
	const promptInput = {
		cwd,
		skills: formatSkillsForPrompt(skillsOffered),
		agents: agentsSection(agents.definitions),
		contextFiles,
		customPrompt: options.systemPrompt,
		appendSystemPrompt: options.appendSystemPrompt,
	};
	const systemPrompt = (): string => buildSystemPrompt({ ...promptInput, tools: inMode(tools), permissions: permissions.promptSection() });
	const applyMode = () => {
		agent.state.systemPrompt = systemPrompt();
		agent.state.tools = inMode(agent.state.tools);
	};
	const agent: Agent = new Agent({
		initialState: {
			systemPrompt: systemPrompt(),
			model,
			thinkingLevel: clampThinking(model, options.thinkingLevel ?? loaded?.thinkingLevel ?? settings.defaultThinkingLevel ?? "off"),
			tools: inMode(tools),
		},
		convertToLlm,
		streamFn,
		getApiKey: keys.apiKeyFor,
		steeringMode: settings.steeringMode,
		followUpMode: settings.followUpMode,
		onListenerError: (error) => events.notify("error", `Listener failed: ${errorText(error)}`),
		beforeToolCall,
		afterToolCall: hooks.withPostToolUse(async (ctx, signal) => (await afterToolCall(ctx, signal)) ?? undefined),
	});
	// MCP servers' questions wait for the user where one answers approvals; elsewhere they are declined.
	const elicitations = new ElicitationPrompts({ emit: events.emit, notify: events.notify, canAsk: () => permissions.canAsk, env });
	const extensions = new ExtensionHost({
		cwd,
		env,
		elicit: elicitations.handler,
		mcpSchemaPercent: settings.tools.mcpSchemaPercent,
		saveLoadedTools: (names) => file.saveMcpTools(names),
		customCommands: commands.commands,
		skills: skillsOffered,
		mcp: mcpConfig,
		builtInTools: tools,
		setTools: (all) => {
			agent.state.tools = inMode(all);
		},
		notify: events.notify,
	});
	// The session file, redacted of every key in use (the run's, the registry's, the MCP servers').
	const secrets = () => [...keys.secrets(agent.state.model.provider), ...extensions.secrets()];
	const file = new SessionFile({ cwd, env, persist, secrets });
	const transcript = new SessionTranscript({
		...{ agent, file, usage, todos, emit: events.emit },
		mcpTools: { restore: extensions.restoreLoadedTools },
	});
	if (loaded) transcript.adopt(loaded, (mode.kind === "continue" || mode.kind === "file") && mode.fork === true);
	else transcript.startFresh();
	const rewind = new SessionRewind({
		checkpoints,
		log: () => file.log,
		adoptBranch: transcript.adoptBranch,
		notify: events.notify,
		emitCheckpoint: (entryId, snapshot, engine) => events.emit({ type: "checkpoint_created", entryId, snapshot, engine }),
	});
	const compaction = new CompactionRunner({
		agent,
		settings,
		phases,
		emit: events.emit,
		streamFn,
		apiKeyFor: keys.apiKeyFor,
		file,
		usage,
		reminder: () => todoReminder(todos.items),
	});
	const queue = new InputQueue({ agent, emit: events.emit, compaction });
	const shells = new UserShells({
		...{ cwd, emit: events.emit, busy: () => phases.phase.kind !== "idle", append: transcript.append },
		untrackedChangesMayStart: checkpoints.untrackedChangesMayStart,
	});
	const models = new SessionModels({ agent, registry: options.registry, file, emit: events.emit, notify: events.notify });
	const session = new AgentSession({
		...{ cwd, env, settings, events, phases, hooks, approvals, permissions, checkpoints, keys },
		...{
			applyMode,
			setPermissionMode,
			streamFn,
			agent,
			models,
			elicitations,
			extensions,
			usage,
			file,
			transcript,
			rewind,
			compaction,
			queue,
			shells,
			jobs,
		},
		...{ agents: agents.definitions, subAgents, todos, plans },
		agentEvents: new RedactedAgentEvents(events.emit),
	});
	for (const text of notices) events.notify("warning", text);
	// Its context waits for the first prompt; the hooks run meanwhile.
	hooks.beginSession(loaded ? "resume" : "startup");
	return session;
}

/**
 * The user's hooks from the five settings files, with their trust (and `--trust-project`'s answer);
 * their problems and the project hooks that will not run join the start notices.
 */
function sessionHooks(
	options: CreateAgentSessionOptions,
	c: {
		cwd: string;
		env: Env;
		settings: Settings;
		events: SessionEvents;
		notices: string[];
		identity: () => HookSession;
		untrackedChangesMayStart: (signal: AbortSignal) => Promise<void>;
	},
): SessionHooks {
	const loaded = loadHooks({ cwd: c.cwd, env: c.env });
	c.notices.push(...loaded.problems.map(formatConfigProblem));
	const hooks = new UserHooks({
		hooks: loaded.hooks,
		cwd: c.cwd,
		env: c.env,
		shell: findShell(),
		passEnv: c.settings.shell.passEnv,
		onEvent: c.events.emit,
	});
	if (options.trustProjectHooks) hooks.answerTrust(true);
	const how =
		options.approvals === "prompt"
			? "Trust them with /hooks trust (remembered for this folder until a command changes), or /hooks deny."
			: "To run them, start rudder in this folder and answer /hooks trust, or pass --trust-project.";
	const session = new SessionHooks({
		...{ hooks, identity: c.identity, notify: c.events.notify },
		untrackedChangesMayStart: c.untrackedChangesMayStart,
	});
	const notice = session.skippedNotice(how);
	if (notice) c.notices.push(notice);
	return session;
}

/** The stream function with the retry settings applied to every call; a retry wait is a run phase. */
function withRetrySettings(base: StreamFn, settings: Settings, phases: RunPhaseBox): StreamFn {
	return (model, context, options) =>
		base(model, context, {
			...options,
			maxRetries: settings.retry.enabled ? settings.retry.maxRetries : 0,
			onRetry: (retry, m) => {
				options?.onRetry?.(retry, m);
				phases.retrying(retry);
			},
		});
}

/** The configured MCP servers with the client's (ACP) added, trusted; their secrets masked everywhere from now on. */
function withClientServers(config: LoadedMcpConfig, given: Record<string, unknown> | undefined, env: Env): LoadedMcpConfig {
	if (!given || Object.keys(given).length === 0) return config;
	const { servers, problems } = readMcpServers(given, "the client's session request", "editor", env);
	for (const server of servers) for (const secret of server.secrets) processSecrets.add(secret);
	const names = new Set(servers.map((s) => s.name));
	return {
		...config,
		servers: [...config.servers.filter((s) => !names.has(s.name)), ...servers],
		warnings: [...config.warnings, ...problems.map((p) => `${p} (that server was not started)`)],
	};
}

/** The stream function with the tools of each request passed through `view` first. */
function withToolView(base: StreamFn, view: (tools: Tool[], model: Model) => Tool[]): StreamFn {
	return (model, context, options) => base(model, context.tools ? { ...context, tools: view(context.tools, model) } : context, options);
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
function sessionPermissions(
	options: CreateAgentSessionOptions,
	parts: { cwd: string; env: Env; commandEnv: Record<string, string>; ask: ApprovalPrompts["ask"]; toolHook: SessionHooks["preToolUse"] },
): SessionPermissions {
	const setup = options.permissions ?? loadPermissionSetup({ cwd: parts.cwd, env: parts.env });
	if (options.permissionMode) {
		setup.resolved.policy = { ...setup.resolved.policy, mode: options.permissionMode };
		setup.resolved.yoloChosen = options.permissionMode === "yolo";
		setup.resolved.modeChosen = true;
	}
	const channel = options.approvals ?? "print";
	return new SessionPermissions({ ...parts, setup, channel, sandboxFactory: options.sandboxFactory, outsideBash: options.outsideBash });
}

/** The chosen tools, wired to the permission gate and the checkpoint store; commands run without credentials. */
function sessionTools(
	names: string[] | undefined,
	c: { cwd: string; env: Env; settings: Settings; permissions: SessionPermissions; checkpoints: CheckpointStore; jobs: BackgroundJobs },
): AgentTool[] {
	const { permissions } = c;
	const options: ToolsOptions = {
		beforeMutate: c.checkpoints.beforeMutate,
		jobs: c.jobs,
		// See src/safety/child-env.ts: the model's commands never see the user's keys.
		bash: { wrapSpawn: permissions.wrapSpawn, env: childEnv(c.env, c.settings.shell.passEnv) },
		deniedPaths: permissions.deniedPaths,
		linkedReads: permissions.linkedReads,
		checkedPath: (id) => permissions.gate.takeCheckedPath(id),
		webFetch: {
			maxBytes: c.settings.tools.webFetchMaxBytes,
			timeoutMs: c.settings.tools.webFetchTimeoutSeconds && c.settings.tools.webFetchTimeoutSeconds * 1000,
			// Private and loopback addresses only for a host an allow rule names (not a wildcard).
			hostAllowed: (host) => fetchHostNamed(permissions.gate.rules.allow, host),
		},
		webSearch: { searxngUrl: c.settings.webSearch?.searxngUrl },
	};
	if (!names) return createCodingTools(c.cwd, options).map(withRedactedResults);
	const all = createAllTools(c.cwd, options) as Record<string, AgentTool>;
	return names.map((name) => {
		const tool = all[name];
		if (!tool) throw new Error(`Unknown tool "${name}" (known: ${toolNames.join(", ")})`);
		return withRedactedResults(tool);
	});
}
