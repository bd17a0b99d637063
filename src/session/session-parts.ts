// The parts a session coordinates, each built before it (assemble.ts builds them in this order and
// hands them to \`AgentSession\`).

import type { Agent } from "../agent/index.js";
import type { StreamFn } from "../agent/types.js";
import type { PermissionMode } from "../permissions/types.js";
import type { BackgroundJobs } from "../tools/index.js";
import type { ApprovalPrompts } from "./approval-prompts.js";
import type { CheckpointStore } from "./checkpoint-store.js";
import type { CompactionRunner } from "./compaction-runner.js";
import type { ElicitationPrompts } from "./elicitation-prompts.js";
import type { ExtensionHost } from "./extension-host.js";
import type { InputQueue } from "./input-queue.js";
import type { PlanPrompts } from "./plan/plan-prompts.js";
import type { RedactedAgentEvents } from "./redacted-agent-events.js";
import type { SessionRewind } from "./rewind.js";
import type { RunPhaseBox } from "./run-phase.js";
import type { SessionEvents } from "./session-events.js";
import type { SessionFile } from "./session-file.js";
import type { SessionHooks } from "./session-hooks.js";
import type { SessionKeys } from "./session-keys.js";
import type { SessionModels } from "./session-models.js";
import type { SessionPermissions } from "./session-permissions.js";
import type { SessionTranscript } from "./session-transcript.js";
import type { Settings } from "./settings.js";
import type { AgentDefinition } from "./subagents/agent-definitions.js";
import type { SubAgents } from "./subagents/sub-agents.js";
import type { TodoList } from "./todos/todo-list.js";
import type { UsageTotals } from "./usage-totals.js";
import type { UserShells } from "./user-shells.js";

/** The parts a session coordinates, in the order assemble.ts builds them. */
export interface SessionParts {
	cwd: string;
	env: Record<string, string | undefined>;
	settings: Settings;
	events: SessionEvents;
	phases: RunPhaseBox;
	hooks: SessionHooks;
	approvals: ApprovalPrompts;
	permissions: SessionPermissions;
	checkpoints: CheckpointStore;
	keys: SessionKeys;
	/** Sets the system prompt and the tools for the permission mode in force (exit_plan_mode only in plan mode). */
	applyMode: () => void;
	/** Switches the permission mode; the system prompt follows and listeners hear of it. */
	setPermissionMode: (mode: PermissionMode) => void;
	/** The stream function with the retry settings applied (the Agent's and the compaction's). */
	streamFn: StreamFn;
	agent: Agent;
	models: SessionModels;
	/** MCP servers' questions for the user (elicitation), answered like approvals. */
	elicitations: ElicitationPrompts;
	extensions: ExtensionHost;
	usage: UsageTotals;
	file: SessionFile;
	transcript: SessionTranscript;
	rewind: SessionRewind;
	compaction: CompactionRunner;
	queue: InputQueue;
	shells: UserShells;
	/** The model's background jobs (bash run_in_background), for /ps and the exit notes. */
	jobs: BackgroundJobs;
	agentEvents: RedactedAgentEvents;
	/** The agent definitions the task tool can start (built-in, global, trusted project). */
	agents: readonly AgentDefinition[];
	subAgents: SubAgents;
	todos: TodoList;
	plans: PlanPrompts;
}
