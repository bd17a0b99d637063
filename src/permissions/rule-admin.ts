// Listing, adding and removing permission rules where they are kept: your settings.json (global), the
// folder's .rudder/settings.json (project-settings), your approvals for the folder in the data folder
// (project), this session, the flags of this run. Used by `rudder permissions` and by the session (the
// /permissions screen). Files are rewritten whole through a temp file and a rename, so a crash leaves the
// old file or the new one, never half of one; private files stay 0600.
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseRule } from "./rules.js";
import { addProjectRule, removeProjectRule, trustFilePath } from "./trust.js";
import type { PermissionRule, RuleScope } from "./types.js";

export type RuleKind = "allow" | "deny";

export interface RuleEntry {
	kind: RuleKind;
	text: string;
	scope: RuleScope;
	/** The file it is kept in; absent for session and flag rules. */
	file?: string;
}

/** The files a folder's rules are kept in. */
export interface RuleFiles {
	globalFile: string;
	projectFile: string;
	dataFolder: string;
	/** The folder's real path: approvals are remembered by it. */
	realCwd: string;
}

/** Every rule in force, allow first, as entries (rules made in code without a scope count as session ones). */
export function ruleEntries(rules: { allow: readonly PermissionRule[]; deny: readonly PermissionRule[] }, files?: RuleFiles): RuleEntry[] {
	const entry = (kind: RuleKind, r: PermissionRule): RuleEntry => {
		const scope = r.scope ?? "session";
		const file = r.file ?? (scope === "project" && files ? trustFilePath(files.dataFolder) : undefined);
		return file ? { kind, text: r.text, scope, file } : { kind, text: r.text, scope };
	};
	return [...rules.allow.map((r) => entry("allow", r)), ...rules.deny.map((r) => entry("deny", r))];
}

/** A rule's text in a one-line message: a line break shown as ⏎ (a message is cut at its first line). */
const oneRow = (text: string): string => text.replace(/\r?\n|[\r\u2028\u2029]/g, "⏎");

/** Where a new rule of `kind` goes when no scope is named: allow to your approvals for the folder, deny to your settings. */
export function defaultScope(kind: RuleKind): RuleScope {
	return kind === "allow" ? "project" : "global";
}

/** The file a rule of `scope` is kept in; undefined for session and flag rules. */
export function fileOf(scope: RuleScope, files: RuleFiles): string | undefined {
	if (scope === "global") return files.globalFile;
	if (scope === "project-settings") return files.projectFile;
	if (scope === "project") return trustFilePath(files.dataFolder);
	return undefined;
}

/**
 * Parses `text` as a rule of `scope`; throws one line naming the rule and `origin`, where the text came
 * from (the field it was typed in, the argument it was given as): the file it would be kept in had no
 * part in a malformed rule.
 */
export function ruleFor(kind: RuleKind, text: string, scope: RuleScope, files: RuleFiles, origin: string): PermissionRule {
	if (kind === "deny" && scope === "project")
		throw new Error(`deny rules are not kept with your approvals: use --scope global or --scope project-settings for "${text}"`);
	// A rule typed by hand is one line: one holding a line break would be listed as two rows, the second
	// looking like a rule of its own (the /permissions field refuses such a paste for the same reason).
	if (/[\r\n\u2028\u2029]/.test(text)) throw new Error(`${origin}: a permission rule is one line; "${oneRow(text)}" holds a line break`);
	const file = fileOf(scope, files);
	const source = scope === "session" ? "this session" : scope === "flag" ? "a flag" : (file as string);
	return { ...parseRule(text, origin), source, scope, ...(file ? { file } : {}) };
}

/** What `RuleAdmin.add` needs besides the rule: where the text came from, and where to keep it. */
export interface AddRuleOptions {
	/** Where the text came from, for the error of a malformed rule ("the rule you typed"). */
	origin: string;
	/** Default: allow rules with your approvals for the folder, deny rules in your settings. */
	scope?: RuleScope;
}

/** Writes a rule to its file (session and flag rules live only in memory). */
export function persistRule(kind: RuleKind, rule: PermissionRule, files: RuleFiles): void {
	if (rule.scope === "project") addProjectRule(files.dataFolder, files.realCwd, rule);
	else if (rule.scope === "global" || rule.scope === "project-settings") {
		editSettingsRules(
			fileOf(rule.scope, files) as string,
			kind,
			(list) => (list.includes(rule.text) ? list : [...list, rule.text]),
			rule.scope === "global",
		);
	}
}

/** Deletes a rule from its file; false when the file no longer had it. */
export function unpersistRule(entry: RuleEntry, files: RuleFiles): boolean {
	if (entry.scope === "project") return removeProjectRule(files.dataFolder, files.realCwd, entry.text);
	if (entry.scope !== "global" && entry.scope !== "project-settings") return true;
	let removed = false;
	editSettingsRules(
		fileOf(entry.scope, files) as string,
		entry.kind,
		(list) => {
			const kept = list.filter((t) => t !== entry.text);
			removed = kept.length !== list.length;
			return kept;
		},
		entry.scope === "global",
	);
	return removed;
}

/**
 * The entries `text` names, narrowed by kind and scope; an error line when it names none, or names
 * rules in more than one place and no scope says which.
 */
export function pickEntries(
	entries: readonly RuleEntry[],
	text: string,
	options: { kind?: RuleKind; scope?: RuleScope } = {},
): { ok: true; entries: RuleEntry[] } | { ok: false; message: string } {
	const wanted = text.trim();
	const hits = entries.filter(
		(e) => e.text.trim() === wanted && (!options.kind || e.kind === options.kind) && (!options.scope || e.scope === options.scope),
	);
	if (hits.length === 0)
		return {
			ok: false,
			message: `no ${options.kind ?? ""}${options.kind ? " " : ""}rule "${oneRow(wanted)}"${options.scope ? ` in ${options.scope}` : ""}`,
		};
	const places = new Set(hits.map((e) => `${e.kind} ${e.scope}`));
	if (places.size > 1)
		return {
			ok: false,
			message: `"${oneRow(wanted)}" is in ${[...places].join(", ")}: say which with --scope (and --deny for a deny rule)`,
		};
	return { ok: true, entries: hits };
}

/** Where rules are in force: a session's gate, or (from the shell) the rules just loaded. */
export interface LiveRules {
	readonly rules: { allow: readonly PermissionRule[]; deny: readonly PermissionRule[] };
	addLiveRule(kind: RuleKind, rule: PermissionRule): void;
	removeLiveRules(kind: RuleKind, drop: (rule: PermissionRule) => boolean): number;
}

/** List, add and remove rules: in force (`live`) and in their files at once. */
export class RuleAdmin {
	constructor(
		private readonly files: RuleFiles,
		private readonly live: LiveRules,
	) {}

	list(): RuleEntry[] {
		return ruleEntries(this.live.rules, this.files);
	}

	/** Throws one line for a malformed rule (naming `origin`) or a scope it cannot be kept in. */
	add(kind: RuleKind, text: string, { origin, scope = defaultScope(kind) }: AddRuleOptions): RuleEntry {
		const rule = ruleFor(kind, text, scope, this.files, origin);
		persistRule(kind, rule, this.files);
		this.live.addLiveRule(kind, rule);
		return ruleEntries({ allow: kind === "allow" ? [rule] : [], deny: kind === "deny" ? [rule] : [] }, this.files)[0] as RuleEntry;
	}

	/** Throws one line when `text` names no rule (among `among` scopes), or rules in more than one place. */
	remove(text: string, options: { kind?: RuleKind; scope?: RuleScope; among?: readonly RuleScope[] } = {}): RuleEntry[] {
		const candidates = options.among ? this.list().filter((e) => options.among?.includes(e.scope)) : this.list();
		const picked = pickEntries(candidates, text, options);
		if (!picked.ok) throw new Error(picked.message);
		for (const entry of picked.entries) {
			unpersistRule(entry, this.files);
			this.live.removeLiveRules(entry.kind, (r) => r.text.trim() === entry.text.trim() && (r.scope ?? "session") === entry.scope);
		}
		return picked.entries;
	}
}

/** Rules loaded from the files, in force nowhere else (the shell's `rudder permissions`). */
export function loadedRules(rules: { allow: readonly PermissionRule[]; deny: readonly PermissionRule[] }): LiveRules {
	const held = { allow: [...rules.allow], deny: [...rules.deny] };
	return {
		rules: held,
		addLiveRule: (kind, rule) => held[kind].push(rule),
		removeLiveRules: (kind, drop) => {
			const before = held[kind].length;
			held[kind] = held[kind].filter((r) => !drop(r));
			return before - held[kind].length;
		},
	};
}

/** Reads a settings file as an object (missing: empty), changes one rule list, writes it back atomically. */
function editSettingsRules(file: string, kind: RuleKind, change: (list: string[]) => string[], isPrivate: boolean): void {
	let data: Record<string, unknown> = {};
	let mode = isPrivate ? 0o600 : 0o644;
	const info = statSync(file, { throwIfNoEntry: false });
	if (info) {
		const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
		if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error(`${file}: not a JSON object; not changed`);
		data = parsed as Record<string, unknown>;
		if (!isPrivate) mode = info.mode & 0o777;
	}
	const section = Object.hasOwn(data, "permissions") ? data.permissions : {};
	if (typeof section !== "object" || section === null || Array.isArray(section))
		throw new Error(`${file}: "permissions" is not an object; not changed`);
	const permissions = section as Record<string, unknown>;
	const current = Object.hasOwn(permissions, kind) ? permissions[kind] : [];
	if (!Array.isArray(current) || current.some((t) => typeof t !== "string"))
		throw new Error(`${file}: "permissions.${kind}" is not a list of rules; not changed`);
	data.permissions = { ...permissions, [kind]: change(current as string[]) };
	writeAtomically(file, `${JSON.stringify(data, null, 2)}\n`, mode);
}

function writeAtomically(file: string, text: string, mode: number): void {
	mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
	const temp = `${file}.${process.pid}.tmp`;
	writeFileSync(temp, text, { mode });
	chmodSync(temp, mode);
	renameSync(temp, file);
}
