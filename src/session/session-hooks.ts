// The user's hooks (src/extensions/hooks) at the session's moments: around each tool call (PreToolUse
// through the permission gate, PostToolUse after it), before a prompt is sent, when a run would stop,
// at the start and end of a session, before a compaction, and when an approval waits. Each method says
// what the hooks decided in the session's terms; the session acts on it. Every hook that blocks or
// fails is one notice naming it; json/rpc hear `hook_started` / `hook_finished` (UserHooks' onEvent). `abort` (Esc) stops
// hooks that run outside a tool call; a tool call's hooks stop with the run's own signal.
import type { AfterToolCallContext, AfterToolCallResult } from "../agent/types.js";
import { toolCallVerdict } from "../extensions/hooks/result.js";
import type {
	CompactTrigger,
	HookInput,
	HookOutcome,
	HookSession,
	SessionEndReason,
	SessionStartSource,
} from "../extensions/hooks/types.js";
import { skippedHooksNotice, type UserHooks } from "../extensions/hooks/user-hooks.js";
import type { ToolHookVerdict } from "../permissions/gate.js";

/** How many times in a row Stop hooks may keep a run going before it stops anyway. */
export const STOP_HOOK_LIMIT = 5;

/**
 * How long SessionEnd hooks wait for a snapshot still running before they run anyway: nothing cancels
 * that wait when the session ends (quitting), which could then last as long as a large first snapshot,
 * or forever when git hangs. A hook that changes files meanwhile may or may not be in that last point.
 */
export const SESSION_END_SNAPSHOT_WAIT_MS = 2000;

export interface SessionHooksDeps {
	hooks: UserHooks;
	/** The session's id, file and mode at the moment a hook runs. */
	identity: () => HookSession;
	notify: (level: "info" | "warning" | "error", text: string) => void;
	/** Hooks run commands, which may change any file: they wait for the snapshot an edits-only rewind point waits for. */
	untrackedChangesMayStart: (signal: AbortSignal) => Promise<void>;
}

type AfterToolCall = (ctx: AfterToolCallContext, signal?: AbortSignal) => Promise<AfterToolCallResult | undefined>;

/** A prompt's fate: sent (with context for the model, if any), or dropped with the reason the user sees. */
export type PromptHookResult = { send: true; context?: string } | { send: false; reason: string };

function textOf(result: AgentToolResultLike): string {
	return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

type AgentToolResultLike = { content: AfterToolCallContext["result"]["content"] };

export class SessionHooks {
	private readonly running = new Set<AbortController>();
	/** SessionStart's hooks, started with the session; their context goes with the first prompt. */
	private starting?: Promise<string | undefined>;

	constructor(private readonly deps: SessionHooksDeps) {}

	get hooks(): UserHooks {
		return this.deps.hooks;
	}

	/** Runs one event's hooks; its notices are shown; `signal` (a tool call's) and `abort` both stop them. */
	private async run(input: HookInput, signal?: AbortSignal, snapshotWaitMs?: number): Promise<HookOutcome> {
		if (!this.deps.hooks.has(input.event)) return { verdicts: [], notices: [] };
		const own = new AbortController();
		this.running.add(own);
		try {
			const stop = signal ? AbortSignal.any([signal, own.signal]) : own.signal;
			await this.snapshotWait(stop, snapshotWaitMs);
			// Aborted while waiting: the runner starts none of them and reports each cancelled, so callers
			// see hooks that did not have their say (a prompt whose hooks were stopped is not sent).
			const outcome = await this.deps.hooks.run(input, this.deps.identity(), stop);
			for (const notice of outcome.notices) this.deps.notify("warning", notice);
			if (outcome.stop !== undefined) this.deps.notify("warning", `A hook stopped the run: ${outcome.stop}`);
			return outcome;
		} finally {
			this.running.delete(own);
		}
	}

	/** Waits for the snapshot an edits-only point waits for, until `stop`, and at most `ms` when given. */
	private async snapshotWait(stop: AbortSignal, ms?: number): Promise<void> {
		if (ms === undefined) return this.deps.untrackedChangesMayStart(stop);
		const bound = new AbortController();
		const timer = setTimeout(() => bound.abort(), ms);
		try {
			await this.deps.untrackedChangesMayStart(AbortSignal.any([stop, bound.signal]));
		} finally {
			clearTimeout(timer);
		}
	}

	/** Stops every hook running outside a tool call (Esc, the session ending). */
	abort(): void {
		for (const controller of this.running) controller.abort();
	}

	/** The permission gate's `toolHook`: PreToolUse's decision on a call. */
	readonly preToolUse = async (
		call: { id: string; tool: string; args: unknown },
		signal?: AbortSignal,
	): Promise<ToolHookVerdict | undefined> => {
		const outcome = await this.run({ event: "PreToolUse", tool: call.tool, args: call.args, toolCallId: call.id }, signal);
		if (outcome.stop !== undefined) return { decision: "deny", reason: `A hook stopped the run: ${outcome.stop}` };
		return toolCallVerdict(outcome);
	};

	/**
	 * `after` (the gate's afterToolCall) followed by PostToolUse: what the hooks say (a block reason,
	 * additional context) is added to the result the model reads; the tool already ran.
	 */
	withPostToolUse(after: AfterToolCall): AfterToolCall {
		return async (ctx, signal) => {
			const amended = await after(ctx, signal);
			if (!this.deps.hooks.has("PostToolUse")) return amended;
			const content = amended?.content ?? ctx.result.content;
			const isError = amended?.isError ?? ctx.isError;
			const outcome = await this.run(
				{
					event: "PostToolUse",
					tool: ctx.toolCall.name,
					args: ctx.args,
					toolCallId: ctx.toolCall.id,
					result: { text: textOf({ content }), isError },
				},
				signal,
			);
			const notes = [
				outcome.blocked && `[PostToolUse hook] ${outcome.blocked}`,
				outcome.context && `[PostToolUse hook context] ${outcome.context}`,
			].filter((n): n is string => typeof n === "string");
			if (notes.length === 0) return amended;
			return { ...amended, content: [...content, { type: "text", text: notes.join("\n\n") }] };
		};
	}

	/** UserPromptSubmit: a block drops the prompt (the user sees why); context joins the request. */
	async userPromptSubmit(prompt: string): Promise<PromptHookResult> {
		const outcome = await this.run({ event: "UserPromptSubmit", prompt });
		// Esc while they ran: a hook that might have blocked it did not finish, so nothing is sent.
		if (outcome.verdicts.some((v) => v.status === "cancelled")) return { send: false, reason: "Not sent: its hooks were stopped" };
		if (outcome.blocked !== undefined) return { send: false, reason: outcome.blocked };
		if (outcome.stop !== undefined) return { send: false, reason: outcome.stop };
		return outcome.context ? { send: true, context: outcome.context } : { send: true };
	}

	/**
	 * Stop: the instruction to go on with when a hook blocks the stop, or undefined to stop. `round`
	 * counts the times hooks already kept this run going; past STOP_HOOK_LIMIT it stops.
	 */
	async stop(round: number): Promise<string | undefined> {
		return this.keepGoing(await this.run({ event: "Stop", stopHookActive: round > 0 }), round, "Stop hooks kept the run");
	}

	/**
	 * SubagentStop: as Stop, for one sub-agent about to end (matched by its definition's name); the
	 * instruction it goes on with, or undefined. `signal` is its task call's: Esc stops these hooks too.
	 */
	async subagentStop(
		round: number,
		agent: { agentId: string; agentType: string; lastAssistantMessage: string },
		signal?: AbortSignal,
	): Promise<string | undefined> {
		const outcome = await this.run({ event: "SubagentStop", stopHookActive: round > 0, ...agent }, signal);
		return this.keepGoing(outcome, round, `SubagentStop hooks kept the sub-agent ${agent.agentId}`);
	}

	/** A blocking stop hook's reason, unless a hook said stop, was cancelled, or the rounds ran out. */
	private keepGoing(outcome: HookOutcome, round: number, who: string): string | undefined {
		if (outcome.blocked === undefined || outcome.stop !== undefined) return undefined;
		if (outcome.verdicts.some((v) => v.status === "cancelled")) return undefined;
		if (round >= STOP_HOOK_LIMIT) {
			this.deps.notify("warning", `${who} going ${STOP_HOOK_LIMIT} times in a row; it stops here. Their last word: ${outcome.blocked}`);
			return undefined;
		}
		return outcome.blocked;
	}

	/** SessionStart: context for the first request. */
	async sessionStart(source: SessionStartSource): Promise<string | undefined> {
		return (await this.run({ event: "SessionStart", source })).context;
	}

	/** Starts SessionStart's hooks in the background (a new, resumed or cleared session). */
	beginSession(source: SessionStartSource): void {
		if (!this.deps.hooks.has("SessionStart")) return;
		this.starting = this.sessionStart(source).catch(() => undefined);
	}

	/** SessionStart's context, once: the first prompt waits for those hooks and carries it. */
	async takeStartContext(): Promise<string | undefined> {
		const starting = this.starting;
		this.starting = undefined;
		return starting ? await starting : undefined;
	}

	async sessionEnd(reason: SessionEndReason): Promise<void> {
		await this.run({ event: "SessionEnd", reason }, undefined, SESSION_END_SNAPSHOT_WAIT_MS);
	}

	async preCompact(trigger: CompactTrigger, customInstructions = ""): Promise<void> {
		await this.run({ event: "PreCompact", trigger, customInstructions });
	}

	/** Notification (an approval waits): nothing waits for these hooks. */
	notification(message: string, notificationType = "permission_prompt"): void {
		void this.run({ event: "Notification", message, notificationType });
	}

	/** The one notice for a project's hooks that do not run; undefined when every hook may run. */
	skippedNotice(how: string): string | undefined {
		return skippedHooksNotice(this.deps.hooks.skipped(), how);
	}
}

/** A hook's context as the model reads it beside the user's prompt. */
export function hookContextText(event: "UserPromptSubmit" | "SessionStart", context: string): string {
	return `<${event}-hook-context>\n${context}\n</${event}-hook-context>`;
}
