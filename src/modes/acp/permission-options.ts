// The permission side of ACP: Rudder's approval requests as `session/request_permission` options and
// the client's choice back as an approval response; Rudder's permission modes as ACP session modes.
import type { PermissionOption, RequestPermissionOutcome, SessionMode } from "@agentclientprotocol/sdk";
import { PERMISSION_MODES, type PermissionMode } from "../../permissions/types.js";
import type { ApprovalRequest, ApprovalResponse } from "../../session/types.js";

/** Option ids: the decision each stands for (`network`: rerun inside the sandbox with the network on). */
const DECISIONS: Readonly<Record<string, ApprovalResponse>> = {
	allow_once: { decision: "allow" },
	allow_always: { decision: "always", scope: "session" },
	allow_network: { decision: "allow", network: true },
	reject_once: { decision: "deny" },
};

const CALL_OPTIONS: PermissionOption[] = [
	{ optionId: "allow_once", name: "Allow once", kind: "allow_once" },
	{ optionId: "allow_always", name: "Always allow calls like this (this session)", kind: "allow_always" },
	{ optionId: "reject_once", name: "Reject", kind: "reject_once" },
];

/** A command that failed inside the sandbox: run it outside, or inside with the network, or not at all. */
const UNSANDBOXED_OPTIONS: PermissionOption[] = [
	{ optionId: "allow_once", name: "Run it again outside the sandbox", kind: "allow_once" },
	{ optionId: "allow_network", name: "Run it again in the sandbox with network access", kind: "allow_once" },
	{ optionId: "reject_once", name: "Reject", kind: "reject_once" },
];

export function permissionOptions(request: Pick<ApprovalRequest, "kind">): PermissionOption[] {
	return request.kind === "unsandboxed" ? UNSANDBOXED_OPTIONS : CALL_OPTIONS;
}

/** The client's answer as Rudder's; a cancelled prompt or an unknown option is a denial. */
export function approvalResponseOf(outcome: RequestPermissionOutcome, offered: readonly PermissionOption[]): ApprovalResponse {
	if (outcome.outcome === "cancelled") return { decision: "deny", reason: "The permission request was cancelled." };
	const known = offered.some((o) => o.optionId === outcome.optionId) && Object.hasOwn(DECISIONS, outcome.optionId);
	return known ? (DECISIONS[outcome.optionId] as ApprovalResponse) : { decision: "deny" };
}

const MODE_TEXT: Readonly<Record<PermissionMode, { name: string; description: string }>> = {
	ask: { name: "Ask", description: "Reads run; edits and commands ask first" },
	"auto-edit": { name: "Auto-edit", description: "Reads and edits in the workspace run; commands ask first" },
	auto: {
		name: "Auto",
		description: "Reads and edits in the workspace run; commands run in the sandbox without asking, leaving it asks",
	},
	plan: { name: "Plan", description: "Read only: no edits, no commands" },
	yolo: { name: "Yolo", description: "Nothing asks; only deny rules still refuse" },
};

export const SESSION_MODES: SessionMode[] = PERMISSION_MODES.map((id) => ({ id, ...MODE_TEXT[id] }));

export function isPermissionMode(id: string): id is PermissionMode {
	return (PERMISSION_MODES as readonly string[]).includes(id);
}
