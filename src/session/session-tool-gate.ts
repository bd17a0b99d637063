// The permission gate as every agent of a session sees it. The session's own tools (`task`,
// `todo_write`, `exit_plan_mode`, `tool_search`) touch neither files nor processes themselves: what a
// sub-agent does goes through the gate call by call, and the others only talk to the session (tool_search
// loads schemas; the MCP tools it finds pass the gate when called). So they pass, in
// every mode (plan mode forbids tools the policy does not know, and these must work there).
import type { AgentLoopConfig } from "../agent/types.js";

export const SESSION_TOOL_NAMES: ReadonlySet<string> = new Set(["task", "todo_write", "exit_plan_mode", "tool_search"]);

type Before = NonNullable<AgentLoopConfig["beforeToolCall"]>;
type After = NonNullable<AgentLoopConfig["afterToolCall"]>;

export function sessionBeforeToolCall(gate: Before): Before {
	return (ctx, signal) => (SESSION_TOOL_NAMES.has(ctx.toolCall.name) ? Promise.resolve(undefined) : gate(ctx, signal));
}

export function sessionAfterToolCall(gate: After): After {
	return (ctx, signal) => (SESSION_TOOL_NAMES.has(ctx.toolCall.name) ? Promise.resolve(undefined) : gate(ctx, signal));
}
