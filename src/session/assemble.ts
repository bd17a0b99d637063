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
import type { Model, ThinkingLevel } from "../ai/index.js";
import { streamSimple } from "../ai/stream.js";
import { loadCustomCommands } from "../extensions/custom-commands.js";
import { loadMcpConfig } from "../extensions/mcp/config.js";
import { formatSkillsForPrompt, loadSkills } from "../extensions/skills.js";
import type { PermissionMode } from "../permissions/types.js";
import { childEnv } from "../safety/child-env.js";
import { createAllTools, createCodingTools, type ToolsOptions, toolNames } from "../tools/index.js";
import type { CommandSandbox, SandboxSpec } from "../tools/sandbox.js";
import { AgentSession } from "./agent-session.js";
import { ApprovalPrompts } from "./approval-prompts.js";
import { CheckpointStore } from "./checkpoint-store.js";
import { CompactionRunner } from "./compaction-runner.js";
import { loadContextFiles } from "./context-files.js";
import { ExtensionHost, offeredSkills } from "./extension-host.js";
import { InputQueue } from "./input-queue.js";
import { RedactedAgentEvents } from "./redacted-agent-events.js";
import { withRedactedResults } from "./redacting-tools.js";
import { SessionRewind } from "./rewind.js";
import { RunPhaseBox } from "./run-phase.js";
import { errorText, SessionEvents } from "./session-events.js";
import { SessionFile } from "./session-file.js";
import { SessionKeys, type SessionModelRegistry } from "./session-keys.js";
import { type LoadedSession, loadSession } from "./session-load.js";
import { convertToLlm } from "./session-messages.js";
import { clampThinking, SessionModels } from "./session-models.js";
import { type ApprovalChannel, loadPermissionSetup, type PermissionSetup, SessionPermissions } from "./session-permissions.js";
import { sessionsByLastUse } from "./session-store.js";
import { SessionTranscript } from "./session-transcript.js";
import { loadSettings, type Settings } from "./settings.js";
import { slashCommands } from "./slash-commands.js";
import { buildSystemPrompt } from "./system-prompt.js";
import { UsageTotals } from "./usage-totals.js";
import { UserShells } from "./user-shells.js";

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
	const mcpConfig = loadMcpConfig({ cwd, env });

	// The stream every part reports through, and the run phase derived from what starts and ends.
	const events = new SessionEvents();
	const phases = new RunPhaseBox(events.phaseChanged);
	// The gate and its channel: a call that needs a yes or no waits in `approvals` for the UI's answer.
	const approvals = new ApprovalPrompts({ emit: events.emit, phases });
	const permissions = sessionPermissions(options, { cwd, env, ask: approvals.ask });
	notices.push(...permissions.notices, ...commands.warnings, ...skills.warnings, ...mcpConfig.warnings);
	// Before the tools: edit and write show each file to the store before changing it.
	const persist = mode.kind !== "none";
	const checkpoints = new CheckpointStore({
		workspace: cwd,
		env,
		enabled: persist && settings.checkpoints !== false,
		notify: events.notify,
	});
	const tools = sessionTools(options.tools, { cwd, env, settings, permissions, checkpoints });
	const keys = new SessionKeys(options.registry, options.apiKey ? { provider: model.provider, key: options.apiKey } : undefined);
	const skillsOffered = offeredSkills(skills.skills, tools);
	const promptInput = {
		cwd,
		tools,
		skills: formatSkillsForPrompt(skillsOffered),
		contextFiles: loadContextFiles({ cwd, env }),
		customPrompt: options.systemPrompt,
		appendSystemPrompt: options.appendSystemPrompt,
	};
	const systemPrompt = () => buildSystemPrompt({ ...promptInput, permissions: permissions.promptSection() });
	const streamFn = withRetrySettings(options.streamFn ?? streamSimple, settings, phases);
	const agent = new Agent({
		initialState: {
			systemPrompt: systemPrompt(),
			model,
			thinkingLevel: clampThinking(model, options.thinkingLevel ?? loaded?.thinkingLevel ?? settings.defaultThinkingLevel ?? "off"),
			tools,
		},
		convertToLlm,
		streamFn,
		getApiKey: keys.apiKeyFor,
		steeringMode: settings.steeringMode,
		followUpMode: settings.followUpMode,
		onListenerError: (error) => events.notify("error", `Listener failed: ${errorText(error)}`),
		beforeToolCall: permissions.gate.beforeToolCall,
		afterToolCall: permissions.gate.afterToolCall,
	});
	const extensions = new ExtensionHost({
		cwd,
		env,
		customCommands: commands.commands,
		skills: skillsOffered,
		mcp: mcpConfig,
		builtInTools: tools,
		setTools: (all) => {
			agent.state.tools = all;
		},
		notify: events.notify,
	});
	// The session file, redacted of every key in use (the run's, the registry's, the MCP servers').
	const secrets = () => [...keys.secrets(agent.state.model.provider), ...extensions.secrets()];
	const file = new SessionFile({ cwd, env, persist, secrets });
	const usage = new UsageTotals();
	const transcript = new SessionTranscript({ agent, file, usage, emit: events.emit });
	if (loaded) transcript.adopt(loaded, (mode.kind === "continue" || mode.kind === "file") && mode.fork === true);
	else transcript.startFresh();
	const rewind = new SessionRewind({
		checkpoints,
		log: () => file.log,
		adoptBranch: transcript.adoptBranch,
		notify: events.notify,
		emitCheckpoint: (entryId, snapshot, engine) => events.emit({ type: "checkpoint_created", entryId, snapshot, engine }),
	});
	const compaction = new CompactionRunner({ agent, settings, phases, emit: events.emit, streamFn, apiKeyFor: keys.apiKeyFor, file, usage });
	const queue = new InputQueue({ agent, emit: events.emit, compaction });
	const shells = new UserShells({ cwd, emit: events.emit, busy: () => phases.phase.kind !== "idle", append: transcript.append });
	const models = new SessionModels({ agent, registry: options.registry, file, emit: events.emit, notify: events.notify });
	const session = new AgentSession({
		...{ cwd, env, settings, events, phases, approvals, permissions, checkpoints, keys },
		...{ systemPrompt, streamFn, agent, models, extensions, usage, file, transcript, rewind, compaction, queue, shells },
		agentEvents: new RedactedAgentEvents(events.emit),
	});
	for (const text of notices) events.notify("warning", text);
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
	parts: { cwd: string; env: Env; ask: ApprovalPrompts["ask"] },
): SessionPermissions {
	const setup = options.permissions ?? loadPermissionSetup({ cwd: parts.cwd, env: parts.env });
	if (options.permissionMode) {
		setup.resolved.policy = { ...setup.resolved.policy, mode: options.permissionMode };
		setup.resolved.yoloChosen = options.permissionMode === "yolo";
		setup.resolved.modeChosen = true;
	}
	const channel = options.approvals ?? "print";
	return new SessionPermissions({ ...parts, setup, channel, sandboxFactory: options.sandboxFactory });
}

/** The chosen tools, wired to the permission gate and the checkpoint store; commands run without credentials. */
function sessionTools(
	names: string[] | undefined,
	c: { cwd: string; env: Env; settings: Settings; permissions: SessionPermissions; checkpoints: CheckpointStore },
): AgentTool[] {
	const { permissions } = c;
	const options: ToolsOptions = {
		beforeMutate: c.checkpoints.beforeMutate,
		// See src/safety/child-env.ts: the model's commands never see the user's keys.
		bash: { wrapSpawn: permissions.wrapSpawn, env: childEnv(c.env, c.settings.shell.passEnv) },
		deniedPaths: permissions.deniedPaths,
		linkedReads: permissions.linkedReads,
		checkedPath: (id) => permissions.gate.takeCheckedPath(id),
	};
	if (!names) return createCodingTools(c.cwd, options).map(withRedactedResults);
	const all = createAllTools(c.cwd, options) as Record<string, AgentTool>;
	return names.map((name) => {
		const tool = all[name];
		if (!tool) throw new Error(`Unknown tool "${name}" (known: ${toolNames.join(", ")})`);
		return withRedactedResults(tool);
	});
}
