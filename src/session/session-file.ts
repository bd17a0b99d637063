// The session file a session writes to now (absent with --no-session), with the session's id and
// display name. It is replaced when the user starts, resumes, forks or clones a session; rewind moves
// within it. Every message is redacted of the keys in use before it is written (`secrets`).
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import type { AgentMessage } from "../agent/types.js";
import type { SessionEntry } from "./session-format.js";
import { type LoadedSession, loadSession } from "./session-load.js";
import { SessionLog } from "./session-log.js";

type Env = Record<string, string | undefined>;

export interface SessionFileOptions {
	cwd: string;
	env: Env;
	/** False with --no-session: nothing is written, the id is made up. */
	persist: boolean;
	/** The keys to redact from what is written. */
	secrets: () => string[];
}

export class SessionFile {
	private current?: SessionLog;
	private id = "";
	private displayName?: string;
	/** Each sub-agent's last side-branch entry (see `recordSubAgent`). */
	private readonly asideLeaf = new Map<string, string>();

	constructor(private readonly options: SessionFileOptions) {}

	get log(): SessionLog | undefined {
		return this.current;
	}

	get sessionId(): string {
		return this.id;
	}

	get name(): string | undefined {
		return this.displayName;
	}

	/** A new file (none with --no-session); `parentSession` is recorded in its header. */
	startFresh(parentSession?: string): void {
		const { cwd, env, persist, secrets } = this.options;
		this.displayName = undefined;
		this.current?.close();
		this.current = persist ? SessionLog.create({ cwd, env, secrets, parentSession }) : undefined;
		this.id = this.current?.header.id ?? randomUUID();
	}

	/**
	 * Continues a loaded file (or, with `fork`, a new file holding a copy of it). Throws if it is locked.
	 * With `keep`, the open log moved to another branch of its own file (a rewind): it stays open and locked.
	 */
	open(loaded: LoadedSession, fork: boolean, keep = false): void {
		const { cwd, env, persist, secrets } = this.options;
		if (!keep) {
			const log = persist ? (fork ? SessionLog.fork(loaded, { secrets, cwd, env }) : SessionLog.open(loaded, { secrets })) : undefined;
			this.current?.close();
			this.current = log;
		}
		this.id = this.current?.header.id ?? loaded.header.id;
		this.displayName = latestSessionName(loaded.entries);
	}

	/** Names the session (pi's `session_info` entry, so a resumed or forked session keeps it). */
	setName(name: string): void {
		const trimmed = name.trim();
		if (!trimmed) throw new Error("A session name cannot be empty");
		this.displayName = trimmed;
		this.current?.append({ type: "session_info", name: trimmed });
	}

	/** Saves the todo list the model wrote (a `todo` entry on the main branch). */
	saveTodos(items: readonly { content: string; status: "pending" | "in_progress" | "completed" }[]): void {
		this.current?.append({ type: "todo", items: items.map((i) => ({ ...i })) });
	}

	/** Names the MCP tools a search loaded (an `mcp_tools` entry), so a resumed session sends them again. */
	saveMcpTools(names: readonly string[]): void {
		this.current?.append({ type: "mcp_tools", names: [...names] });
	}

	/**
	 * Keeps a sub-agent's message on its side branch: the first hangs off the main branch's entry written
	 * last (the reply holding the task call), the next ones off that agent's previous message.
	 */
	recordSubAgent(agent: { agentId: string; name: string; parentToolCallId: string }, message: AgentMessage): void {
		const log = this.current;
		if (!log) return;
		const parent = this.asideLeaf.get(agent.agentId) ?? log.leaf;
		const { agentId, name, parentToolCallId } = agent;
		this.asideLeaf.set(agentId, log.appendAside({ type: "subagent", agentId, name, parentToolCallId, message }, parent));
	}

	/** Writes transcript messages not yet in the file; each is one appended line. */
	sync(messages: readonly AgentMessage[]): void {
		this.current?.syncMessages(messages);
	}

	/** The current file as loaded now, with every transcript message written first. */
	loadCurrent(what: string, messages: readonly AgentMessage[]): LoadedSession {
		const log = this.current;
		if (!log) throw new Error(`${what} needs a saved session (this one runs with --no-session)`);
		log.syncMessages(messages);
		// A session with nothing written yet has no file: an empty branch then.
		if (!existsSync(log.path)) {
			return { path: log.path, header: log.header, entries: [], branch: [], leafId: null, messages: [], messageEntryIds: [], warnings: [] };
		}
		return loadSession(log.path);
	}

	/** Writes `entries` to a new file and lets it go (resuming takes its lock like any other); returns its path. */
	writeCopy(entries: LoadedSession): string {
		const { cwd, env, secrets } = this.options;
		const copy = SessionLog.fork(entries, { cwd, env, secrets });
		copy.close();
		return copy.path;
	}

	close(): void {
		this.current?.close();
	}
}

function latestSessionName(entries: readonly SessionEntry[]): string | undefined {
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i];
		if (entry.type === "session_info") return entry.name;
	}
	return undefined;
}
