// User hooks in Claude Code's format (settings `hooks: {Event: [{matcher, hooks: [{type: "command",
// command, timeout}]}]}`): the configured commands, what each event hands them, and what they decide.
// Data only; the modules beside this one read the configuration, run the commands and read their answers.

/** Every event a hook can be configured for, by Claude Code's names. */
export const HOOK_EVENTS = [
	"PreToolUse",
	"PostToolUse",
	"UserPromptSubmit",
	"Stop",
	"SubagentStop",
	"SessionStart",
	"SessionEnd",
	"PreCompact",
	"Notification",
] as const;

export type HookEvent = (typeof HOOK_EVENTS)[number];

/** One configured command, with where it came from. */
export interface HookCommand {
	event: HookEvent;
	/** As written; "" (or absent, or "*") matches everything. */
	matcher: string;
	command: string;
	/** Seconds; DEFAULT_TIMEOUT_SECONDS unless the entry says `timeout`. */
	timeoutSeconds: number;
	/** The settings file it was read from. */
	file: string;
	/** Read from a file inside the project folder: runs only once the user trusted it. */
	project: boolean;
}

export const DEFAULT_TIMEOUT_SECONDS = 60;

/** Claude Code's names of where a session starts from, why it ends, what started a compaction. */
export type SessionStartSource = "startup" | "resume" | "clear" | "compact";
export type SessionEndReason = "clear" | "logout" | "prompt_input_exit" | "other";
export type CompactTrigger = "manual" | "auto";

/** What an event is about, in Rudder's terms; payload.ts turns it into Claude Code's stdin JSON. */
export type HookInput =
	| { event: "PreToolUse"; tool: string; args: unknown; toolCallId?: string }
	| { event: "PostToolUse"; tool: string; args: unknown; toolCallId?: string; result: { text: string; isError: boolean } }
	| { event: "UserPromptSubmit"; prompt: string }
	| { event: "Stop"; stopHookActive: boolean }
	| {
			event: "SubagentStop";
			stopHookActive: boolean;
			/** The sub-agent's id in the session (`explore-1`) and its definition's name (what a matcher tests). */
			agentId: string;
			agentType: string;
			/** Its final reply's text. */
			lastAssistantMessage: string;
	  }
	| { event: "SessionStart"; source: SessionStartSource }
	| { event: "SessionEnd"; reason: SessionEndReason }
	| { event: "PreCompact"; trigger: CompactTrigger; customInstructions: string }
	| { event: "Notification"; message: string; notificationType: string };

/** The session's side of every payload. */
export interface HookSession {
	sessionId: string;
	/** The session's JSONL file ("" when the session is not saved). */
	transcriptPath: string;
	cwd: string;
	/** Rudder's mode (ask, auto-edit, plan, yolo); sent in Claude Code's names. */
	permissionMode?: string;
}

export type PermissionDecision = "allow" | "deny" | "ask";

/** How one hook's run ended, read from its exit code and output (result.ts). */
export interface HookVerdict {
	hook: HookCommand;
	status: "ok" | "blocked" | "error" | "timeout" | "cancelled";
	exitCode: number | null;
	durationMs: number;
	/** PreToolUse's `permissionDecision` (or the older `decision: approve/block`). */
	permission?: PermissionDecision;
	/** Why it blocked or decided: for the model or the user, as the event says (redacted). */
	reason?: string;
	/** `additionalContext` (or plain stdout where Claude Code takes it as context), redacted. */
	context?: string;
	/** `continue: false`: the run stops, with `stopReason` for the user. */
	stop?: string;
	/** One line naming the hook, for the screen (sanitised and redacted), when it blocked or failed. */
	notice?: string;
}

/** All hooks of one event together: what the caller acts on. */
export interface HookOutcome {
	verdicts: HookVerdict[];
	/** PreToolUse: deny over ask over allow, as Claude Code combines them. */
	permission?: PermissionDecision;
	/** The reasons given with that decision (for the prompt, or the model on deny). */
	permissionReason?: string;
	/** A hook blocked (exit 2 or `decision: "block"`); the reasons joined, one per line. */
	blocked?: string;
	/** Every hook's additional context, joined. */
	context?: string;
	/** A hook said `continue: false`. */
	stop?: string;
	/** Lines for the screen: each hook that blocked or failed, once. */
	notices: string[];
}

/** For json/rpc and the UI: a hook started or finished. */
export type HookLifecycleEvent =
	| { type: "hook_started"; id: string; event: HookEvent; command: string; file: string }
	| {
			type: "hook_finished";
			id: string;
			event: HookEvent;
			command: string;
			file: string;
			status: HookVerdict["status"];
			exitCode: number | null;
			durationMs: number;
	  };
