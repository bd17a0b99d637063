// What a hook's exit code and output mean (Claude Code's rules): exit 0 is success, its stdout read as
// JSON when it is a JSON object (`decision`, `reason`, `continue`, `stopReason`, `suppressOutput`,
// `hookSpecificOutput.permissionDecision` / `permissionDecisionReason` / `additionalContext`); exit 2
// blocks with stderr as the reason; any other code, a timeout or a failed start is an error shown to
// the user once, and blocks nothing. Text for the model is redacted; text for the screen is redacted
// and sanitised. Then the verdicts of one event's hooks are combined.
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import { redactSecrets } from "../../safety/secrets.js";
import { EVENT_FACTS } from "./events.js";
import type { HookProcessResult } from "./runner.js";
import type { HookCommand, HookOutcome, HookVerdict, PermissionDecision } from "./types.js";

/** Claude Code caps what a hook adds to the context at 10,000 characters; so do we. */
export const MAX_CONTEXT_CHARS = 10_000;
/** A notice is one line; the rest of a long reason is cut. */
const NOTICE_CHARS = 300;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const own = (o: Json, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);
const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

function forModel(value: string): string {
	const redacted = redactSecrets(value);
	return redacted.length > MAX_CONTEXT_CHARS
		? `${redacted.slice(0, MAX_CONTEXT_CHARS)}\n[... cut at ${MAX_CONTEXT_CHARS} characters]`
		: redacted;
}

/** How a hook is named on screen: its command, shortened, with its file. */
export function hookLabel(hook: HookCommand): string {
	const command = hook.command.length > 80 ? `${hook.command.slice(0, 77)}...` : hook.command;
	return `${hook.event} hook "${command}" (${hook.file})`;
}

function noticeLine(hook: HookCommand, what: string): string {
	const flat = what.replace(/\s+/g, " ").trim();
	const cut = flat.length > NOTICE_CHARS ? `${flat.slice(0, NOTICE_CHARS)}...` : flat;
	return sanitizeTerminalText(redactSecrets(`${hookLabel(hook)} ${cut}`));
}

function parseJsonOutput(stdout: string): Json | undefined {
	const trimmed = stdout.trim();
	if (!trimmed.startsWith("{")) return undefined;
	try {
		const value = JSON.parse(trimmed);
		return isObject(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

function permissionOf(value: unknown): PermissionDecision | undefined {
	return value === "allow" || value === "deny" || value === "ask" ? value : undefined;
}

export function hookVerdict(hook: HookCommand, run: HookProcessResult): HookVerdict {
	const base = { hook, exitCode: run.exitCode, durationMs: run.durationMs };
	const facts = EVENT_FACTS[hook.event];
	if (run.cancelled) return { ...base, status: "cancelled" };
	if (run.startError) return { ...base, status: "error", notice: noticeLine(hook, `could not start: ${run.startError}`) };
	if (run.timedOut)
		return { ...base, status: "timeout", notice: noticeLine(hook, `timed out after ${hook.timeoutSeconds} s and was stopped`) };
	if (run.exitCode === 2) {
		const reason = text(run.stderr) ?? `blocked by ${hookLabel(hook)} (exit code 2, no message)`;
		// Where exit 2 blocks nothing (SessionStart, SessionEnd, PreCompact, Notification) the user just sees it.
		const said = facts.block === "show-user" ? "said (exit code 2)" : "blocked";
		return { ...base, status: "blocked", reason: forModel(reason), notice: noticeLine(hook, `${said}: ${reason}`) };
	}
	if (run.exitCode !== 0) {
		const detail = text(run.stderr) ?? text(run.stdout) ?? "no output";
		return { ...base, status: "error", notice: noticeLine(hook, `failed (exit code ${run.exitCode}): ${detail}`) };
	}
	const json = parseJsonOutput(run.stdout);
	if (!json) {
		const plain = facts.stdoutIsContext ? text(run.stdout) : undefined;
		return { ...base, status: "ok", ...(plain ? { context: forModel(plain) } : {}) };
	}
	return readJsonVerdict(base, json);
}

function readJsonVerdict(base: Pick<HookVerdict, "hook" | "exitCode" | "durationMs">, json: Json): HookVerdict {
	const { hook } = base;
	const specific = isObject(own(json, "hookSpecificOutput")) ? (own(json, "hookSpecificOutput") as Json) : {};
	const verdict: HookVerdict = { ...base, status: "ok" };
	const context = text(own(specific, "additionalContext"));
	if (context) verdict.context = forModel(context);
	if (own(json, "continue") === false) {
		const reason = text(own(json, "stopReason")) ?? "a hook stopped the run";
		verdict.stop = sanitizeTerminalText(redactSecrets(reason));
		verdict.notice = noticeLine(hook, `stopped the run: ${reason}`);
	}
	const reason = text(own(specific, "permissionDecisionReason")) ?? text(own(json, "reason"));
	if (hook.event === "PreToolUse") {
		// `decision: approve/block` is Claude Code's older spelling of allow/deny.
		const old = own(json, "decision");
		const permission =
			permissionOf(own(specific, "permissionDecision")) ?? (old === "approve" ? "allow" : old === "block" ? "deny" : undefined);
		if (permission) verdict.permission = permission;
		if (reason && permission) verdict.reason = forModel(reason);
		if (permission === "deny") {
			verdict.reason ??= forModel(`denied by ${hookLabel(hook)}`);
			verdict.status = "blocked";
			verdict.notice = noticeLine(hook, `denied the call${reason ? `: ${reason}` : ""}`);
		}
		return verdict;
	}
	if (own(json, "decision") === "block") {
		verdict.status = "blocked";
		verdict.reason = forModel(reason ?? `blocked by ${hookLabel(hook)}`);
		verdict.notice ??= noticeLine(hook, `blocked${reason ? `: ${reason}` : ""}`);
	}
	return verdict;
}

const PERMISSION_RANK: Record<PermissionDecision, number> = { allow: 1, ask: 2, deny: 3 };

/** One event's verdicts together: deny over ask over allow, every block reason and context kept. */
export function combineVerdicts(verdicts: HookVerdict[]): HookOutcome {
	const outcome: HookOutcome = { verdicts, notices: [] };
	const blocks: string[] = [];
	const contexts: string[] = [];
	const permissionReasons: string[] = [];
	for (const v of verdicts) {
		if (v.notice) outcome.notices.push(v.notice);
		if (v.context) contexts.push(v.context);
		if (v.stop && outcome.stop === undefined) outcome.stop = v.stop;
		if (v.permission && (!outcome.permission || PERMISSION_RANK[v.permission] > PERMISSION_RANK[outcome.permission])) {
			outcome.permission = v.permission;
		}
		if (v.status === "blocked" && v.reason) blocks.push(v.reason);
	}
	for (const v of verdicts) if (v.permission && v.permission === outcome.permission && v.reason) permissionReasons.push(v.reason);
	if (blocks.length > 0) outcome.blocked = blocks.join("\n");
	if (contexts.length > 0) outcome.context = contexts.join("\n\n");
	if (outcome.permission && permissionReasons.length > 0) outcome.permissionReason = permissionReasons.join("\n");
	return outcome;
}

/** PreToolUse's outcome as the permission gate takes it: a block is a deny, else the combined decision. */
export function toolCallVerdict(outcome: HookOutcome): { decision: PermissionDecision; reason?: string } | undefined {
	if (outcome.blocked !== undefined) return { decision: "deny", reason: outcome.blocked };
	if (outcome.permission)
		return { decision: outcome.permission, ...(outcome.permissionReason ? { reason: outcome.permissionReason } : {}) };
	return undefined;
}
