// The `permissions` and `sandbox` sections of a settings file: their shape and their checks, used by
// the settings loader so that a typo is an error naming the file and the field.
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from "../tools/sandbox-limits.js";
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
	/** Resource limits of each sandboxed command (defaults: DEFAULT_SANDBOX_LIMITS). A project's may only lower them. */
	limits?: Partial<SandboxLimits>;
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

const limitsCheck: Check = (value) => {
	if (typeof value !== "object" || value === null || Array.isArray(value))
		return `must be an object such as {"processes": ${DEFAULT_SANDBOX_LIMITS.processes}, "memoryMiB": ${DEFAULT_SANDBOX_LIMITS.memoryMiB}}`;
	for (const [name, limit] of Object.entries(value)) {
		if (!(name in DEFAULT_SANDBOX_LIMITS))
			return `has "${name}", which is not a limit (known: ${Object.keys(DEFAULT_SANDBOX_LIMITS).join(", ")})`;
		if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1)
			return `has ${name} ${JSON.stringify(limit)}, which must be a whole number of at least 1`;
	}
	return undefined;
};

export const sandboxChecks: Record<string, Check> = {
	network: (v) => (typeof v === "boolean" ? undefined : "must be true or false"),
	limits: limitsCheck,
};
