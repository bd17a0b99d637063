// `permissions.allow` / `permissions.deny` entries: parsing and matching. `bash(npm test*)` matches a
// command, `edit(src/**)` a path, `mcp__github__*` every call of the tools it names.
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import type { PermissionRule } from "./types.js";
import { isUnder } from "./workspace.js";

const RULE = /^([A-Za-z0-9_*.-]+)(?:\((.*)\))?$/s;

/** Rule names that stand for a family of built-in tools, as users think of them. */
const TOOL_FAMILIES: Record<string, readonly string[]> = {
	read: ["read", "grep", "find", "ls"],
	edit: ["edit", "write"],
	write: ["edit", "write"],
};

/** Parses one entry; throws one line naming the entry and the expected shape. */
export function parseRule(text: string, source: string): PermissionRule {
	const match = RULE.exec(text.trim());
	if (!match || match[2] === "") {
		throw new Error(`${source}: permission rule "${text}" must be a tool name or tool(pattern), e.g. "bash(npm test*)" or "edit(src/**)"`);
	}
	const rule: PermissionRule = { text, tool: match[1].toLowerCase(), source };
	if (match[2] !== undefined) rule.pattern = match[2];
	return rule;
}

/** Escapes a literal for a RegExp. */
function literal(text: string): string {
	return text.replace(/[.+^${}()|[\]\\?*]/g, "\\$&");
}

/** Patterns compiled once: every tool call is checked against every rule. */
const compiled = new Map<string, RegExp>();
function memo(key: string, build: () => RegExp): RegExp {
	let re = compiled.get(key);
	if (!re) {
		re = build();
		if (compiled.size > 1000) compiled.clear();
		compiled.set(key, re);
	}
	return re;
}

/** `*` matches any run of characters (names and commands have no folders). */
function wildcard(pattern: string): RegExp {
	return memo(`w:${pattern}`, () => new RegExp(`^${pattern.split("*").map(literal).join("[\\s\\S]*")}$`, "i"));
}

/** `**` crosses folders, `*` and `?` stay within one name. */
export function pathGlob(pattern: string): RegExp {
	return memo(`p:${pattern}`, () => compilePathGlob(pattern));
}

function compilePathGlob(pattern: string): RegExp {
	let out = "";
	for (let i = 0; i < pattern.length; i++) {
		const ch = pattern[i];
		if (ch === "*" && pattern[i + 1] === "*") {
			const slash = pattern[i + 2] === "/";
			out += slash ? "(?:[^/]*/)*" : ".*";
			i += slash ? 2 : 1;
		} else if (ch === "*") out += "[^/]*";
		else if (ch === "?") out += "[^/]";
		else out += literal(ch);
	}
	return new RegExp(`^${out}$`);
}

export function ruleNamesTool(rule: PermissionRule, tool: string): boolean {
	const family = TOOL_FAMILIES[rule.tool];
	if (family) return family.includes(tool.toLowerCase());
	return wildcard(rule.tool).test(tool);
}

/**
 * A command pattern: `*` matches anything; a trailing `:*` (Claude Code's prefix form) matches the
 * words before it alone or followed by arguments.
 */
export function commandMatches(pattern: string, command: string): boolean {
	const trimmed = command.trim();
	if (pattern.endsWith(":*")) {
		const prefix = pattern.slice(0, -2);
		return wildcard(prefix).test(trimmed) || wildcard(`${prefix} *`).test(trimmed);
	}
	return wildcard(pattern).test(trimmed);
}

/**
 * A web_fetch pattern, `domain:docs.python.org` (`*` a run of characters: `domain:*.python.org`),
 * against the host a URL names.
 */
export function domainMatches(pattern: string, host: string): boolean {
	if (!pattern.toLowerCase().startsWith("domain:")) return false;
	return wildcard(pattern.slice("domain:".length).trim()).test(host);
}

/** Whether `pattern` names `host` itself, no wildcard: what lets a fetch reach a private address. */
export function domainNames(pattern: string, host: string): boolean {
	return pattern.toLowerCase().startsWith("domain:") && pattern.slice("domain:".length).trim().toLowerCase() === host;
}

/**
 * A path pattern, against the real path of the target. Relative patterns are relative to the cwd (and
 * match nothing outside it); absolute and `~/` patterns match the absolute path.
 */
export function pathMatches(pattern: string, realPath: string, cwd: string): boolean {
	const expanded = pattern === "~" ? homedir() : pattern.startsWith("~/") ? resolve(homedir(), pattern.slice(2)) : pattern;
	if (isAbsolute(expanded)) return pathGlob(expanded).test(realPath);
	if (!isUnder(cwd, realPath)) return false;
	const rel = realPath === cwd ? "." : realPath.slice(cwd.endsWith("/") ? cwd.length : cwd.length + 1);
	return pathGlob(expanded.replace(/^\.\//, "")).test(rel);
}

/**
 * The simple commands of a command line, split at `;`, `&&`, `||`, `|`, `&` and newlines outside
 * quotes. Undefined when the line holds something a rule cannot vouch for: command substitution
 * (`$(…)`, backticks), process substitution, or a redirect, any of which can run or write more than
 * the words a pattern sees.
 */
export function splitCommand(command: string): string[] | undefined {
	const parts: string[] = [];
	let current = "";
	let quote: "'" | '"' | undefined;
	for (let i = 0; i < command.length; i++) {
		const ch = command[i];
		const next = command[i + 1];
		if (quote === "'") {
			if (ch === "'") quote = undefined;
			current += ch;
			continue;
		}
		if (ch === "\\") {
			current += ch + (next ?? "");
			i++;
			continue;
		}
		if (ch === "`" || (ch === "$" && next === "(")) return undefined;
		if (quote === '"') {
			if (ch === '"') quote = undefined;
			current += ch;
			continue;
		}
		if (ch === "'" || ch === '"') {
			quote = ch;
			current += ch;
			continue;
		}
		if (ch === "<" || ch === ">") return undefined;
		if (ch === ";" || ch === "&" || ch === "|" || ch === "\n" || ch === "\r") {
			parts.push(current);
			current = "";
			if ((ch === "&" || ch === "|") && next === ch) i++;
			continue;
		}
		if (ch === "(" || ch === ")" || ch === "{" || ch === "}") return undefined;
		current += ch;
	}
	if (quote) return undefined;
	parts.push(current);
	return parts.map((p) => p.trim()).filter((p) => p !== "");
}
