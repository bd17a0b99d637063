// The parts a session coordinates, each built before it (assemble.ts builds them in this order and
// hands them to \`AgentSession\`).

import type { Agent } from "../agent/index.js";
import type { StreamFn } from "../agent/types.js";
import type { BackgroundJobs } from "../tools/index.js";
import type { ApprovalPrompts } from "./approval-prompts.js";
import type { CheckpointStore } from "./checkpoint-store.js";
import type { CompactionRunner } from "./compaction-runner.js";
import type { ExtensionHost } from "./extension-host.js";
import type { InputQueue } from "./input-queue.js";
import type { RedactedAgentEvents } from "./redacted-agent-events.js";
import type { SessionRewind } from "./rewind.js";
import type { RunPhaseBox } from "./run-phase.js";
import type { SessionEvents } from "./session-events.js";
import type { SessionFile } from "./session-file.js";
import type { SessionKeys } from "./session-keys.js";
import type { SessionModels } from "./session-models.js";
import type { SessionPermissions } from "./session-permissions.js";
import type { SessionTranscript } from "./session-transcript.js";
import type { Settings } from "./settings.js";
import type { UsageTotals } from "./usage-totals.js";
import type { UserShells } from "./user-shells.js";

/** The parts a session coordinates, in the order assemble.ts builds them. */
export interface SessionParts {
	cwd: string;
	env: Record<string, string | undefined>;
	settings: Settings;
	events: SessionEvents;
	phases: RunPhaseBox;
	approvals: ApprovalPrompts;
	permissions: SessionPermissions;
	checkpoints: CheckpointStore;
	keys: SessionKeys;
	/** The system prompt for the permission mode in force. */
	systemPrompt: () => string;
	/** The stream function with the retry settings applied (the Agent's and the compaction's). */
	streamFn: StreamFn;
	agent: Agent;
	models: SessionModels;
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
}
