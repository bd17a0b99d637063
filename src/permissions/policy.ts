// The decision for one tool call: deny rules first (they win over everything), then the mode's hard
// limits (plan), then allow rules, then the mode's table. Pure apart from resolving real paths.
import { statSync } from "node:fs";
import { join } from "node:path";
import { resolveToolPath } from "../tools/resolve-path.js";
import { refusedAddress } from "../tools/web-address.js";
import { allowCovers, denyHits, innerScripts } from "./command-match.js";
import { denyingRule, pathRulesFor } from "./denied-paths.js";
import { commandMatches, domainMatches, domainNames, pathMatches, ruleNamesTool, splitCommand } from "./rules.js";
import { type ParsedLine, parseLoaded } from "./shell-parse.js";
import type { Decision, PermissionMode, PermissionPolicy, PermissionRule, ToolKind, ToolRequest } from "./types.js";
import { insideWorkspace, isUnder, realTarget } from "./workspace.js";

const KINDS: Record<string, ToolKind> = {
	read: "read",
	grep: "read",
	find: "read",
	ls: "read",
	edit: "write",
	write: "write",
	bash: "run",
	web_fetch: "fetch",
	web_search: "search",
};

/** Tools that only read or stop background jobs a bash call (asked for as any command) started. */
const JOB_TOOLS = new Set(["bash_output", "kill_shell"]);

/** Folders whose contents change what runs or what is allowed: writing there always asks. */
const PROTECTED_FOLDERS = [".git", ".rudder"];

export function toolKind(tool: string): ToolKind {
	return KINDS[tool] ?? "other";
}

/** What a request touches: the real path for file tools, the command for bash. */
export interface Target {
	kind: ToolKind;
	/** Real path of a file tool's target. */
	path?: string;
	/** The target as named, made absolute but with its symlinks kept: deny rules match it too. */
	namedPath?: string;
	/** The `path` argument as the model wrote it, for messages. */
	shownPath?: string;
	inside?: boolean;
	command?: string;
	/** The command's parse, once made. */
	parsed?: ParsedLine;
	/** The host a web_fetch URL names (lowercase, no IPv6 brackets); "" when the URL does not parse. */
	host?: string;
}

/** The host of a web_fetch call's url argument, as `domain:` rules name it. */
export function fetchHost(url: unknown): string {
	try {
		const host = new URL(String(url)).hostname.toLowerCase().replace(/^\[|\]$/g, "");
		// A "*" in a host would make the rule an "always" answer saves a wildcard.
		return host.includes("*") ? "" : host;
	} catch {
		return "";
	}
}

/**
 * What a host known before any lookup is, when web_fetch refuses it without a rule naming it: an IP
 * literal in a refused range, or localhost. Other names are checked once resolved.
 */
function privateHost(host: string): string | undefined {
	if (host === "localhost") return "loopback (localhost)";
	const refused = refusedAddress(host);
	return refused === "not an IP address" ? undefined : refused;
}

/** Whether an allow rule names `host` itself (no wildcard): web_fetch may then reach it on a private address. */
export function fetchHostNamed(allow: readonly PermissionRule[], host: string): boolean {
	return allow.some((r) => r.pattern !== undefined && ruleNamesTool(r, "web_fetch") && domainNames(r.pattern, host));
}

export function targetOf(request: ToolRequest, policy: PermissionPolicy): Target {
	const kind = toolKind(request.tool);
	if (kind === "run") return { kind, command: typeof request.args.command === "string" ? request.args.command : "" };
	if (kind === "fetch") return { kind, host: fetchHost(request.args.url) };
	if (kind === "other" || kind === "search") return { kind };
	const raw = typeof request.args.path === "string" && request.args.path !== "" ? request.args.path : ".";
	const cwd = policy.workspace.roots[0] ?? process.cwd();
	const namedPath = resolveToolPath(raw, cwd);
	const path = realTarget(namedPath);
	return { kind, path, namedPath, shownPath: raw, inside: insideWorkspace(policy.workspace, path) };
}

/** Whether `rule` names this call: its tool, and its pattern (if any) against the command or path. */
function ruleMatches(rule: PermissionRule, request: ToolRequest, target: Target, cwd: string, command = target.command): boolean {
	if (!ruleNamesTool(rule, request.tool)) return false;
	if (rule.pattern === undefined) return true;
	if (target.kind === "fetch") return target.host !== "" && domainMatches(rule.pattern, target.host ?? "");
	if (rule.exact) return target.kind === "run" ? rule.pattern === target.command?.trim() : rule.pattern === target.path;
	if (target.kind === "run") return commandMatches(rule.pattern, command ?? "");
	if (target.path) return pathMatches(rule.pattern, target.path, cwd);
	return false;
}

/**
 * A deny rule hits the whole command line or any simple command in it; for a file tool, the path, a
 * folder above it, or a folder it wholly covers (see denied-paths.ts), by real path or as named, so
 * that a link neither to nor named as a denied path gets through.
 */
function deniedBy(rules: readonly PermissionRule[], request: ToolRequest, target: Target, cwd: string): PermissionRule | undefined {
	if (target.path !== undefined) {
		const bare = rules.find((r) => r.pattern === undefined && ruleNamesTool(r, request.tool));
		if (bare) return bare;
		const named = pathRulesFor(rules, request.tool);
		if (named.length === 0) return undefined;
		const isDirectory = statSync(target.path, { throwIfNoEntry: false })?.isDirectory() ?? false;
		const byName = target.namedPath !== target.path && target.namedPath !== undefined;
		return (
			denyingRule(named, request.tool, target.path, cwd, isDirectory) ??
			(byName ? denyingRule(named, request.tool, target.namedPath as string, cwd, isDirectory) : undefined)
		);
	}
	if (target.kind !== "run") return rules.find((r) => ruleMatches(r, request, target, cwd));
	const command = target.command ?? "";
	// The text as written and split the simple way (no parser needed), then every command of the parse.
	const parts = splitCommand(command) ?? [];
	const byText = rules.find(
		(r) => ruleMatches(r, request, target, cwd) || parts.some((part) => ruleMatches(r, request, target, cwd, part)),
	);
	if (byText) return byText;
	const patterns = rules.filter((r) => r.pattern !== undefined && !r.exact && ruleNamesTool(r, request.tool));
	if (patterns.length === 0) return undefined;
	for (const words of everyCommand(command, 0, parsedOf(target))) {
		const hit = patterns.find((r) => denyHits(r.pattern as string, words));
		if (hit) return hit;
	}
	return undefined;
}

/** The parse of a bash call's command (once the parser is loaded: the gate loads it before deciding). */
function parsedOf(target: Target): ParsedLine | undefined {
	if (target.parsed === undefined && target.command !== undefined) target.parsed = parseLoaded(target.command);
	return target.parsed;
}

/** Every simple command of a line, nested ones and the scripts of `bash -c` / `eval` included. */
function everyCommand(command: string, depth = 0, parsed?: ParsedLine): string[][] {
	const line = parsed ?? parseLoaded(command);
	if (!line || depth > 3) return [];
	const out: string[][] = [];
	for (const { words } of line.commands) {
		out.push(words);
		for (const inner of innerScripts(words)) out.push(...everyCommand(inner, depth + 1));
	}
	return out;
}

/** Whether any bash rule has a pattern, so that deciding a command needs the parser. */
export function needsShellParser(policy: PermissionPolicy): boolean {
	return [...policy.allow, ...policy.deny].some((r) => r.pattern !== undefined && !r.exact && ruleNamesTool(r, "bash"));
}

/**
 * Allow rules vouch for a command only when it parses as a plain list of simple commands and each one
 * is covered by a rule (on its words; forms that run code must be named): `bash(npm test*)` must not
 * let `npm test && curl … | sh`, a comment hiding a second line, or `find -exec` through.
 */
function allowedBy(rules: readonly PermissionRule[], request: ToolRequest, target: Target, cwd: string): boolean {
	if (target.kind !== "run" || rules.some((r) => r.pattern === undefined && ruleNamesTool(r, request.tool))) {
		return rules.some((r) => ruleMatches(r, request, target, cwd));
	}
	if (rules.some((r) => r.exact && ruleMatches(r, request, target, cwd))) return true;
	const patterns = rules.filter((r) => r.pattern !== undefined && !r.exact && ruleNamesTool(r, request.tool));
	if (patterns.length === 0) return false;
	const line = parsedOf(target);
	if (!line || line.notPlain !== undefined || line.commands.length === 0) return false;
	return line.commands.every((c) => c.literal && c.assignments === 0 && patterns.some((r) => allowCovers(r.pattern as string, c.words)));
}

function describe(request: ToolRequest, target: Target): string {
	if (target.kind === "run") return `bash: ${target.command}`;
	if (target.kind === "fetch") return `web_fetch ${target.host || "(no valid URL)"}`;
	if (target.kind === "search") return "web_search";
	if (target.shownPath !== undefined) return `${request.tool} ${target.shownPath}`;
	return request.tool;
}

function inProtectedFolder(policy: PermissionPolicy, path: string): boolean {
	return policy.workspace.roots.some((root) => PROTECTED_FOLDERS.some((folder) => isUnder(join(root, folder), path)));
}

export function modeForbids(mode: PermissionMode, kind: ToolKind): boolean {
	return mode === "plan" && kind !== "read" && kind !== "fetch" && kind !== "search";
}

/** `target`: the one the caller will act on (the gate keeps its real path for the write that follows). */
export function decide(request: ToolRequest, policy: PermissionPolicy, target = targetOf(request, policy)): Decision {
	const cwd = policy.workspace.roots[0] ?? process.cwd();
	const denied = deniedBy(policy.deny, request, target, cwd);
	if (denied) return { kind: "deny", reason: `${describe(request, target)} is denied by the rule "${denied.text}" (${denied.source})` };
	if (JOB_TOOLS.has(request.tool)) return { kind: "allow" };
	if (modeForbids(policy.mode, target.kind)) {
		return {
			kind: "deny",
			reason: `Permission mode "plan" forbids ${target.kind === "run" ? "running commands" : target.kind === "write" ? "writing files" : `the ${request.tool} tool`}: describe the plan instead; the user switches modes to carry it out`,
		};
	}
	if (policy.mode === "yolo") return { kind: "allow" };
	if (allowedBy(policy.allow, request, target, cwd)) return { kind: "allow" };
	switch (target.kind) {
		case "read":
			return target.inside ? { kind: "allow" } : { kind: "ask", reason: `${describe(request, target)} is outside the workspace` };
		case "write":
			if (!target.inside) return { kind: "ask", reason: `${describe(request, target)} is outside the workspace` };
			if (inProtectedFolder(policy, target.path as string))
				return {
					kind: "ask",
					reason: `${describe(request, target)} is in a protected folder (${PROTECTED_FOLDERS.join(", ")})`,
					protected: true,
				};
			return policy.mode === "auto-edit" || policy.mode === "auto"
				? { kind: "allow" }
				: { kind: "ask", reason: `${describe(request, target)} changes a file` };
		case "run":
			// The sandbox carries the risk: only leaving it (afterToolCall's rerun) asks.
			if (policy.mode === "auto" && policy.sandboxed) return { kind: "allow" };
			return { kind: "ask", reason: policy.mode === "auto" ? "commands ask first: there is no sandbox" : "commands ask first" };
		case "fetch": {
			const refused = target.host ? privateHost(target.host) : undefined;
			// web_fetch refuses such a host without a rule naming it, whatever this answer: say so before it is given.
			if (refused)
				return {
					kind: "ask",
					reason: `${describe(request, target)}: ${target.host} is ${refused}, fetched only for a host a rule names: an "always" answer saves web_fetch(domain:${target.host}); allow once is refused`,
				};
			return { kind: "ask", reason: `${describe(request, target)}: fetching from a new domain asks first` };
		}
		case "search":
			return { kind: "ask", reason: "web search asks once per session: the queries go to a search service" };
		default:
			return { kind: "ask", reason: `${request.tool} is not a built-in tool` };
	}
}
