// `rudder permissions list|add|remove`: the rules of this folder from the shell, each with where it
// lives (global settings, the folder's .rudder/settings.json, your approvals for the folder), added to
// and removed from that file. The same files and functions as the /permissions screen
// (src/permissions/rule-admin.ts); rule text from a project file is sanitised before it reaches the terminal.
import { Command, Option } from "commander";
import { dataDir } from "../config/paths.js";
import { loadedRules, RuleAdmin, type RuleEntry, type RuleFiles, type RuleKind, ruleEntries } from "../permissions/rule-admin.js";
import type { RuleScope } from "../permissions/types.js";
import { realTarget } from "../permissions/workspace.js";
import { sanitizeTerminalText } from "../safety/sanitize.js";
import { loadPermissionSetup } from "../session/session-permissions.js";
import { globalSettingsPath, projectSettingsPath } from "../session/settings.js";
import { oneLine } from "../tui/text/screen-text.js";
import { type CommandOutput, failedCommand } from "./subcommand-result.js";

type Env = Record<string, string | undefined>;

/** Scopes a rule can be kept in from the shell (session and flag rules live in one run only). */
const FILE_SCOPES: readonly RuleScope[] = ["project", "project-settings", "global"];

function filesOf(cwd: string, env: Env): RuleFiles {
	return { globalFile: globalSettingsPath(env), projectFile: projectSettingsPath(cwd), dataFolder: dataDir(env), realCwd: realTarget(cwd) };
}

// A rule or file name from a project file is shown on one row: a line break in it is ⏎, never a row that
// looks like another rule.
const describe = (e: RuleEntry): string => `${e.kind} ${oneLine(e.text)} (${e.scope}, ${oneLine(e.file ?? "")})`;

/** One line per rule: kind, rule, scope, file; columns padded. */
export function formatEntries(entries: readonly RuleEntry[]): string {
	if (entries.length === 0) return "No permission rules.\n";
	const rows = entries.map((e) => [e.kind, oneLine(e.text), e.scope, oneLine(e.file ?? "")]);
	const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
	return `${rows
		.map((r) =>
			r
				.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]) : cell))
				.join("  ")
				.trimEnd(),
		)
		.join("\n")}\n`;
}

function program(out: { stdout: string; stderr: string }, cwd: string, env: Env): Command {
	const files = filesOf(cwd, env);
	const admin = () => new RuleAdmin(files, loadedRules(loadPermissionSetup({ cwd, env }).resolved.policy));
	const scopeOption = () => new Option("--scope <scope>", "where the rule is kept").choices(FILE_SCOPES as string[]);
	const root = new Command("rudder permissions")
		.description("list, add and remove permission rules of this folder")
		.exitOverride()
		.configureOutput({ writeOut: (s) => (out.stdout += s), writeErr: (s) => (out.stderr += s) });
	root
		.command("list")
		.description("every rule in force here, with where it lives")
		.option("--json", "one JSON array of {kind, text, scope, file}")
		.action((opts: { json?: boolean }) => {
			const setup = loadPermissionSetup({ cwd, env });
			const entries = ruleEntries(setup.resolved.policy, files);
			out.stdout += opts.json ? `${JSON.stringify(entries)}\n` : formatEntries(entries);
			for (const notice of setup.resolved.notices) out.stderr += `${sanitizeTerminalText(notice)}\n`;
		});
	root
		.command("add <rule>")
		.description("keep a rule: allow ones in your approvals for this folder, deny ones in your settings, unless --scope says")
		.option("--deny", "a deny rule (default: allow)")
		.addOption(scopeOption())
		.action((text: string, opts: { deny?: boolean; scope?: RuleScope }) => {
			const entry = admin().add(opts.deny ? "deny" : "allow", text, { origin: "the <rule> argument", scope: opts.scope });
			out.stdout += `Added ${describe(entry)}\n`;
		});
	root
		.command("remove <rule>")
		.description("remove a rule from the file it is kept in")
		.option("--deny", "the deny rule of that text")
		.option("--allow", "the allow rule of that text")
		.addOption(scopeOption())
		.action((text: string, opts: { deny?: boolean; allow?: boolean; scope?: RuleScope }) => {
			const kind: RuleKind | undefined = opts.deny ? "deny" : opts.allow ? "allow" : undefined;
			try {
				for (const entry of admin().remove(text, { kind, scope: opts.scope, among: FILE_SCOPES }))
					out.stdout += `Removed ${describe(entry)}\n`;
			} catch (error) {
				throw new Error(`${(error as Error).message} (rudder permissions list shows them)`);
			}
		});
	return root;
}

/** Runs `rudder permissions <args>`; every failure is one line on stderr. */
export function runPermissionsCommand(args: readonly string[], cwd: string, env: Env): CommandOutput {
	const out = { stdout: "", stderr: "" };
	try {
		program(out, cwd, env).parse([...args], { from: "user" });
		return { code: 0, ...out };
	} catch (error) {
		return failedCommand("rudder permissions", error, out);
	}
}
