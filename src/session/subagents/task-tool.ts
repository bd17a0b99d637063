// The `task` tool: the model hands a self-contained piece of work to a sub-agent (see sub-agents.ts)
// and gets its final text back as the result. Several calls in one reply run at once (the agent loop
// runs a reply's tool calls in parallel; `tools.maxSubagents` caps how many sub-agents run).
import { type Static, Type } from "typebox";
import type { AgentTool } from "../../agent/types.js";
import { SESSION_TOOL_NAMES } from "../session-tool-gate.js";
import type { AgentDefinition } from "./agent-definitions.js";
import type { SubAgentInfo } from "./sub-agent-info.js";
import type { SubAgents } from "./sub-agents.js";

/** How deep sub-agents may nest: the main agent's are depth 1, theirs (when allowed) depth 2. */
export const MAX_SUBAGENT_DEPTH = 2;

const taskSchema = Type.Object({
	agent: Type.String({ description: "Name of the agent to run (see the list in the description)" }),
	description: Type.String({ description: "A short (3-8 word) title of the task, shown to the user" }),
	prompt: Type.String({ description: "The whole task: the sub-agent sees nothing else of this conversation" }),
});

export type TaskToolInput = Static<typeof taskSchema>;

export interface TaskToolOptions {
	definitions: readonly AgentDefinition[];
	subAgents: SubAgents;
	/** The session's tools the sub-agents pick from (built-in and MCP), read when each one starts. */
	sessionTools: () => readonly AgentTool[];
	/** 1 for the main agent's task tool. */
	depth: number;
	/** The sub-agent calling, for a nested task tool. */
	callerAgentId?: string;
}

/** The agents the model may call, one line each (the tool's description and the system prompt). */
export function agentsSection(definitions: readonly AgentDefinition[]): string {
	return `Sub-agents (start one with the task tool; several task calls in one reply run in parallel):\n${definitions
		.map((d) => `- ${d.name}: ${d.description}`)
		.join("\n")}`;
}

export function createTaskTool(options: TaskToolOptions): AgentTool<typeof taskSchema, SubAgentInfo | undefined> {
	const { definitions, subAgents } = options;
	return {
		name: "task",
		label: "task",
		description: `Run a sub-agent on a self-contained task; its final answer is the result. It has its own context, so give it everything it needs.\n${agentsSection(definitions)}`,
		parameters: taskSchema,
		execute: async (toolCallId, params: TaskToolInput, signal, onUpdate) => {
			const definition = definitions.find((d) => d.name === params.agent);
			if (!definition) throw new Error(`Unknown agent "${params.agent}" (known: ${definitions.map((d) => d.name).join(", ")})`);
			const text = await subAgents.run(
				{
					definition,
					prompt: params.prompt,
					description: params.description,
					parentToolCallId: toolCallId,
					...(options.callerAgentId ? { parentAgentId: options.callerAgentId } : {}),
					tools: (agentId) => toolsFor(definition, options, agentId),
				},
				signal,
				(info) => onUpdate?.({ content: [{ type: "text", text: statusLine(info) }], details: info }),
			);
			return { content: [{ type: "text", text }], details: undefined };
		},
	};
}

/**
 * The definition's tools out of the session's (absent: all of them). The session's own tools are not
 * passed on, and `task` only when the definition names it and the depth allows: a sub-agent cannot start
 * sub-agents unless its definition says so.
 */
function toolsFor(definition: AgentDefinition, options: TaskToolOptions, agentId: string): AgentTool[] {
	const base = options.sessionTools().filter((t) => !SESSION_TOOL_NAMES.has(t.name));
	const chosen = definition.tools ? base.filter((t) => definition.tools?.includes(t.name)) : base;
	if (!definition.tools?.includes("task") || options.depth >= MAX_SUBAGENT_DEPTH) return chosen;
	// Its own task tool, one level deeper, naming it as the caller.
	return [...chosen, createTaskTool({ ...options, depth: options.depth + 1, callerAgentId: agentId })];
}

function statusLine(info: SubAgentInfo): string {
	const tool = info.currentTool ? ` · ${info.currentTool}` : "";
	return `${info.name} (${info.agentId}): ${info.status}${tool} · ${Math.round(info.elapsedMs / 1000)}s · ${info.tokens} tokens`;
}
