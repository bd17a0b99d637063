// The `permissions` and `sandbox` sections of a settings file: their shape and their checks, used by
// the settings loader so that a typo is an error naming the file and the field.
import { parseRule } from "./rules.js";
import { PERMISSION_MODES, type PermissionMode } from "./types.js";

export interface PermissionsSection {
	mode?: PermissionMode;
	allow?: string[];
	deny?: string[];
}

export interface SandboxSection {
	/** Let sandboxed commands reach the network. Default false. */
	network?: boolean;
}

type Check = (value: unknown) => string | undefined;

const ruleList: Check = (value) => {
	if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) return 'must be a list of rules such as ["bash(npm test*)"]';
	for (const text of value as string[]) {
		try {
			parseRule(text, "");
		} catch {
			return `has "${text}", which is not a rule: write a tool name or tool(pattern), e.g. "bash(npm test*)" or "edit(src/**)"`;
		}
	}
	return undefined;
};

export const permissionsChecks: Record<string, Check> = {
	mode: (v) =>
		typeof v === "string" && (PERMISSION_MODES as readonly string[]).includes(v)
			? undefined
			: `must be one of ${PERMISSION_MODES.map((m) => `"${m}"`).join(", ")}`,
	allow: ruleList,
	deny: ruleList,
};

export const sandboxChecks: Record<string, Check> = {
	network: (v) => (typeof v === "boolean" ? undefined : "must be true or false"),
};
