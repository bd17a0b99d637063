// The one writer of a session file. `SessionLog` owns the file: its header, the entry ids and the tree
// position (each new entry is a child of the last), which transcript messages are already written,
// and the lock that keeps a second process out. `AgentSession` tells it what happened; nothing else
// writes the file. The file is created with its header on the first append, so a session that never
// got a message leaves nothing behind. One entry is one line written with one call, so a process
// killed at any moment leaves a file that loads (at worst its last line is torn and skipped).
import { randomBytes, randomUUID } from "node:crypto";
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { AgentMessage } from "../agent/types.js";
import type { ThinkingLevel } from "../ai/index.js";
import { type NewSessionEntry, type SessionEntry, type SessionHeader, sessionFileVersion } from "./session-format.js";
import type { LoadedSession } from "./session-load.js";
import { lockSessionFile, type SessionLock } from "./session-lock.js";
import type { CompactionSummaryMessage } from "./session-messages.js";
import { rememberLastUsed, serializeRedacted, sessionsDir } from "./session-store.js";

type Env = Record<string, string | undefined>;

export interface SessionLogOptions {
	/** Secrets to redact from every line (the keys in use), read at each append. */
	secrets?: () => readonly string[];
}

export class SessionLog {
	private created: boolean;
	private lock?: SessionLock;
	private leafId: string | null;
	private readonly ids = new Set<string>();
	/** The entry id of each transcript message that is in the file. */
	private readonly entryIds = new WeakMap<AgentMessage, string>();
	/** Transcript messages that are deliberately not written (repairs, the compaction summary). */
	private readonly unwritten = new WeakSet<AgentMessage>();
	/** The transcript array last synced and how far; a new array (a replaced transcript) is scanned again. */
	private synced: { messages: readonly AgentMessage[] | undefined; length: number } = { messages: undefined, length: 0 };
	private readonly secrets: () => readonly string[];

	private constructor(
		readonly path: string,
		readonly header: SessionHeader,
		options: SessionLogOptions,
		loaded?: LoadedSession,
	) {
		this.secrets = options.secrets ?? (() => []);
		this.created = existsSync(path);
		this.leafId = loaded?.leafId ?? null;
		for (const entry of loaded?.entries ?? []) this.ids.add(entry.id);
	}

	/** A new session file for `cwd`; not written (nor locked) until the first entry. */
	static create(options: SessionLogOptions & { cwd: string; env?: Env; id?: string; parentSession?: string }): SessionLog {
		const id = options.id ?? randomUUID();
		const now = new Date();
		const header: SessionHeader = {
			type: "session",
			version: sessionFileVersion,
			id,
			timestamp: now.toISOString(),
			cwd: resolve(options.cwd),
			...(options.parentSession ? { parentSession: options.parentSession } : {}),
		};
		const file = `${now.toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`;
		return new SessionLog(join(sessionsDir(options.cwd, options.env), file), header, options);
	}

	/**
	 * Continues a loaded file: takes its lock (throws `SessionLockedError` when another process has it)
	 * and appends after its leaf. Call `adopt` with the transcript built from it.
	 */
	static open(loaded: LoadedSession, options: SessionLogOptions = {}): SessionLog {
		const lock = lockSessionFile(loaded.path);
		const log = new SessionLog(loaded.path, loaded.header, options, loaded);
		log.lock = lock;
		log.endTornLine();
		rememberLastUsed(loaded.path);
		return log;
	}

	/**
	 * A new session file holding a copy of `loaded`'s entries (same ids, so the tree is the same), its
	 * header naming the original. For a session another process has open: the two go on separately.
	 */
	static fork(loaded: LoadedSession, options: SessionLogOptions & { cwd: string; env?: Env }): SessionLog {
		const log = SessionLog.create({ ...options, parentSession: loaded.path });
		for (const entry of loaded.entries) log.write(entry);
		log.leafId = loaded.leafId;
		return log;
	}

	/** Marks the transcript built from the file as written: its messages are in the file or stay out of it. */
	adopt(messages: readonly AgentMessage[], loaded?: LoadedSession): void {
		const idOf = new Map<AgentMessage, string | undefined>();
		for (let i = 0; i < (loaded?.messages.length ?? 0); i++) idOf.set((loaded as LoadedSession).messages[i], loaded?.messageEntryIds[i]);
		for (const message of messages) {
			const id = idOf.get(message);
			if (id) this.entryIds.set(message, id);
			else this.unwritten.add(message);
		}
		this.synced = { messages, length: messages.length };
	}

	/** Appends the transcript messages not yet in the file, in order. */
	syncMessages(messages: readonly AgentMessage[]): void {
		const from = this.synced.messages === messages ? Math.min(this.synced.length, messages.length) : 0;
		for (let i = from; i < messages.length; i++) {
			const message = messages[i];
			if (this.entryIds.has(message) || this.unwritten.has(message)) continue;
			this.entryIds.set(message, this.append({ type: "message", message }));
		}
		this.synced = { messages, length: messages.length };
	}

	appendModelChange(provider: string, modelId: string): void {
		this.append({ type: "model_change", provider, modelId });
	}

	appendThinkingLevel(thinkingLevel: ThinkingLevel): void {
		this.append({ type: "thinking_level_change", thinkingLevel });
	}

	/**
	 * Records a compaction: `summary` now stands for the messages before `firstKept`, which must be in
	 * the file already (throws otherwise, before writing anything).
	 */
	appendCompaction(summary: CompactionSummaryMessage, firstKept: AgentMessage): void {
		const firstKeptEntryId = this.entryIds.get(firstKept);
		if (firstKeptEntryId === undefined) throw new Error("The first kept message is not in the session file");
		// Stamped with the summary's own time: a reload rebuilds the summary from the entry, and must match it.
		this.append(
			{ type: "compaction", summary: summary.summary, firstKeptEntryId, tokensBefore: summary.tokensBefore },
			new Date(summary.timestamp),
		);
		this.unwritten.add(summary);
	}

	/** The id of the entry holding `message`, if it is in the file. */
	entryIdOf(message: AgentMessage): string | undefined {
		return this.entryIds.get(message);
	}

	/** The last entry written (new entries become its children). */
	get leaf(): string | null {
		return this.leafId;
	}

	/**
	 * Moves the position in the tree to `id` (null: before the first entry) and records the move with a
	 * `branch` entry there, so a later load continues on this branch. Returns the marker's id.
	 */
	branchFrom(id: string | null): string {
		if (id !== null && !this.ids.has(id)) throw new Error(`No entry ${id} in ${this.path}`);
		const fromId = this.leafId;
		this.leafId = id;
		return this.append({ type: "branch", fromId });
	}

	/** Appends any entry kind (see `SessionEntryKinds`) as a child of the leaf; returns its id. */
	append(entry: NewSessionEntry, at: Date = new Date()): string {
		const id = this.newId();
		this.write({ ...entry, id, parentId: this.leafId, timestamp: at.toISOString() } as SessionEntry);
		this.leafId = id;
		return id;
	}

	/**
	 * Appends an entry as a child of `parentId` without moving the leaf: a side branch (a sub-agent's
	 * messages) that the main branch never passes through. Returns its id.
	 */
	appendAside(entry: NewSessionEntry, parentId: string | null): string {
		const id = this.newId();
		this.write({ ...entry, id, parentId, timestamp: new Date().toISOString() } as SessionEntry);
		return id;
	}

	/** Lets another process open the file. Appending after this is an error. */
	close(): void {
		this.lock?.release();
		this.closed = true;
	}

	private closed = false;

	/** One entry, one line, one write: a kill between writes never leaves half an entry before a whole one. */
	private write(entry: SessionEntry): void {
		if (this.closed) throw new Error(`The session file ${this.path} was closed`);
		const line = `${serializeRedacted(entry, this.secrets())}\n`;
		this.ids.add(entry.id);
		if (!this.created) {
			mkdirSync(dirname(this.path), { recursive: true });
			this.lock = lockSessionFile(this.path);
			appendFileSync(this.path, `${serializeRedacted(this.header)}\n${line}`, { mode: 0o600 });
			this.created = true;
			rememberLastUsed(this.path);
			return;
		}
		appendFileSync(this.path, line);
	}

	/** 8 hex digits, as pi's entries have, unique within the file. */
	private newId(): string {
		for (;;) {
			const id = randomBytes(4).toString("hex");
			if (!this.ids.has(id)) return id;
		}
	}

	/** After a crash the last line may be torn; start ours on a fresh line so it stays readable. */
	private endTornLine(): void {
		const size = statSync(this.path).size;
		if (size === 0) return;
		const fd = openSync(this.path, "r");
		try {
			const last = Buffer.alloc(1);
			readSync(fd, last, 0, 1, size - 1);
			if (last[0] !== 0x0a) appendFileSync(this.path, "\n");
		} finally {
			closeSync(fd);
		}
	}
}
