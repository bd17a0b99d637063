// The permission gate as every agent of a session sees it. The session's own tools (`task`,
// `todo_write`, `exit_plan_mode`, `tool_search`) touch neither files nor processes themselves: what a
// sub-agent does goes through the gate call by call, and the others only talk to the session (tool_search
// loads schemas; the MCP tools it finds pass the gate when called). So they pass, in
// every mode (plan mode forbids tools the policy does not know, and these must work there).
// A call the gate lets through then waits, when it could change files the checkpoints do not see
// (bash, an MCP tool: anything but checkpointedToolNames in src/tools/index.ts), for the snapshot an edits-only rewind point
// waits for — usually over already, hidden behind the model's time to its first tool call.
import type { AgentLoopConfig } from "../agent/types.js";
import { checkpointedToolNames } from "../tools/index.js";

export const SESSION_TOOL_NAMES: ReadonlySet<string> = new Set(["task", "todo_write", "exit_plan_mode", "tool_search"]);

type Before = NonNullable<AgentLoopConfig["beforeToolCall"]>;
type After = NonNullable<AgentLoopConfig["afterToolCall"]>;

/**
 * Resolves when a change the checkpoints do not see may start (see CheckpointStore), or `signal` aborts;
 * calls `waits` first when it must wait.
 */
export type UntrackedChangesMayStart = (signal?: AbortSignal, waits?: () => void) => Promise<void>;

/** A call started waiting for the snapshot (true), or stopped (false): its row says so. */
export type ToolWaits = (toolCallId: string, waiting: boolean) => void;

export function sessionBeforeToolCall(gate: Before, untrackedChangesMayStart: UntrackedChangesMayStart, toolWaits: ToolWaits): Before {
	return async (ctx, signal) => {
		const name = ctx.toolCall.name;
		if (SESSION_TOOL_NAMES.has(name)) return undefined;
		const verdict = await gate(ctx, signal);
		if (verdict?.block || checkpointedToolNames.has(name)) return verdict;
		const id = ctx.toolCall.id;
		let waited = false;
		try {
			// Aborted while waiting: the loop sees the signal and does not run the call.
			await untrackedChangesMayStart(signal, () => {
				waited = true;
				toolWaits(id, true);
			});
		} finally {
			if (waited) toolWaits(id, false);
		}
		return verdict;
	};
}

export function sessionAfterToolCall(gate: After): After {
	return (ctx, signal) => (SESSION_TOOL_NAMES.has(ctx.toolCall.name) ? Promise.resolve(undefined) : gate(ctx, signal));
}
