// From settings layers and flags to one policy. The global file and the flags are the user's own; the
// project file comes with the folder (a clone) and may only narrow until the folder is trusted.
import { parseRule } from "./rules.js";
import type { PermissionsSection, SandboxSection } from "./settings-section.js";
import { MODE_STRICTNESS, type PermissionMode, type PermissionPolicy, type PermissionRule, type RuleScope } from "./types.js";
import { createWorkspace } from "./workspace.js";

export interface SettingsLayer {
	file: string;
	permissions?: PermissionsSection;
	sandbox?: SandboxSection;
}

export interface PermissionFlags {
	mode?: PermissionMode;
	allow?: string[];
	deny?: string[];
	addDirs?: string[];
}

export interface PermissionInputs {
	cwd: string;
	global: SettingsLayer;
	project: SettingsLayer;
	flags: PermissionFlags;
	/** The user trusted the project folder (remembered, or `--trust-project`). */
	trusted: boolean;
}

/** The mode when neither a flag nor a settings file names one; the session makes it `auto` where the sandbox works. */
export const DEFAULT_MODE: PermissionMode = "ask";

/** One entry of the project file that would widen the user's permissions. */
export interface Widening {
	file: string;
	entry: string;
}

export interface ResolvedPermissions {
	policy: PermissionPolicy;
	/** Sandboxed commands may reach the network. */
	network: boolean;
	/** The mode was chosen explicitly as yolo (flag or setting): Shift+Tab may come back to it. */
	yoloChosen: boolean;
	/** A flag or a settings file chose the mode; otherwise it is the default (`auto` where the sandbox works). */
	modeChosen: boolean;
	/** Project entries that widen (applied only when trusted). */
	widenings: Widening[];
	/** At most one line: the ignored widenings, naming the file and entries. */
	notices: string[];
}

const rules = (texts: readonly string[] | undefined, source: string, scope: RuleScope, file?: string): PermissionRule[] =>
	(texts ?? []).map((t) => ({ ...parseRule(t, source), scope, ...(file ? { file } : {}) }));

/** What in `project` widens beyond `global` (allow rules, a looser mode, network). */
export function projectWidenings(global: SettingsLayer, project: SettingsLayer): Widening[] {
	const out: Widening[] = [];
	const base = global.permissions?.mode ?? "ask";
	const mode = project.permissions?.mode;
	if (mode && MODE_STRICTNESS[mode] > MODE_STRICTNESS[base]) out.push({ file: project.file, entry: `permissions.mode "${mode}"` });
	for (const text of project.permissions?.allow ?? []) out.push({ file: project.file, entry: `permissions.allow "${text}"` });
	if (project.sandbox?.network === true && global.sandbox?.network !== true)
		out.push({ file: project.file, entry: "sandbox.network true" });
	return out;
}

export function resolvePermissions(inputs: PermissionInputs): ResolvedPermissions {
	const { global, project, flags, trusted } = inputs;
	const widenings = projectWidenings(global, project);
	const globalMode = global.permissions?.mode ?? "ask";
	const projectMode = project.permissions?.mode;
	const projectModeApplies = projectMode !== undefined && (trusted || MODE_STRICTNESS[projectMode] <= MODE_STRICTNESS[globalMode]);
	const mode = flags.mode ?? (projectModeApplies ? projectMode : globalMode);
	const modeChosen = flags.mode !== undefined || projectModeApplies || global.permissions?.mode !== undefined;
	const allow = [...rules(global.permissions?.allow, global.file, "global", global.file), ...rules(flags.allow, "--allow", "flag")];
	if (trusted) allow.push(...rules(project.permissions?.allow, project.file, "project-settings", project.file));
	const deny = [
		...rules(global.permissions?.deny, global.file, "global", global.file),
		...rules(flags.deny, "--deny", "flag"),
		...rules(project.permissions?.deny, project.file, "project-settings", project.file),
	];
	const projectNetwork = project.sandbox?.network;
	const network = projectNetwork === false ? false : projectNetwork === true && trusted ? true : global.sandbox?.network === true;
	const notices =
		!trusted && widenings.length > 0
			? [
					`Ignored ${widenings.map((w) => w.entry).join(", ")} in ${project.file}: this folder is not trusted to widen permissions (start rudder with --trust-project to trust it)`,
				]
			: [];
	return {
		policy: { mode, allow, deny, workspace: createWorkspace(inputs.cwd, flags.addDirs) },
		network,
		yoloChosen: mode === "yolo",
		modeChosen,
		widenings,
		notices,
	};
}
