// The gate between the model's tool calls and their execution: the Agent's `beforeToolCall` hook asks
// the policy, and when the policy says "ask", asks the user (one prompt at a time, in call order) or,
// where nobody can answer (print, json), denies with the flag that would allow the call. After a
// sandboxed command fails the way a sandbox makes commands fail, it may ask to run it outside.
// The user's PreToolUse hooks (src/extensions/hooks, through `toolHook`) are asked after the deny rules
// and the mode's limits, which no hook can lift: their "deny" refuses, "ask" forces the prompt, and
// "allow" skips it, except for a protected folder.
import { statSync } from "node:fs";
import { dirname } from "node:path";
import type {
	AfterToolCallContext,
	AfterToolCallResult,
	AgentToolResult,
	BeforeToolCallContext,
	BeforeToolCallResult,
} from "../agent/types.js";
import { decide, needsShellParser, type Target, targetOf } from "./policy.js";
import { type ApprovalPreview, previewCall } from "./preview.js";
import { loadShellParser } from "./shell-parse.js";
import type { PermissionMode, PermissionPolicy, PermissionRule, ToolRequest } from "./types.js";

export interface ApprovalRequest {
	id: string;
	toolCallId: string;
	tool: string;
	args: unknown;
	/** Why it asks: "commands ask first", "… is outside the workspace", "failed inside the sandbox". */
	reason: string;
	/** `call`: run this call. `unsandboxed`: run this command again, outside the sandbox. */
	kind: "call" | "unsandboxed";
	preview: ApprovalPreview;
	/** The rule "always" would save (`bash(npm test)`), for the prompt to show before it is saved. */
	rule?: string;
}

export type ApprovalResponse =
	/** `network` (for `unsandboxed` requests only): run it again inside the sandbox, with network, instead of outside. */
	| { decision: "allow"; network?: boolean }
	/** Allow, and add an exact rule for calls like this one: for this session, or this project. */
	| { decision: "always"; scope?: "session" | "project" }
	/** Deny; `reason` goes to the model as the tool result. */
	| { decision: "deny"; reason?: string };

/** What the user's PreToolUse hooks said about a call; undefined when none had a say. */
export interface ToolHookVerdict {
	decision: "allow" | "deny" | "ask";
	/** For the model on deny, for the prompt on ask. */
	reason?: string;
}

export interface GateHost {
	/** The user's PreToolUse hooks; the signal (Esc) stops them. */
	toolHook?: (call: { id: string; tool: string; args: unknown }, signal?: AbortSignal) => Promise<ToolHookVerdict | undefined>;
	/** Asks the user; undefined where nobody can answer (print, json). */
	ask?: (request: ApprovalRequest, signal?: AbortSignal) => Promise<ApprovalResponse>;
	/** Stores a project rule (in the user's data folder). */
	saveProjectRule(rule: PermissionRule): void;
	/** Which sandbox `bash` runs in right now. */
	sandbox(): "bwrap" | "none";
	network: boolean;
	/** Runs a bash call again without the sandbox. */
	/** Runs a bash call again outside the sandbox, or (`network`) inside it with the network on. */
	runUnsandboxed?(
		toolCallId: string,
		args: unknown,
		signal: AbortSignal | undefined,
		how: "outside" | "network",
	): Promise<{ result: AgentToolResult<any>; isError: boolean }>;
	/** For the denial text of print/json: "print mode", "json mode". */
	modeName: string;
	/** Called when the mode or the rules change. */
	onChange?(): void;
	/**
	 * What the sandbox itself observed of this call's command hitting its walls (see sandbox.ts
	 * `evidence`), taken once; the only ground for offering to run a command outside it.
	 */
	sandboxEvidence(toolCallId: string): string | undefined;
}

/** The tools that open the checked real path, and so take it (`takeCheckedPath`). */
const PINNED_TOOLS = new Set(["read", "write", "edit"]);

/** Shell-safe single quoting for a suggested flag. */
function quoted(text: string): string {
	return /[$`"\\!\n]/.test(text) ? `'${text.replace(/'/g, "'\\''")}'` : `"${text}"`;
}

/** The first words of a command as a rule (`npm test*`), the way a user would allow a family of runs. */
/** The exact rule an "always" answer saves for this call; the prompt shows its text before saving it. */
function exactRule(request: ToolRequest, target: Target): Omit<PermissionRule, "source" | "scope"> {
	const fetch = target.kind === "fetch";
	const pattern = target.kind === "run" ? target.command?.trim() : fetch ? `domain:${target.host}` : target.path;
	const text = pattern === undefined ? request.tool : `${request.tool}(${pattern})`;
	// A domain rule is matched as a domain pattern (it names one host, no wildcard).
	const exact = !fetch;
	return pattern === undefined ? { text, tool: request.tool, exact } : { text, tool: request.tool, exact, pattern };
}

export function suggestCommandRule(command: string): string {
	const words = command.trim().split(/\s+/);
	const kept = words.length > 1 && !words[1].startsWith("-") && /^[\w.:/-]+$/.test(words[1]) ? words.slice(0, 2) : words.slice(0, 1);
	return `bash(${kept.join(" ")}*)`;
}

export class PermissionGate {
	private readonly policy: {
		mode: PermissionMode;
		allow: PermissionRule[];
		deny: PermissionRule[];
		workspace: PermissionPolicy["workspace"];
	};
	private readonly host: GateHost;
	/** Prompts are asked one at a time; each waits for the one before it. */
	private queue: Promise<unknown> = Promise.resolve();
	/** Real paths decided on for read, write and edit calls allowed to run, by tool call id (see `takeCheckedPath`). */
	private readonly checked = new Map<string, string>();
	private nextId = 0;

	constructor(policy: PermissionPolicy, host: GateHost) {
		this.policy = { ...policy, allow: [...policy.allow], deny: [...policy.deny] };
		this.host = host;
	}

	get mode(): PermissionMode {
		return this.policy.mode;
	}

	get workspace(): readonly string[] {
		return this.policy.workspace.roots;
	}

	get rules(): { allow: readonly PermissionRule[]; deny: readonly PermissionRule[] } {
		return { allow: this.policy.allow, deny: this.policy.deny };
	}

	/** Puts a rule in force now (rudder permissions / the /permissions screen persist it themselves). */
	addLiveRule(kind: "allow" | "deny", rule: PermissionRule): void {
		this.policy[kind].push(rule);
		this.host.onChange?.();
	}

	/** Takes the rules `drop` picks out of force; returns how many. */
	removeLiveRules(kind: "allow" | "deny", drop: (rule: PermissionRule) => boolean): number {
		const before = this.policy[kind].length;
		this.policy[kind] = this.policy[kind].filter((r) => !drop(r));
		if (this.policy[kind].length !== before) this.host.onChange?.();
		return before - this.policy[kind].length;
	}

	setMode(mode: PermissionMode): void {
		this.policy.mode = mode;
		this.host.onChange?.();
	}

	decide(request: ToolRequest) {
		return decide(request, this.current());
	}

	/**
	 * The real path this call's permission was decided on, taken once by read/write/edit: they open that
	 * file or fail, so a folder swapped for a symlink after the check (while a prompt waited, or by a
	 * command of the same reply) cannot send them elsewhere.
	 */
	takeCheckedPath(toolCallId: string): string | undefined {
		const path = this.checked.get(toolCallId);
		this.checked.delete(toolCallId);
		return path;
	}

	readonly beforeToolCall = async (ctx: BeforeToolCallContext, signal?: AbortSignal): Promise<BeforeToolCallResult | undefined> => {
		const request: ToolRequest = { tool: ctx.toolCall.name, args: (ctx.args ?? {}) as Record<string, unknown> };
		const target = targetOf(request, this.policy);
		// Command rules are judged on a parse; the parser loads on the first command that needs it.
		if (target.kind === "run" && needsShellParser(this.policy)) await loadShellParser().catch(() => undefined);
		const verdict = await this.verdict(ctx, request, target, signal);
		if (verdict === undefined && target.path !== undefined && PINNED_TOOLS.has(request.tool)) {
			// Bounded: an entry is taken when its call runs; calls that never ran leave few.
			if (this.checked.size > 1000) this.checked.clear();
			this.checked.set(ctx.toolCall.id, target.path);
		}
		return verdict;
	};

	private async verdict(
		ctx: BeforeToolCallContext,
		request: ToolRequest,
		target: Target,
		signal?: AbortSignal,
	): Promise<BeforeToolCallResult | undefined> {
		const decision = decide(request, this.current(), target);
		if (decision.kind === "deny") return { block: true, reason: decision.reason };
		const hook = this.host.toolHook
			? await this.host.toolHook({ id: ctx.toolCall.id, tool: request.tool, args: request.args }, signal)
			: undefined;
		if (signal?.aborted) return { block: true, reason: "The run was stopped." };
		if (hook?.decision === "deny") return { block: true, reason: `A hook refused this call: ${hook.reason ?? "no reason given"}` };
		const hookAsks = hook?.decision === "ask";
		if (decision.kind === "allow" && !hookAsks) return undefined;
		if (decision.kind === "ask" && hook?.decision === "allow" && !decision.protected) return undefined;
		const reason = hookAsks ? `a hook asks first${hook.reason ? `: ${hook.reason}` : ""}` : decision.kind === "ask" ? decision.reason : "";
		if (!this.host.ask) return { block: true, reason: this.cannotAsk(request, target, reason) };
		const response = await this.ask(
			{
				toolCallId: ctx.toolCall.id,
				tool: request.tool,
				args: request.args,
				reason,
				kind: "call",
				preview: previewCall(request.tool, request.args, { cwd: this.cwd, sandbox: this.host.sandbox(), network: this.host.network }),
				rule: exactRule(request, target).text,
			},
			signal,
		);
		if (response.decision === "deny") return { block: true, reason: deniedText(response.reason) };
		if (response.decision === "always") this.addRule(request, target, response.scope ?? "session");
		// One yes to web search holds for the session: the next requests let the provider search itself.
		else if (target.kind === "search") this.addRule(request, target, "session");
		return undefined;
	}

	/**
	 * A sandboxed command that failed where the sandbox saw it hit its walls may run again outside it,
	 * if the user says so. Only the sandbox's own observation counts, never the command's output: a
	 * repository's script can print "EROFS" at will.
	 */
	readonly afterToolCall = async (ctx: AfterToolCallContext, signal?: AbortSignal): Promise<AfterToolCallResult | undefined> => {
		if (ctx.toolCall.name !== "bash" || this.host.sandbox() === "none") return undefined;
		const evidence = this.host.sandboxEvidence(ctx.toolCall.id);
		if (!ctx.isError || evidence === undefined) return undefined;
		const output = ctx.result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
		const note = `\n\n[This command ran in a sandbox: only the workspace and /tmp are writable, .git and .rudder are read-only, and there is no network; ${evidence}.]`;
		if (!this.host.ask || !this.host.runUnsandboxed || signal?.aborted) return { content: [{ type: "text", text: output + note }] };
		const command = String((ctx.args as { command?: unknown })?.command ?? "");
		const response = await this.ask(
			{
				toolCallId: ctx.toolCall.id,
				tool: "bash",
				args: ctx.args,
				reason: `it failed inside the sandbox (${evidence}); run it again outside the sandbox (full file system and network)?`,
				kind: "unsandboxed",
				preview: { type: "command", command, sandbox: "none", network: true },
			},
			signal,
		);
		if (response.decision === "deny") {
			const why = response.reason ? ` The user said: ${response.reason}` : "";
			return { content: [{ type: "text", text: `${output}${note}\nThe user did not allow running it outside the sandbox.${why}` }] };
		}
		const how = response.decision === "allow" && response.network === true ? "network" : "outside";
		const rerun = await this.host.runUnsandboxed(ctx.toolCall.id, ctx.args, signal, how);
		return { content: rerun.result.content, details: rerun.result.details, isError: rerun.isError };
	};

	/** The policy with whether commands run sandboxed right now (auto mode lets those run). */
	private current(): PermissionPolicy {
		return { ...this.policy, sandboxed: this.host.sandbox() === "bwrap" };
	}

	private get cwd(): string {
		return this.policy.workspace.roots[0] ?? process.cwd();
	}

	private ask(request: Omit<ApprovalRequest, "id">, signal?: AbortSignal): Promise<ApprovalResponse> {
		const ask = this.host.ask as NonNullable<GateHost["ask"]>;
		const full: ApprovalRequest = { id: `approval-${++this.nextId}`, ...request };
		const turn = this.queue.then(() => (signal?.aborted ? ({ decision: "deny" } as const) : ask(full, signal)));
		this.queue = turn.catch(() => undefined);
		return turn;
	}

	private addRule(request: ToolRequest, target: Target, scope: "session" | "project"): void {
		const rule: PermissionRule = {
			...exactRule(request, target),
			source: scope === "session" ? "this session" : "this project",
			scope: scope === "session" ? "session" : "project",
		};
		this.policy.allow.push(rule);
		if (scope === "project") this.host.saveProjectRule(rule);
		this.host.onChange?.();
	}

	/** The error result for print / json: what was not run and the flag that would allow it. */
	private cannotAsk(request: ToolRequest, target: Target, reason: string): string {
		const flags: string[] = [];
		if (target.kind === "run") flags.push(`--allow ${quoted(suggestCommandRule(target.command ?? ""))}`);
		else if (target.kind === "fetch") flags.push(`--allow ${quoted(`web_fetch(domain:${target.host})`)}`);
		else if (target.kind === "write" && target.inside)
			flags.push("--permission-mode auto-edit", `--allow ${quoted(`edit(${target.shownPath})`)}`);
		else if (target.path && !target.inside) flags.push(`--add-dir ${quoted(folderOf(target.path))}`);
		else flags.push(`--allow ${quoted(request.tool)}`);
		const what =
			target.kind === "run" ? `the command \`${target.command}\`` : target.shownPath ? `${request.tool} ${target.shownPath}` : request.tool;
		return `Not run: ${what} needs the user's approval (${reason}), and ${this.host.modeName} cannot ask. To allow it, run rudder with ${flags.join(" or ")}.`;
	}
}

/** The folder to add for a path outside the workspace: the path itself when it is a folder. */
function folderOf(path: string): string {
	try {
		return statSync(path).isDirectory() ? path : dirname(path);
	} catch {
		return dirname(path);
	}
}

function deniedText(reason: string | undefined): string {
	const trimmed = reason?.trim();
	return trimmed ? `The user denied this call: ${trimmed}` : "The user denied this call.";
}
