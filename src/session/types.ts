// The contract between the coding assistant (`AgentSession`) and everything above it: the Ink app and
// the print / json / rpc modes. State lives in the Agent; the session adds tools, persistence, commands
// and settings, and reports changes as events. UIs render from `getState()` and events only.

import type { AgentEvent, AgentMessage } from "../agent/types.js";
import type { AssistantMessage, AssistantMessageEvent, ImageContent, Model, ThinkingLevel, Usage } from "../ai/index.js";
import type { HookLifecycleEvent } from "../extensions/hooks/types.js";
import type { HookListing } from "../extensions/hooks/user-hooks.js";
import type { ElicitAnswer } from "../extensions/mcp/elicitation.js";
import type { McpServerInfo, McpStartMode, McpTrustRequest } from "../extensions/mcp/manager.js";
import type { ApprovalRequest, ApprovalResponse } from "../permissions/gate.js";
import type { ApprovalPreview } from "../permissions/preview.js";
import type { RuleAdmin } from "../permissions/rule-admin.js";
import type { PermissionMode } from "../permissions/types.js";
import type { JobEvent } from "../tools/background-jobs.js";
import type { ElicitationRequest } from "./elicitation-prompts.js";
import type { MemoryTarget } from "./memory-file.js";
import type { Settings } from "./settings.js";
import type { SubAgentInfo } from "./subagents/sub-agent-info.js";
import type { SubAgentMessages } from "./subagents/sub-agents.js";
import type { TodoItem } from "./todos/todo-list.js";

/**
 * What the session is doing: the one run phase every mode and the TUI read (`getState().phase`, and a
 * `phase_changed` event on each change). No mode keeps its own running flags.
 * - `idle`: nothing runs; a prompt starts a run.
 * - `running`: a run streams or runs tools; input steers or queues a follow-up. `settling`: the Agent's
 *   run has ended (`agent_end` went out) and the session is saving or about to compact; input sent now
 *   should wait for `idle` (`waitForIdle()`), not steer.
 * - `awaiting-approval`: a tool call waits for the user's yes or no. Entered and left only through
 *   `ApprovalPrompts.hold` (approval-prompts.ts; `AgentSession.awaitApproval` for a custom hook) around the prompt:
 *   the phase is `awaiting-approval` while `ask()` is pending and goes back to `running` when it settles
 *   (also when it throws). Esc (`abort()`) ends the run as usual; the hook sees its signal.
 * - `compacting`: the context is being summarised (`reason` as in `compaction_start`).
 * - `retrying`: a request failed with a retryable error and is retried after `delayMs` (at `until`,
 *   epoch ms): "retrying in 3 s (429 rate limited) · Esc stops". Back to `running` with the next
 *   attempt's first event, or to `idle` when the run ends.
 */
export type RunPhase =
	| { kind: "idle" }
	| { kind: "running"; settling?: true }
	| { kind: "awaiting-approval"; toolCallId: string; toolName: string }
	| { kind: "compacting"; reason: "manual" | "threshold" | "overflow" }
	| { kind: "retrying"; attempt: number; maxAttempts: number; delayMs: number; until: number; reason: string; status?: number };

/** Events a session emits: every Agent event, plus what the session itself changes. */
export type SessionEvent =
	| AgentEvent
	/** `getState().phase` changed. */
	| { type: "phase_changed"; phase: RunPhase }
	/** The steering or follow-up queue changed (enqueue, drain into the transcript, clear). */
	| { type: "queue_update"; steering: string[]; followUp: string[] }
	| { type: "model_changed"; model: Model; thinkingLevel: ThinkingLevel }
	/** A new or resumed session replaced the transcript; re-read `getState().messages`. */
	| { type: "session_changed"; sessionFile?: string }
	| { type: "compaction_start"; reason: "manual" | "threshold" | "overflow" }
	| { type: "compaction_end"; reason: "manual" | "threshold" | "overflow"; summary?: string; error?: string }
	/** A line for the user that is not part of the transcript (command output, warnings). */
	| { type: "notice"; level: "info" | "warning" | "error"; text: string }
	/** Output of a `!cmd` shell command run by the user (added to the context). */
	/** A `!cmd` (or `!!cmd`, kept out of the context) started; `id` pairs it with its `user_shell`. */
	| { type: "user_shell_start"; id: number; command: string; excluded: boolean }
	/**
	 * A running `!cmd`'s output so far, for showing it live: the end of it (at most SHELL_TAIL_CHARS),
	 * secrets redacted; sent at most every SHELL_OUTPUT_MS. `user_shell` has the whole output at the end.
	 */
	| { type: "user_shell_output"; id: number; tail: string }
	| { type: "user_shell"; id: number; command: string; output: string; exitCode: number | null; aborted: boolean; excluded: boolean }
	/**
	 * A tool call the gate let through waits for the snapshot of an edits-only rewind point before it
	 * runs (`waiting`), or that wait ended (it runs now, or was stopped).
	 */
	| { type: "tool_waiting"; toolCallId: string; waiting: boolean }
	/** A snapshot of the workspace was taken before a prompt (`entryId`: the checkpoint's log entry). */
	| { type: "checkpoint_created"; entryId: string; snapshot: string; engine: "git" | "files" }
	/** Code and/or conversation went back to before the prompt `entryId`; `text` is that prompt, for the input. */
	| {
			type: "rewound";
			entryId: string;
			restore: "code" | "conversation" | "both";
			files: FileChangeInfo[];
			prompt: string;
			text?: string;
	  }
	/** `/quit` was typed: the UI or mode should exit (after `dispose()`). */
	| { type: "quit" }
	/** A tool call waits for the user: answer with `respondToApproval(id, …)`. One at a time, in call order. */
	| ({ type: "approval_request" } & SessionApprovalRequest)
	| { type: "approval_end"; id: string; decision: ApprovalResponse["decision"] }
	/** The permission mode changed (Shift+Tab, /permissions). */
	| { type: "permissions_changed"; mode: PermissionMode }
	/** A user hook (docs/hooks.md) started or finished: `hook_started` / `hook_finished`. */
	| HookLifecycleEvent
	/** A `task` call asked for a sub-agent (status "queued" while it waits for a slot, else "running"). */
	| ({ type: "subagent_start" } & SubAgentInfo)
	/** A sub-agent started running, started or finished a tool, or finished a reply (tokens). */
	| ({ type: "subagent_update" } & SubAgentInfo)
	/**
	 * A token of a sub-agent's streamed reply (redacted as the main agent's), named by the sub-agent and
	 * the task call that started it; its finished messages are in the session file's side branch.
	 */
	| {
			type: "subagent_message_update";
			agentId: string;
			parentToolCallId: string;
			parentAgentId?: string;
			assistantMessageEvent: AssistantMessageEvent;
	  }
	/** A sub-agent ended: `result` is its final text (the task call's result), or `error`. */
	| ({ type: "subagent_end" } & SubAgentInfo & { result?: string; error?: string })
	/** A background job started (bash run_in_background, or Ctrl+B), or ended with its output in. */
	| JobEvent
	/** The model wrote the todo list (or a resumed session brought one). */
	| { type: "todo_updated"; todos: readonly TodoItem[] }
	/** In plan mode the model asks to carry out `plan`: answer with `respondToPlan(id, …)`. */
	| ({ type: "plan_request" } & PlanRequest)
	| { type: "plan_end"; id: string; decision: PlanResponse["decision"] }
	/** An MCP server asks the user (a form, or a page to open): answer with `respondToElicitation(id, …)`. */
	| ({ type: "elicitation_request" } & ElicitationRequest)
	| { type: "elicitation_end"; id: string; action: ElicitAnswer["action"] };

/** An approval request, naming the sub-agent that asks (absent: the main agent). */
export type SessionApprovalRequest = ApprovalRequest & { agent?: { id: string; name: string } };

/** The plan the model proposes with `exit_plan_mode`, waiting for the user. */
export interface PlanRequest {
	id: string;
	toolCallId: string;
	/** Markdown. */
	plan: string;
}

export type PlanResponse =
	/** Approve; switch to auto-edit (edits run without asking) or keep asking ("ask"). */
	| { decision: "approve"; mode: "auto-edit" | "ask" }
	/** Keep planning; `feedback` goes to the model. */
	| { decision: "revise"; feedback?: string };

/** A file that a run changed or a restore would change (paths relative to the workspace). */
export interface FileChangeInfo {
	path: string;
	status: "added" | "modified" | "deleted";
	added: number;
	removed: number;
	binary?: boolean;
}

/** A prompt that can be rewound to. Without `checkpoint` only the conversation can be restored. */
export interface RewindPointInfo {
	entryId: string;
	text: string;
	timestamp: string;
	checkpoint?: { before: string; after?: string };
	/** The checkpoint covers only what edit/write changed (the git snapshot was not ready in time). */
	editsOnly?: boolean;
	changes: FileChangeInfo[];
}

export interface SessionTotals {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	cost: number;
}

export interface SessionState {
	cwd: string;
	model: Model;
	thinkingLevel: ThinkingLevel;
	/** The live transcript (the Agent's array; do not mutate). */
	messages: readonly AgentMessage[];
	/** What the session is doing now (see `RunPhase`). */
	phase: RunPhase;
	/** A run is active (streaming, tools, a retry wait, an approval, an overflow compaction inside it). */
	isStreaming: boolean;
	streamingMessage?: AgentMessage;
	pendingToolCalls: ReadonlySet<string>;
	errorMessage?: string;
	/** Text of queued messages, oldest first. */
	steering: string[];
	followUp: string[];
	totals: SessionTotals;
	/** Input tokens of the last request (context use), and the model's window. */
	contextTokens: number;
	contextWindow: number;
	/** Absent with --no-session. */
	sessionFile?: string;
	sessionId: string;
	/** The display name given with rpc `set_session_name` (saved in the file), if any. */
	sessionName?: string;
	/** `phase.kind === "compacting"`. */
	isCompacting: boolean;
	/** Configured MCP servers with their status and tools (empty without any). */
	mcpServers?: readonly McpServerInfo[];
	/** Optional for sessions without permissions (test doubles); AgentSession always sets them. */
	permissionMode?: PermissionMode;
	/** Where bash runs: "bwrap", "none" (no sandbox available), "off" (yolo). */
	sandbox?: "bwrap" | "none" | "off";
	/** The tool call waiting for the user's answer. */
	pendingApproval?: SessionApprovalRequest;
	/** The plan waiting for the user's answer (plan mode's `exit_plan_mode`). */
	pendingPlan?: PlanRequest;
	/** The MCP server's question waiting for the user's answer. */
	pendingElicitation?: ElicitationRequest;
	/** Sub-agents queued or running now. */
	subagents?: readonly SubAgentInfo[];
	/** The todo list the model wrote last (empty: none). */
	todos?: readonly TodoItem[];
}

/**
 * What a command asks an interactive UI to show: the model picker, the session picker, the rewind
 * menu, its help (commands and keys), or a masked field for a provider's key (`/login <provider>`).
 */
export type CommandUiRequest =
	| "pick-model"
	| "pick-session"
	| "rewind-menu"
	| "help"
	/** The /permissions screen: every rule with its source, to remove or add one. */
	| "permissions"
	| { kind: "login-key"; provider: string };

/** Result of sending a line of input: what the session did with it. */
export type SubmitOutcome =
	| { kind: "prompted" }
	| { kind: "steered" }
	| { kind: "queued_follow_up" }
	/** `ui`: the command asks the UI to show something (only when submitted with `ui: true`). */
	| { kind: "command"; name: string; ui?: CommandUiRequest }
	| { kind: "shell" }
	| { kind: "ignored" };

export interface SubmitOptions {
	as?: "steer" | "followUp";
	images?: ImageContent[];
	/** The caller acts on a command's `CommandUiRequest` (the TUI opens a picker); otherwise commands answer in text. */
	ui?: boolean;
}

export interface SlashCommandInfo {
	name: string;
	description: string;
	/** Argument hint shown in completion, e.g. "[pattern]". */
	args?: string;
	/** Where a custom command comes from (its file; what it shadows), shown by `/help`. */
	source?: string;
}

/** One saved session as a picker lists it. */
export interface SessionSummary {
	id: string;
	/** Last write to the session file. */
	modified: Date;
	messageCount: number;
	/** Text of the first user message ("" before there is one). */
	firstMessage: string;
	/** Size of the session file. */
	bytes?: number;
}

export interface AgentSessionApi {
	getState(): SessionState;
	/** The merged settings files (the app reads its own sections, e.g. `notifications`). */
	readonly settings: Readonly<Settings>;
	/** Listener errors are reported, never thrown into the session. Returns unsubscribe. */
	subscribe(listener: (event: SessionEvent) => void): () => void;
	/**
	 * Phase changes only, for a watcher that is not a UI (the code cache's timing, src/cli/first-reply.ts):
	 * unlike `subscribe`, it never takes the notices kept for the first subscriber. Returns unwatch.
	 */
	watchPhases(watcher: (phase: RunPhase) => void): () => void;

	/**
	 * One line of user input as typed: `/command ...`, `!shell`, or a prompt (with `@path` attachments
	 * expanded). When idle it prompts; while streaming it steers (`as: "followUp"` queues instead).
	 * Resolves when the input was accepted, not when the run ends.
	 */
	submit(text: string, options?: SubmitOptions): Promise<SubmitOutcome>;
	/** Starts a run; resolves when it settles. Rejects only if a run is already active. */
	prompt(text: string, images?: ImageContent[]): Promise<void>;
	steer(text: string): void;
	followUp(text: string): void;
	/** Stops the stream and running tools. Queued messages stay queued (see `takeQueuedMessages`). */
	abort(): void;
	/** Empties both queues and returns their text, steering first (Esc puts them back in the input). */
	takeQueuedMessages(): { steering: string[]; followUp: string[] };
	waitForIdle(): Promise<void>;

	setModel(model: Model): Promise<void>;
	setThinkingLevel(level: ThinkingLevel): void;
	/** Models the user can pick (have a key, or are local / demo). */
	availableModels(): Model[];
	/** This folder's saved sessions, newest first, for the `/resume` picker (empty: none saved, or --no-session). */
	listSessions(): SessionSummary[];
	/**
	 * Rewind (docs/rewind.md): the prompts of the current branch, newest first, with what each run
	 * changed; what a code restore would do; the restore itself (idle only). A session without rewind
	 * (no session file, checkpoints off) lists no points, and a restore rejects with the reason.
	 */
	rewindPoints(): Promise<RewindPointInfo[]>;
	previewRewind(entryId: string): Promise<{ changes: FileChangeInfo[]; changedOutside: string[] }>;
	rewindTo(entryId: string, restore: "code" | "conversation" | "both"): Promise<{ files: FileChangeInfo[]; text?: string }>;
	commands(): SlashCommandInfo[];
	newSession(): Promise<void>;
	compact(instructions?: string): Promise<void>;
	/** Starts the configured MCP servers in the background; once, after the first frame in the app (none: does nothing). */
	startMcpServers(mode: McpStartMode): void;
	/** The project's MCP servers waiting for the user's trust, if any (the app asks before it mounts). */
	mcpTrustRequest(): McpTrustRequest | undefined;
	/** The answer: remembered for the folder; trusted servers start with the others. */
	answerMcpTrust(allow: boolean): string[];
	/** Every configured hook with its event, matcher, file and trust state (`/hooks`, rpc). */
	hookList(): readonly HookListing[];
	/** The answer on those hooks (and, when allowing, on declined ones): remembered for the folder; returns their commands. */
	answerHooksTrust(allow: boolean): string[];
	/** Loads what the first request needs (the provider) while the user is still typing. */
	warmUp(): Promise<void>;
	/** Flushes the session file and releases resources. */
	dispose(): Promise<void>;
	setPermissionMode(mode: PermissionMode): void;
	/** The AGENTS.md files a `#text` line can go to (the project's nearest, the global one). */
	memoryTargets(): MemoryTarget[];
	/** Every rule in force with where it lives; adds and removes them in force and in their files (/permissions). */
	permissionRules(): RuleAdmin;
	/** Shift+Tab: the next mode (ask → auto-edit → auto → plan, and yolo when it was chosen); returns it. */
	cyclePermissionMode(): PermissionMode;
	/**
	 * Ctrl+B: every running foreground bash command becomes a background job; each call answers the
	 * model with its job id. Says what moved (or that nothing ran) as a notice; returns the jobs' ids.
	 */
	moveToBackground(): string[];
	/** Answers the waiting approval; false when `id` is not the one waiting. */
	respondToApproval(id: string, response: ApprovalResponse): boolean;
	/** Answers the plan waiting for approval; false when `id` is not the one waiting. */
	respondToPlan(id: string, response: PlanResponse): boolean;
	/**
	 * Answers the waiting MCP question (`{action: "accept", content?}`, `{action: "decline"}` or
	 * `{action: "cancel"}`); false when `id` is not the one waiting; throws when the content does not fit the form.
	 */
	respondToElicitation(id: string, answer: ElicitAnswer): boolean;
	/** Queues `text` for before the running sub-agent `agentId`'s next request; throws when it is not running. */
	steerAgent(agentId: string, text: string): void;
	/** Queues `text` to start another turn of the running sub-agent `agentId` once it would stop. */
	followUpAgent(agentId: string, text: string): void;
	/** A sub-agent's finished messages (Ctrl+O shows them): `agentId`'s, or the one started last; undefined when none ran. */
	subAgentTranscript(agentId?: string): SubAgentMessages | undefined;
}

export type {
	ApprovalPreview,
	ApprovalRequest,
	ApprovalResponse,
	AssistantMessage,
	ElicitAnswer,
	ElicitationRequest,
	PermissionMode,
	SubAgentInfo,
	SubAgentMessages,
	TodoItem,
	Usage,
};
