// Deny rules on paths hold for everything a tool can reach, not only for the path a call names: a rule
// that matches a folder covers what is in it, and a folder whose every possible entry a rule matches
// (`secrets/**`) counts as denied itself. The policy checks a call's target this way; grep, find and
// ls check every entry they walk (see tools/denied-paths.ts); the sandbox hides what the rules name.
import { dirname, join } from "node:path";
import { pathMatches, ruleNamesTool } from "./rules.js";
import type { PermissionRule } from "./types.js";

/** A name no real file can have (NUL): a rule that matches it matches every entry of the folder. */
const ANY_ENTRY = "\u0000";

/** Whether `rule`'s pattern matches `realPath` itself, or every entry of it when it is a folder. */
export function patternHits(rule: PermissionRule, realPath: string, cwd: string, isDirectory: boolean): boolean {
	if (rule.pattern === undefined) return true;
	if (rule.exact) return rule.pattern === realPath;
	if (pathMatches(rule.pattern, realPath, cwd)) return true;
	return isDirectory && pathMatches(rule.pattern, join(realPath, ANY_ENTRY), cwd);
}

/** The first of `rules` naming `tool` that covers `realPath`: the path, a folder above it, or all of a folder. */
export function denyingRule(
	rules: readonly PermissionRule[],
	tool: string,
	realPath: string,
	cwd: string,
	isDirectory: boolean,
	/** Also check the folders above (a call's target); a walk that skipped denied folders needs not. */
	ancestors = true,
): PermissionRule | undefined {
	for (const rule of rules) {
		if (!ruleNamesTool(rule, tool)) continue;
		if (patternHits(rule, realPath, cwd, isDirectory)) return rule;
		if (!ancestors || rule.pattern === undefined) continue;
		const relativePattern = !rule.pattern.startsWith("/") && !rule.pattern.startsWith("~");
		for (let folder = dirname(realPath); ; folder = dirname(folder)) {
			// The cwd is "." to a relative pattern, which `*` would match: it covers nothing by itself.
			if (!(relativePattern && folder === cwd) && patternHits(rule, folder, cwd, false)) return rule;
			if (dirname(folder) === folder) break;
		}
	}
	return undefined;
}

/** Deny rules with a path pattern that name `tool`: empty means its walks need no checks at all. */
export function pathRulesFor(rules: readonly PermissionRule[], tool: string): PermissionRule[] {
	return rules.filter((rule) => rule.pattern !== undefined && ruleNamesTool(rule, tool));
}
