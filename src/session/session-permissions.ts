// A session's permissions: loads the policy from settings and flags (with the project's trust), runs
// the gate on every tool call, and starts bash in the sandbox. A call that needs the user's answer goes
// to the channel given at construction (`ask`, see approval-prompts.ts); without one it is denied.
import type { AgentTool, AgentToolResult } from "../agent/types.js";
import { cacheDir, configDir, configFile, dataDir } from "../config/paths.js";
import { denyingRule, pathRulesFor } from "../permissions/denied-paths.js";
import { type ApprovalRequest, type ApprovalResponse, type GateHost, PermissionGate } from "../permissions/gate.js";
import { type PermissionFlags, type ResolvedPermissions, resolvePermissions } from "../permissions/resolve.js";
import { RuleAdmin } from "../permissions/rule-admin.js";
import { hiddenPathsFor, readDenyRules } from "../permissions/sandbox-hidden.js";
import { bwrapWorks } from "../permissions/sandbox-probe.js";
import { addProjectRule, folderTrust, projectRules, rememberTrust } from "../permissions/trust.js";
import type { PermissionMode } from "../permissions/types.js";
import { realTarget } from "../permissions/workspace.js";
import { createBashTool } from "../tools/bash.js";
import type { PathDenial } from "../tools/denied-paths.js";
import type { LinkCheck } from "../tools/linked-outside.js";
import { type CommandSandbox, findOnPath, platformSandbox, type SandboxSpec } from "../tools/sandbox.js";
import type { Launch } from "../tools/shell.js";
import { globalSettingsPath, mergeSettings, projectSettingsPath, readSettingsChecked } from "./settings.js";
import { type HeldSetting, holdProjectSettings } from "./settings-trust.js";

type Env = Record<string, string | undefined>;

export interface PermissionSetup {
	resolved: ResolvedPermissions;
	trusted: boolean;
	/** The project's settings widen and the user was never asked about this folder: the TUI asks. */
	trustUnknown: boolean;
	/** Project settings that change the model, costs or safety: they wait for trust like widenings. */
	held: HeldSetting[];
	realCwd: string;
	dataFolder: string;
}

export interface PermissionSetupOptions {
	cwd: string;
	env?: Env;
	flags?: PermissionFlags;
	/** `--trust-project`: trust this folder's settings (and remember it). */
	trustProject?: boolean;
	/** The user's answer to the trust prompt, when it was just asked. */
	trustAnswer?: boolean;
}

/** Reads both settings files, the remembered trust and approvals, and resolves the policy. */
export function loadPermissionSetup(options: PermissionSetupOptions): PermissionSetup {
	const env = options.env ?? process.env;
	const realCwd = realTarget(options.cwd);
	const dataFolder = dataDir(env);
	const globalFile = globalSettingsPath(env);
	const projectFile = projectSettingsPath(options.cwd);
	// Problems in these files are reported once at start (loadSettingsChecked); the valid fields still apply.
	const global = readSettingsChecked(globalFile).value;
	const project = readSettingsChecked(projectFile).value;
	if (options.trustProject) rememberTrust(dataFolder, realCwd, true);
	else if (options.trustAnswer !== undefined) rememberTrust(dataFolder, realCwd, options.trustAnswer);
	const remembered = folderTrust(dataFolder, realCwd);
	const trusted = options.trustProject === true || remembered === true;
	const resolved = resolvePermissions({
		cwd: options.cwd,
		global: { file: globalFile, permissions: global.permissions, sandbox: global.sandbox },
		project: { file: projectFile, permissions: project.permissions, sandbox: project.sandbox },
		flags: options.flags ?? {},
		trusted,
	});
	resolved.policy = { ...resolved.policy, allow: [...resolved.policy.allow, ...projectRules(dataFolder, realCwd)] };
	const { held } = holdProjectSettings(project, mergeSettings(global), projectFile);
	const waiting = resolved.widenings.length + held.length > 0;
	return { resolved, trusted, trustUnknown: !trusted && remembered === undefined && waiting, held, realCwd, dataFolder };
}

/**
 * Who answers approvals: the user through events ("prompt": the TUI, rpc with `--rpc-approvals` or
 * `set_approvals`), or nobody (print, json, and rpc until its client opts in: denied with a hint, so a
 * client that never heard of `approval_request` is never left waiting).
 */
export type ApprovalChannel = "prompt" | "print" | "json" | "rpc";

export interface SessionPermissionsOptions {
	cwd: string;
	env: Env;
	setup: PermissionSetup;
	channel: ApprovalChannel;
	/** Who answers when `channel` is "prompt" (ApprovalPrompts.ask); unused otherwise. */
	ask: (request: ApprovalRequest, signal?: AbortSignal) => Promise<ApprovalResponse>;
	/** Replaces the platform's sandbox (tests). */
	sandboxFactory?: (spec: SandboxSpec) => CommandSandbox | undefined;
	/** Runs a call approved to run outside the sandbox; default Rudder's own unsandboxed bash. */
	outsideBash?: AgentTool["execute"];
	/** The environment commands get (childEnv: no credentials), also for a command run again outside the sandbox. */
	commandEnv: Record<string, string>;
	/** The user's PreToolUse hooks (SessionHooks.preToolUse), asked by the gate on every call. */
	toolHook?: GateHost["toolHook"];
}

/** Modes Shift+Tab cycles through; yolo only when it was chosen explicitly. */
export function cycleOf(yoloChosen: boolean): PermissionMode[] {
	return yoloChosen ? ["ask", "auto-edit", "auto", "plan", "yolo"] : ["ask", "auto-edit", "auto", "plan"];
}

export class SessionPermissions {
	readonly gate: PermissionGate;
	/** List, add and remove rules, in force and in their files (the /permissions screen). */
	readonly rules: RuleAdmin;
	readonly notices: string[];
	private readonly options: SessionPermissionsOptions;
	private readonly spec: SandboxSpec;
	private sandboxBox: CommandSandbox | undefined | null = null;
	private networkBox: CommandSandbox | undefined | null = null;
	private yoloChosen: boolean;
	private channel: ApprovalChannel;

	constructor(options: SessionPermissionsOptions) {
		this.options = options;
		const { resolved } = options.setup;
		this.yoloChosen = resolved.yoloChosen;
		this.channel = options.channel;
		const readDenied = readDenyRules(resolved.policy.deny);
		const cwd = resolved.policy.workspace.roots[0] ?? options.cwd;
		this.spec = {
			writable: resolved.policy.workspace.roots,
			network: resolved.network,
			hidden: [configFile("auth", options.env)],
			// Whole folders: keys, sessions, checkpoints (copies of files deny rules hide), grants, cache.
			hiddenFolders: [configDir(options.env), dataDir(options.env), cacheDir(options.env)],
			limits: resolved.limits,
			// What `read(...)` deny rules name, looked up at each command's start (files come and go).
			hide: readDenied.length > 0 ? () => hiddenPathsFor(readDenied, cwd).paths : undefined,
		};
		this.notices = [...resolved.notices];
		// No flag or settings file chose a mode: sandbox-first where the sandbox works, else ask.
		const mode = resolved.modeChosen || !this.sandboxWorks() ? resolved.policy.mode : "auto";
		const channel = () => this.channel;
		this.gate = new PermissionGate(
			{ ...resolved.policy, mode },
			{
				// Read at each call: an rpc client can opt in (or out) while the session runs.
				get ask() {
					return channel() === "prompt" ? options.ask : undefined;
				},
				toolHook: options.toolHook,
				saveProjectRule: (rule) => addProjectRule(options.setup.dataFolder, options.setup.realCwd, rule),
				sandbox: () => this.sandboxName(),
				network: resolved.network,
				runUnsandboxed: (id, args, signal, how) => this.runAgain(id, args, signal, how),
				get modeName() {
					return channel() === "rpc" ? "rpc mode (without --rpc-approvals or set_approvals)" : `${channel()} mode`;
				},
				sandboxEvidence: (id) => this.sandboxBox?.evidence(id),
			},
		);
		this.rules = new RuleAdmin(
			{
				globalFile: globalSettingsPath(options.env),
				projectFile: projectSettingsPath(options.cwd),
				dataFolder: options.setup.dataFolder,
				realCwd: options.setup.realCwd,
			},
			this.gate,
		);
		if (this.sandboxAvailable() === undefined && resolved.policy.mode !== "yolo") {
			this.notices.push(
				"No sandbox: bwrap (bubblewrap) is not installed, so approved commands run unconfined (apt-get install bubblewrap)",
			);
		}
	}

	/** The project folder is trusted (remembered, or `--trust-project`): its context files are read wherever they lead. */
	get projectTrusted(): boolean {
		return this.options.setup.trusted;
	}

	get mode(): PermissionMode {
		return this.gate.mode;
	}

	/** Whether a user answers approvals (TUI, rpc after opting in) rather than nobody (print, json, rpc). */
	get canAsk(): boolean {
		return this.channel === "prompt";
	}

	/** rpc: whether the client answers approvals (`set_approvals`); other channels are fixed. */
	setApprovals(enabled: boolean): void {
		if (this.channel !== "rpc" && this.channel !== "prompt") throw new Error(`${this.channel} mode cannot answer approvals`);
		this.channel = enabled ? "prompt" : "rpc";
	}

	/** "bwrap" while commands run sandboxed, "none" when no sandbox is available, "off" in yolo. */
	sandboxName(): "bwrap" | "none" {
		if (this.gate.mode === "yolo") return "none";
		return this.sandboxAvailable() ? "bwrap" : "none";
	}

	sandboxState(): "bwrap" | "none" | "off" {
		if (this.gate.mode === "yolo") return "off";
		return this.sandboxAvailable() ? "bwrap" : "none";
	}

	/**
	 * Whether commands can run sandboxed here: a sandbox exists and, for the platform's bwrap, its probe
	 * (sandbox-probe.ts, cached per machine) passed. A factory given by the caller is taken at its word.
	 */
	private sandboxWorks(): boolean {
		if (!this.sandboxAvailable()) return false;
		if (this.options.sandboxFactory || process.platform !== "linux") return true;
		const bwrap = findOnPath("bwrap", this.options.env.PATH);
		return bwrap !== undefined && bwrapWorks(bwrap, cacheDir(this.options.env));
	}

	private sandboxAvailable(): CommandSandbox | undefined {
		if (this.sandboxBox === null)
			this.sandboxBox = (this.options.sandboxFactory ?? ((spec) => platformSandbox(spec, process.platform, this.options.env.PATH)))(
				this.spec,
			);
		return this.sandboxBox;
	}

	/** The same sandbox with the network on, made on first use (for one approved command at a time). */
	private networkSandbox(): CommandSandbox | undefined {
		if (this.networkBox === null) {
			const factory = this.options.sandboxFactory ?? ((spec) => platformSandbox(spec, process.platform, this.options.env.PATH));
			this.networkBox = factory({ ...this.spec, network: true });
		}
		return this.networkBox;
	}

	/**
	 * What the deny rules hide from a walking tool (grep, find, ls), checked per entry by real path; the
	 * walk skips denied folders, so only the entry itself is checked (the gate checked the folders above).
	 */
	readonly deniedPaths = (tool: string): PathDenial | undefined => {
		const rules = pathRulesFor(this.gate.rules.deny, tool);
		if (rules.length === 0) return undefined;
		const cwd = this.gate.workspace[0] ?? this.options.cwd;
		return (realPath, isDirectory) => denyingRule(rules, tool, realPath, cwd, isDirectory, false)?.text;
	};

	/**
	 * Links grep, find and ls meet: followed only where a read of the target would not ask
	 * (linked-outside.ts); a target a deny rule names is left to `deniedPaths`, which hides and counts it.
	 */
	readonly linkedReads =
		(tool: string): LinkCheck =>
		(realTarget) =>
			this.gate.decide({ tool, args: { path: realTarget } }).kind !== "ask";

	/** The bash tool's launch hook: sandboxed unless yolo or no sandbox is available. */
	readonly wrapSpawn = (file: string, args: string[], cwd: string, callId?: string): Launch => {
		const box = this.gate.mode === "yolo" ? undefined : this.sandboxAvailable();
		return box ? box.wrap(file, args, cwd, callId) : { file, args };
	};

	setMode(mode: PermissionMode): void {
		if (mode === "yolo") this.yoloChosen = true;
		this.gate.setMode(mode);
	}

	/** Shift+Tab: the next mode of the cycle. */
	cycleMode(): PermissionMode {
		const cycle = cycleOf(this.yoloChosen);
		const next = cycle[(cycle.indexOf(this.gate.mode) + 1) % cycle.length] ?? "ask";
		this.setMode(next);
		return next;
	}

	/** After an approval: a failed sandboxed command once more, outside the sandbox or inside it with network. */
	private async runAgain(
		toolCallId: string,
		args: unknown,
		signal: AbortSignal | undefined,
		how: "outside" | "network",
	): Promise<{ result: AgentToolResult<any>; isError: boolean }> {
		const networked = how === "network" ? this.networkSandbox() : undefined;
		const bash = createBashTool(this.options.cwd, {
			env: this.options.commandEnv,
			...(networked ? { wrapSpawn: (file, a, cwd, id) => networked.wrap(file, a, cwd, id) } : {}),
		});
		const execute = how === "outside" && this.options.outsideBash ? this.options.outsideBash : bash.execute;
		try {
			return { result: await execute(toolCallId, args as never, signal), isError: false };
		} catch (error) {
			return {
				result: { content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }], details: {} },
				isError: true,
			};
		}
	}

	/** The system prompt's word on permissions, so the model knows what will run and what will ask. */
	promptSection(): string {
		const mode = this.gate.mode;
		const lines: Record<PermissionMode, string> = {
			auto: "Permission mode: auto. Reads and edits inside the workspace run at once; bash commands run in the sandbox without asking. Running a command again outside the sandbox or with network, and anything outside the workspace, wait for the user's approval.",
			ask: "Permission mode: ask. Reading inside the workspace runs at once; every edit, write and bash command waits for the user's approval, and the user may deny it with a reason.",
			"auto-edit":
				"Permission mode: auto-edit. Reads and edits inside the workspace run at once; bash commands and anything outside the workspace wait for the user's approval.",
			plan: "Permission mode: plan. You may only read and search: edits, writes and commands are refused. Investigate, then present a plan; the user switches modes to carry it out.",
			yolo: "Permission mode: yolo. Tool calls run without asking.",
		};
		const box =
			this.sandboxName() === "bwrap"
				? ` Commands run in a sandbox: only the workspace (${this.gate.workspace.join(", ")}) and /tmp are writable, .git and .rudder are read-only${this.spec.network ? "" : ", and there is no network"}.`
				: "";
		const line =
			mode === "auto" && this.sandboxName() !== "bwrap"
				? "Permission mode: auto, but there is no sandbox: reads and edits inside the workspace run at once; bash commands and anything outside the workspace wait for the user's approval."
				: lines[mode];
		return `${line}${box}`;
	}

	dispose(): void {
		if (this.sandboxBox) this.sandboxBox.dispose();
		if (this.networkBox) this.networkBox.dispose();
	}
}
