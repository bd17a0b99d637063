// The snapshot `getState()` returns, read from the parts that own each field (the Agent, the run
// phase, the queue, the usage totals, the session file, the extensions, the permissions).
import type { SessionParts } from "./session-parts.js";
import type { SessionState } from "./types.js";

export function sessionState(p: SessionParts): SessionState {
	const s = p.agent.state;
	const { phases, file, usage, permissions } = p;
	return {
		cwd: p.cwd,
		model: s.model,
		thinkingLevel: s.thinkingLevel,
		messages: s.messages,
		phase: phases.phase,
		isStreaming: phases.runActive,
		streamingMessage: s.streamingMessage,
		pendingToolCalls: s.pendingToolCalls,
		errorMessage: s.errorMessage,
		...p.queue.texts(),
		totals: usage.totals,
		contextTokens: usage.contextTokens,
		contextWindow: s.model.contextWindow,
		sessionFile: file.log?.path,
		sessionId: file.sessionId,
		...(file.name !== undefined ? { sessionName: file.name } : {}),
		isCompacting: p.compaction.active,
		mcpServers: p.extensions.mcpServers(),
		permissionMode: permissions.mode,
		sandbox: permissions.sandboxState(),
		pendingApproval: p.approvals.pendingApproval,
		pendingPlan: p.plans.pendingPlan,
		pendingElicitation: p.elicitations.pendingElicitation,
		subagents: p.subAgents.list(),
		todos: p.todos.items,
	};
}
