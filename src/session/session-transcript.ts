// The Agent's transcript kept in step with the session file: a fresh session, a loaded one (resume,
// fork), another branch of the same file (rewind, /tree), and messages the session adds itself.
// Usage totals follow whatever transcript is adopted.
import type { Agent } from "../agent/index.js";
import type { AgentMessage } from "../agent/types.js";
import type { SessionFile } from "./session-file.js";
import { type LoadedSession, repairTranscript } from "./session-load.js";
import type { TodoList } from "./todos/todo-list.js";
import type { SessionEvent } from "./types.js";
import type { UsageTotals } from "./usage-totals.js";

export interface SessionTranscriptDeps {
	agent: Agent;
	file: SessionFile;
	usage: UsageTotals;
	todos: TodoList;
	/** The MCP tools tool_search loaded: reset for a new session, restored from a loaded one. */
	mcpTools: { restore(names: readonly string[]): void };
	emit: (event: SessionEvent) => void;
}

export class SessionTranscript {
	constructor(private readonly deps: SessionTranscriptDeps) {}

	/** A new, empty session (a new file unless --no-session). */
	startFresh(parentSession?: string): void {
		const { agent, file, usage } = this.deps;
		file.startFresh(parentSession);
		usage.reset();
		this.deps.todos.restore([]);
		this.deps.mcpTools.restore([]);
		agent.sessionId = file.sessionId;
	}

	/** Continues a loaded file (or, with `fork`, a copy of it). Throws if it is locked. */
	adopt(loaded: LoadedSession, fork: boolean, keepLog = false): void {
		const { agent, file, usage } = this.deps;
		file.open(loaded, fork, keepLog);
		agent.sessionId = file.sessionId;
		agent.replaceMessages(repairTranscript(loaded.messages));
		const messages = agent.state.messages;
		file.log?.adopt(messages, loaded);
		usage.fromBranch(loaded, messages);
		this.deps.todos.restore(loaded.todos ?? []);
		this.deps.mcpTools.restore(loaded.mcpTools ?? []);
	}

	/** The open file moved to another of its branches (rewind, /tree): its transcript replaces the Agent's. */
	readonly adoptBranch = (loaded: LoadedSession): void => {
		this.deps.agent.reset();
		this.adopt(loaded, false, true);
		this.deps.emit({ type: "session_changed", sessionFile: this.deps.file.log?.path });
	};

	/** Adds a message the session made (a `!cmd`'s output) to the transcript and the file. */
	readonly append = (message: AgentMessage): void => {
		this.deps.agent.appendMessage(message);
		this.sync();
	};

	/** Writes transcript messages not yet in the file. */
	sync(): void {
		this.deps.file.sync(this.deps.agent.state.messages);
	}
}
