// The session file format: what each line holds and the schemas a line is checked against when it is
// loaded (docs/session-log.md describes the format for people). Version 2 entries carry `id` and
// `parentId`, so the entries form a tree as in pi's session format; version 1 files (no ids) still load,
// as one branch. The schemas ask for what the program reads from a line, and let extra fields through,
// so a file written by a newer version with more fields still loads.
import { type Static, type TSchema, Type } from "typebox";
import type { AgentMessage } from "../agent/types.js";
import type { ThinkingLevel } from "../ai/index.js";
import { THINKING_LEVELS } from "../ai/index.js";

export const sessionFileVersion = 2;

export interface SessionHeader {
	type: "session";
	id: string;
	cwd: string;
	/** ISO time the session started. */
	timestamp: string;
	version: number;
	/** A fork's original session file. */
	parentSession?: string;
}

/** Where an entry sits in the tree; every entry after the header has it (version 1 lines get one on load). */
export interface EntryBase {
	id: string;
	/** The entry this one follows; null for the first. */
	parentId: string | null;
	/** ISO time the entry was written. */
	timestamp: string;
}

/**
 * The fields of each entry kind, by `type`. A new kind (the rewind work's `checkpoint`) is one more
 * key here and one more schema in `entryKindSchemas`; loading, the tree and appends need no change.
 */
export interface SessionEntryKinds {
	message: { message: AgentMessage };
	model_change: { provider: string; modelId: string };
	thinking_level_change: { thinkingLevel: ThinkingLevel };
	compaction: {
		summary: string;
		/** The first message entry kept verbatim; the messages before it are what the summary replaces. */
		firstKeptEntryId: string;
		tokensBefore: number;
	};
	/**
	 * A snapshot of the workspace (src/session/checkpoints): `before` is taken before a prompt is sent
	 * (the prompt's user message is its child), `after` when that run ended.
	 */
	checkpoint: { snapshot: string; engine: "git" | "files"; when: "before" | "after" };
	/**
	 * A checkpoint taken before its snapshot ended (it covered edits only) is whole now: `snapshot` is
	 * its id covering everything. A child of that checkpoint, aside (it never moves the leaf).
	 */
	checkpoint_whole: { snapshot: string };
	/**
	 * The current position moved in the tree (a rewind, `/branch`, `/tree`): this entry is a child of the
	 * new position, so the branch to the last entry of the file is the one last used. `fromId` is the
	 * leaf that was left.
	 */
	branch: { fromId: string | null };
	/** The session's display name (pi's `session_info`); the latest one counts. */
	session_info: { name: string };
	/** The todo list the model wrote last (`todo_write`): the whole list; the branch's latest counts. */
	todo: { items: { content: string; status: "pending" | "in_progress" | "completed" }[] };
	/** MCP tools whose schemas `tool_search` loaded (src/extensions/mcp/tool-search.ts); the branch's entries add up. */
	mcp_tools: { names: string[] };
	/**
	 * A message of a sub-agent (the `task` tool): a side branch hanging off the main branch where the
	 * sub-agent started, each entry the child of that agent's previous one. It is never the leaf, so the
	 * main branch (and its next request) never contains it; export and `/tree` can show it.
	 */
	subagent: { agentId: string; name: string; parentToolCallId: string; message: AgentMessage };
}

export type SessionEntryKind = keyof SessionEntryKinds;

/** Kinds written aside (`SessionLog.appendAside`): never the leaf, never on the main branch. */
export const ASIDE_KINDS: ReadonlySet<SessionEntryKind> = new Set(["subagent", "checkpoint_whole"]);
/** What a caller appends: the kind and its fields; the log adds id, parentId and timestamp. */
export type NewSessionEntry = { [K in SessionEntryKind]: { type: K } & SessionEntryKinds[K] }[SessionEntryKind];
export type SessionEntry = NewSessionEntry & EntryBase;
export type EntryOf<K extends SessionEntryKind> = Extract<SessionEntry, { type: K }>;

// ---- Schemas -----------------------------------------------------------------------------------

const text = Type.Object({ type: Type.Literal("text"), text: Type.String() });
const image = Type.Object({ type: Type.Literal("image"), data: Type.String(), mimeType: Type.String() });
const thinking = Type.Object({ type: Type.Literal("thinking"), thinking: Type.String() });
const toolCall = Type.Object({
	type: Type.Literal("toolCall"),
	id: Type.String(),
	name: Type.String(),
	arguments: Type.Record(Type.String(), Type.Unknown()),
});
const source = Type.Object({ title: Type.String(), url: Type.String() });
const webSearch = Type.Object({
	type: Type.Literal("webSearch"),
	id: Type.String(),
	query: Type.String(),
	sources: Type.Array(source),
	replay: Type.Optional(Type.Array(Type.Unknown())),
});
const usage = Type.Object({
	input: Type.Number(),
	output: Type.Number(),
	cacheRead: Type.Number(),
	cacheWrite: Type.Number(),
	totalTokens: Type.Optional(Type.Number()),
	cost: Type.Object({ total: Type.Number() }),
});

/** One schema per message role; a role added elsewhere (a custom message) adds its schema here. */
export const messageSchemas: Record<string, TSchema> = {
	user: Type.Object({
		role: Type.Literal("user"),
		content: Type.Union([Type.String(), Type.Array(Type.Union([text, image]))]),
		timestamp: Type.Number(),
	}),
	assistant: Type.Object({
		role: Type.Literal("assistant"),
		content: Type.Array(Type.Union([text, thinking, toolCall, webSearch])),
		api: Type.String(),
		provider: Type.String(),
		model: Type.String(),
		usage,
		stopReason: Type.Union(["stop", "length", "toolUse", "error", "aborted"].map((r) => Type.Literal(r))),
		errorMessage: Type.Optional(Type.String()),
		timestamp: Type.Number(),
	}),
	toolResult: Type.Object({
		role: Type.Literal("toolResult"),
		toolCallId: Type.String(),
		toolName: Type.String(),
		content: Type.Array(Type.Union([text, image])),
		isError: Type.Boolean(),
		timestamp: Type.Number(),
	}),
	shellOutput: Type.Object({
		role: Type.Literal("shellOutput"),
		command: Type.String(),
		output: Type.String(),
		exitCode: Type.Union([Type.Number(), Type.Null()]),
		aborted: Type.Optional(Type.Boolean()),
		timestamp: Type.Number(),
	}),
	compactionSummary: Type.Object({
		role: Type.Literal("compactionSummary"),
		summary: Type.String(),
		tokensBefore: Type.Number(),
		timestamp: Type.Number(),
	}),
};

/** The fields of each entry kind after the base (the message itself is checked by `messageSchemas`). */
export const entryKindSchemas: { [K in SessionEntryKind]: TSchema } = {
	message: Type.Object({ message: Type.Object({ role: Type.String() }) }),
	model_change: Type.Object({ provider: Type.String(), modelId: Type.String() }),
	thinking_level_change: Type.Object({ thinkingLevel: Type.Union(THINKING_LEVELS.map((l) => Type.Literal(l))) }),
	compaction: Type.Object({ summary: Type.String(), firstKeptEntryId: Type.String(), tokensBefore: Type.Number() }),
	checkpoint: Type.Object({
		snapshot: Type.String({ minLength: 1 }),
		engine: Type.Union([Type.Literal("git"), Type.Literal("files")]),
		when: Type.Union([Type.Literal("before"), Type.Literal("after")]),
	}),
	checkpoint_whole: Type.Object({ snapshot: Type.String({ minLength: 1 }) }),
	branch: Type.Object({ fromId: Type.Union([Type.String(), Type.Null()]) }),
	session_info: Type.Object({ name: Type.String() }),
	todo: Type.Object({
		items: Type.Array(
			Type.Object({
				content: Type.String(),
				status: Type.Union([Type.Literal("pending"), Type.Literal("in_progress"), Type.Literal("completed")]),
			}),
		),
	}),
	mcp_tools: Type.Object({ names: Type.Array(Type.String()) }),
	subagent: Type.Object({
		agentId: Type.String(),
		name: Type.String(),
		parentToolCallId: Type.String(),
		message: Type.Object({ role: Type.String() }),
	}),
};

export const entryBaseSchema = Type.Object({
	type: Type.String(),
	id: Type.String({ minLength: 1 }),
	parentId: Type.Union([Type.String(), Type.Null()]),
	timestamp: Type.String(),
});

export const headerSchema = Type.Object({
	type: Type.Literal("session"),
	id: Type.String({ minLength: 1 }),
	cwd: Type.String(),
	timestamp: Type.String(),
	version: Type.Optional(Type.Number()),
	parentSession: Type.Optional(Type.String()),
});

/** Version 1 entries: no tree fields, `level` for the thinking level, compaction by message index. */
export const legacyEntrySchemas = {
	thinking_level_change: Type.Object({ level: Type.Union(THINKING_LEVELS.map((l) => Type.Literal(l))) }),
	compaction: Type.Object({
		summary: Type.String(),
		firstKeptIndex: Type.Number(),
		tokensBefore: Type.Number(),
		timestamp: Type.Optional(Type.Number()),
	}),
};

export type HeaderLine = Static<typeof headerSchema>;
