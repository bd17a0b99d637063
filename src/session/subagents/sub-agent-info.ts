// What the session tells about a sub-agent (events, `getState().subagents`, the task tool's updates).

export type SubAgentStatus = "queued" | "running" | "done" | "error" | "aborted";

export interface SubAgentInfo {
	/** Unique in the session: `<name>-<n>`. Steer it with `steerAgent(agentId, text)`. */
	agentId: string;
	/** The `task` tool call that started it. */
	parentToolCallId: string;
	/** The sub-agent that started it, when it is nested. */
	parentAgentId?: string;
	/** The agent definition's name. */
	name: string;
	/** What it was asked (the `description`, else the start of the prompt). */
	task: string;
	status: SubAgentStatus;
	/** The tool it is running now. */
	currentTool?: string;
	/** Epoch ms it started running (queued: when it was asked for). */
	startedAt: number;
	elapsedMs: number;
	/** Tokens of its requests so far (input + output). */
	tokens: number;
}
