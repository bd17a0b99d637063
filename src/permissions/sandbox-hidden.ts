// The paths a command in the sandbox must not see: what the `read(...)` deny rules name, found on disk
// at the command's start and given to the sandbox by real path (it lays an empty file or folder over
// each). A literal rule names one path; a glob is expanded by walking from its literal folder. Files
// that appear later (a new `.env` made by the command itself) are not covered: a known limit.
import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { patternHits } from "./denied-paths.js";
import { ruleNamesTool } from "./rules.js";
import type { PermissionRule } from "./types.js";

/** Entries a glob's walk looks at, per command, before it stops (it says so in `cut`). */
export const HIDDEN_WALK_LIMIT = 20_000;

/** Folders a glob's walk does not enter unless the rule's literal part is inside them. */
const NOT_WALKED = new Set([".git", "node_modules"]);

export interface HiddenPaths {
	/** Real paths of existing files and folders to hide. */
	paths: string[];
	/** The walk limit stopped a glob's expansion: some matches may be visible. */
	cut: boolean;
}

/** Deny rules that hold for `read` and have a pattern: these are what bash must not read either. */
export function readDenyRules(rules: readonly PermissionRule[]): PermissionRule[] {
	return rules.filter((rule) => rule.pattern !== undefined && ruleNamesTool(rule, "read"));
}

function realIfExists(path: string): string | undefined {
	try {
		return realpathSync(path);
	} catch {
		return undefined;
	}
}

/** The folder a pattern's glob starts from: its segments before the first `*` or `?`, as an absolute path. */
export function literalBase(pattern: string, cwd: string): { base: string; isGlob: boolean } {
	const expanded = pattern === "~" ? homedir() : pattern.startsWith("~/") ? resolve(homedir(), pattern.slice(2)) : pattern;
	const absolute = isAbsolute(expanded) ? expanded : join(cwd, expanded.replace(/^\.\//, ""));
	const segments = absolute.split("/");
	const first = segments.findIndex((s) => /[*?]/.test(s));
	if (first === -1) return { base: resolve(absolute), isGlob: false };
	return { base: resolve(segments.slice(0, first).join("/") || "/"), isGlob: true };
}

/**
 * Every existing path the rules deny to `read`, by real path; `cwd` is the workspace's first root
 * (real). As in the policy, a path counts when its real path or its name (a link's own place) matches.
 */
export function hiddenPathsFor(rules: readonly PermissionRule[], cwd: string, limit = HIDDEN_WALK_LIMIT): HiddenPaths {
	const found = new Set<string>();
	const budget = { left: limit, cut: false };
	for (const rule of readDenyRules(rules)) {
		const { base, isGlob } = literalBase(rule.pattern as string, cwd);
		const real = realIfExists(base);
		if (real === undefined) continue;
		const isDirectory = statSync(real, { throwIfNoEntry: false })?.isDirectory() ?? false;
		if (!isGlob || hits(rule, base, real, cwd, isDirectory)) {
			// A literal path is hidden as named; a folder a glob wholly covers, whole.
			found.add(real);
			continue;
		}
		if (isDirectory) walk(rule, { named: base, real }, cwd, found, budget);
	}
	return { paths: [...found].sort(), cut: budget.cut };
}

function hits(rule: PermissionRule, named: string, real: string, cwd: string, isDirectory: boolean): boolean {
	return patternHits(rule, real, cwd, isDirectory) || (named !== real && patternHits(rule, named, cwd, isDirectory));
}

/** Walks a folder known by its name and its real path; linked folders are hidden when they match, never entered. */
function walk(
	rule: PermissionRule,
	folder: { named: string; real: string },
	cwd: string,
	found: Set<string>,
	budget: { left: number; cut: boolean },
): void {
	let entries: Dirent[];
	try {
		entries = readdirSync(folder.real, { withFileTypes: true });
	} catch {
		return;
	}
	for (const entry of entries) {
		if (--budget.left < 0) {
			budget.cut = true;
			return;
		}
		const named = join(folder.named, entry.name);
		const here = join(folder.real, entry.name);
		const link = entry.isSymbolicLink();
		const real = link ? realIfExists(here) : here;
		if (real === undefined) continue;
		const isDirectory = link ? (statSync(real, { throwIfNoEntry: false })?.isDirectory() ?? false) : entry.isDirectory();
		if (hits(rule, named, real, cwd, isDirectory) || (link && patternHits(rule, here, cwd, isDirectory))) {
			found.add(real);
			continue;
		}
		if (entry.isDirectory() && !NOT_WALKED.has(entry.name)) walk(rule, { named, real: here }, cwd, found, budget);
	}
}
