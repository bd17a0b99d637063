// The permission contract: modes, rules and the decision for one tool call. Pure data; the policy
// (policy.ts) turns a request into a decision, the gate (gate.ts) acts on it.

/**
 * - `auto` (the default where the sandbox works): commands run inside the sandbox without asking
 *   (workspace-only writes, no network); leaving it (running again outside, with network) and anything
 *   outside the workspace ask. Edits inside the workspace run. Without a sandbox, commands ask.
 * - `ask` (the default without a sandbox): reads inside the workspace run; every write, edit and command asks.
 * - `auto-edit`: writes inside the workspace run too; commands and anything outside ask.
 * - `plan`: nothing that writes or runs; reads inside the workspace run.
 * - `yolo`: nothing asks (deny rules still hold). Only when chosen explicitly.
 */
export type PermissionMode = "ask" | "auto-edit" | "auto" | "plan" | "yolo";

export const PERMISSION_MODES: readonly PermissionMode[] = ["ask", "auto-edit", "auto", "plan", "yolo"];

/** Strictest first: a project may move the mode left (narrow) but not right (widen) until trusted. */
export const MODE_STRICTNESS: Readonly<Record<PermissionMode, number>> = { plan: 0, ask: 1, "auto-edit": 2, auto: 3, yolo: 4 };

/**
 * What a call does, as far as the policy is concerned (`fetch`: web_fetch; `search`: web_search, allowed
 * for the whole session by one yes). Unknown tools (MCP, extensions) are `other`.
 */
export type ToolKind = "read" | "write" | "run" | "fetch" | "search" | "other";

/**
 * One `permissions.allow` / `permissions.deny` entry, parsed. `tool(pattern)` limits the rule to calls
 * whose command (bash) or path (file tools) matches `pattern`; a bare name (`bash`, `mcp__github__*`)
 * matches every call of the tools it names.
 */
/**
 * Where a rule lives: `session` (answered "always" this session), `project` (your approvals for this
 * folder, kept in your data folder), `project-settings` (the folder's .rudder/settings.json), `global`
 * (your settings.json), `flag` (--allow / --deny of this run).
 */
export type RuleScope = "session" | "project" | "project-settings" | "global" | "flag";

export const RULE_SCOPES: readonly RuleScope[] = ["session", "project", "project-settings", "global", "flag"];

export interface PermissionRule {
	/** Where it lives, for listing and removing it; absent for rules made in code (tests). */
	scope?: RuleScope;
	/** The file it is kept in (global, project-settings, project). */
	file?: string;
	/** The entry as written, for messages. */
	text: string;
	/** Glob on the tool name (`*` any run of characters). */
	tool: string;
	/** Absent: every call of the tool. */
	pattern?: string;
	/** Where the rule came from: a settings file path, a flag, "this session". */
	source: string;
	/**
	 * The pattern is a literal: the whole command line, or a real path, exactly. Rules made by "always
	 * allow" are exact, so `rm *.tmp` approved once never allows `rm -rf / x.tmp`.
	 */
	exact?: boolean;
}

export interface Workspace {
	/** Real paths (symlinks resolved) of the cwd first, then each `--add-dir` folder. */
	roots: readonly string[];
}

export interface PermissionPolicy {
	mode: PermissionMode;
	allow: readonly PermissionRule[];
	deny: readonly PermissionRule[];
	workspace: Workspace;
	/** Commands run in a working sandbox (bwrap): `auto` lets them run without asking. */
	sandboxed?: boolean;
}

export interface ToolRequest {
	tool: string;
	args: Record<string, unknown>;
}

/** `protected`: the ask is for a protected folder (.git, .rudder), which no hook's "allow" skips. */
export type Decision = { kind: "allow" } | { kind: "ask"; reason: string; protected?: true } | { kind: "deny"; reason: string };
