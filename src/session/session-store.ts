// Session files: one JSONL file per session under `<dataDir>/sessions/<cwd slug>/`. The first line is a
// header; every later line is one complete entry, appended with a single write as soon as it is final,
// so a process killed at any moment leaves a file that loads (at worst its last line is torn and
// skipped). The file keeps the full history; a `compaction` entry only says where the model's context
// now starts.
import { randomUUID } from "node:crypto";
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { AgentMessage } from "../agent/types.js";
import type { ThinkingLevel, ToolResultMessage } from "../ai/index.js";
import { sessionsRoot } from "../config/paths.js";
import { type CompactionSummaryMessage, messageText } from "./session-messages.js";

type Env = Record<string, string | undefined>;

export const sessionFileVersion = 1;

export interface SessionHeader {
	type: "session";
	id: string;
	cwd: string;
	/** ISO time the session started. */
	timestamp: string;
	version: number;
}

export type SessionEntry =
	| { type: "message"; message: AgentMessage }
	| { type: "model_change"; provider: string; modelId: string }
	| { type: "thinking_level_change"; level: ThinkingLevel }
	| {
			type: "compaction";
			summary: string;
			/** Index, among this file's `message` entries, of the first message kept verbatim. */
			firstKeptIndex: number;
			tokensBefore: number;
			timestamp: number;
	  };

export interface LoadedSession {
	header: SessionHeader;
	/** The model's context: after the last compaction, a summary message then the kept messages. */
	messages: AgentMessage[];
	/** For each of `messages`, its index among the file's message entries (-1 for the summary). */
	messageIndices: number[];
	/** How many `message` entries the file holds. */
	messageCount: number;
	allEntries: SessionEntry[];
	/** Last model and thinking level recorded, if any. */
	model?: { provider: string; modelId: string };
	thinkingLevel?: ThinkingLevel;
	/** Lines that could not be read (a torn last line after a crash), one message each. */
	warnings: string[];
}

export interface SessionInfo {
	path: string;
	id: string;
	cwd: string;
	timestamp: string;
	modified: Date;
	messageCount: number;
	/** Text of the first user message, for pickers. */
	firstMessage: string;
	/** Size of the file. */
	bytes: number;
}

/** A folder name that says which project the sessions belong to: `/home/a/proj` → `--home-a-proj--`. */
export function cwdSlug(cwd: string): string {
	return `--${resolve(cwd)
		.replace(/^[/\\]+/, "")
		.replace(/[/\\:]+/g, "-")}--`;
}

export function sessionsDir(cwd: string, env?: Env): string {
	return join(sessionsRoot(env), cwdSlug(cwd));
}

// Keys whose values are credentials wherever they appear (compared without case, "-" or "_").
const secretKeys = new Set(["apikey", "authorization", "xapikey", "accesstoken", "refreshtoken", "password", "secret"]);

/**
 * Serialises an entry with every credential removed: keys that name one are dropped, and any known
 * secret string (the keys in use) is replaced wherever it appears, e.g. echoed inside tool output.
 */
export function serializeRedacted(value: unknown, secrets: readonly string[] = []): string {
	const known = secrets.filter((s) => s.length >= 8);
	return JSON.stringify(value, (key, v) => {
		if (key && secretKeys.has(key.toLowerCase().replace(/[-_]/g, ""))) return undefined;
		if (typeof v === "string" && known.length > 0) {
			let out = v;
			for (const secret of known) if (out.includes(secret)) out = out.split(secret).join("[redacted]");
			return out;
		}
		return v;
	});
}

/**
 * Appends entries to one session file. The file is created with its header on the first append, so a
 * session that never got a message leaves nothing behind.
 */
export class SessionWriter {
	private created: boolean;

	private constructor(
		readonly path: string,
		readonly header: SessionHeader,
		private readonly secrets: () => readonly string[],
	) {
		this.created = existsSync(path);
		if (this.created) this.endTornLine();
	}

	/** A new session file for `cwd` (not written until the first entry). */
	static create(options: { cwd: string; env?: Env; id?: string; secrets?: () => readonly string[] }): SessionWriter {
		const id = options.id ?? randomUUID();
		const now = new Date();
		const header: SessionHeader = {
			type: "session",
			id,
			cwd: resolve(options.cwd),
			timestamp: now.toISOString(),
			version: sessionFileVersion,
		};
		const file = `${now.toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`;
		return new SessionWriter(join(sessionsDir(options.cwd, options.env), file), header, options.secrets ?? (() => []));
	}

	/** Appends to an existing session file (resume). */
	static open(path: string, header: SessionHeader, secrets?: () => readonly string[]): SessionWriter {
		return new SessionWriter(path, header, secrets ?? (() => []));
	}

	/** One entry, one line, one write: a kill between writes never leaves half an entry before a whole one. */
	append(entry: SessionEntry): void {
		const line = `${serializeRedacted(entry, this.secrets())}\n`;
		if (!this.created) {
			mkdirSync(dirname(this.path), { recursive: true });
			appendFileSync(this.path, `${serializeRedacted(this.header)}\n${line}`, { mode: 0o600 });
			this.created = true;
			return;
		}
		appendFileSync(this.path, line);
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

/** Reads a session file; unreadable lines are skipped with a warning, never thrown. */
export function loadSession(path: string): LoadedSession {
	const lines = readFileSync(path, "utf8").split("\n");
	const warnings: string[] = [];
	let header: SessionHeader | undefined;
	const allEntries: SessionEntry[] = [];
	lines.forEach((line, i) => {
		if (!line.trim()) return;
		let parsed: any;
		try {
			parsed = JSON.parse(line);
		} catch {
			const where = i === lines.length - 1 ? "torn last line" : `line ${i + 1}`;
			warnings.push(`${basename(path)}: skipped unreadable ${where} (the process was probably killed while writing)`);
			return;
		}
		if (parsed?.type === "session" && !header) header = parsed;
		else if (typeof parsed?.type === "string") allEntries.push(parsed);
	});
	if (!header) throw new Error(`Not a session file (no header line): ${path}`);

	const all: AgentMessage[] = [];
	let compaction: Extract<SessionEntry, { type: "compaction" }> | undefined;
	let model: LoadedSession["model"];
	let thinkingLevel: ThinkingLevel | undefined;
	for (const entry of allEntries) {
		if (entry.type === "message") all.push(entry.message);
		else if (entry.type === "compaction") compaction = entry;
		else if (entry.type === "model_change") model = { provider: entry.provider, modelId: entry.modelId };
		else if (entry.type === "thinking_level_change") thinkingLevel = entry.level;
	}
	const messages: AgentMessage[] = [];
	const messageIndices: number[] = [];
	let first = 0;
	if (compaction) {
		const summary: CompactionSummaryMessage = {
			role: "compactionSummary",
			summary: compaction.summary,
			tokensBefore: compaction.tokensBefore,
			timestamp: compaction.timestamp,
		};
		messages.push(summary);
		messageIndices.push(-1);
		first = Math.min(compaction.firstKeptIndex, all.length);
	}
	for (let i = first; i < all.length; i++) {
		messages.push(all[i]);
		messageIndices.push(i);
	}
	return { header, messages, messageIndices, messageCount: all.length, allEntries, model, thinkingLevel, warnings };
}

/**
 * Makes a loaded transcript valid to send. A process killed while tools ran (or an old file from an
 * aborted run) can leave an assistant message whose tool calls have no results; providers reject that,
 * so each missing result is added, right after the call's other results, as an error saying the tool
 * was not run. The added results are not written to the file: this runs again on every load.
 */
export function repairTranscript(messages: readonly AgentMessage[]): AgentMessage[] {
	const out: AgentMessage[] = [];
	for (let i = 0; i < messages.length; i++) {
		const m = messages[i];
		out.push(m);
		if (m.role !== "assistant") continue;
		const calls = m.content.filter((c) => c.type === "toolCall");
		if (calls.length === 0) continue;
		const answered = new Set<string>();
		while (i + 1 < messages.length && messages[i + 1].role === "toolResult") {
			const result = messages[++i] as ToolResultMessage;
			answered.add(result.toolCallId);
			out.push(result);
		}
		for (const call of calls) {
			if (answered.has(call.id)) continue;
			out.push({
				role: "toolResult",
				toolCallId: call.id,
				toolName: call.name,
				content: [{ type: "text", text: "Tool was not run: the session ended before it finished (the run was interrupted)." }],
				isError: true,
				timestamp: m.timestamp,
			});
		}
	}
	return out;
}

/** Sessions of `cwd`, newest first. Unreadable files are left out. */
export function listSessions(cwd: string, env?: Env): SessionInfo[] {
	const dir = sessionsDir(cwd, env);
	if (!existsSync(dir)) return [];
	const infos: SessionInfo[] = [];
	for (const name of readdirSync(dir)) {
		if (!name.endsWith(".jsonl")) continue;
		const path = join(dir, name);
		const info = readSessionInfo(path);
		// A file with no header is not ours to list.
		if (info) infos.push(info);
	}
	// File names start with the ISO start time, so the name order is the start order; ties fall to mtime.
	return infos.sort((a, b) => b.modified.getTime() - a.modified.getTime() || basename(b.path).localeCompare(basename(a.path)));
}

const MESSAGE_LINE = Buffer.from('{"type":"message"');

/**
 * What a listing needs of a session file: its header, first user message and number of messages.
 * Only the header and the lines up to the first user message are decoded and parsed; the rest are
 * counted by their bytes (entries are written `{"type":…` first), so `--continue` and the picker stay
 * quick with many long sessions. Undefined when the file has no header.
 */
export function readSessionInfo(path: string): SessionInfo | undefined {
	let bytes: Buffer;
	try {
		bytes = readFileSync(path);
	} catch {
		return undefined;
	}
	let header: SessionHeader | undefined;
	let firstMessage: string | undefined;
	let messageCount = 0;
	for (let start = 0; start < bytes.length; ) {
		const newline = bytes.indexOf(0x0a, start);
		const end = newline === -1 ? bytes.length : newline;
		if (!header || firstMessage === undefined) {
			const entry = parseLine(bytes.toString("utf8", start, end));
			if (entry?.type === "session" && !header) header = entry as SessionHeader;
			else if (entry?.type === "message") {
				messageCount++;
				if (entry.message?.role === "user") firstMessage = messageText(entry.message).slice(0, 200);
			}
		} else if (
			end - start > MESSAGE_LINE.length &&
			bytes.compare(MESSAGE_LINE, 0, MESSAGE_LINE.length, start, start + MESSAGE_LINE.length) === 0 &&
			// A line torn by a crash is cut before its closing brace: loading skips it, so do we.
			bytes[end - 1] === 0x7d
		) {
			messageCount++;
		}
		start = end + 1;
	}
	if (!header) return undefined;
	return {
		path,
		id: header.id,
		cwd: header.cwd,
		timestamp: header.timestamp,
		modified: statSync(path).mtime,
		messageCount,
		firstMessage: firstMessage ?? "",
		bytes: bytes.length,
	};
}

function parseLine(line: string): any {
	if (!line.trim()) return undefined;
	try {
		return JSON.parse(line);
	} catch {
		return undefined;
	}
}

export function latestSession(cwd: string, env?: Env): SessionInfo | undefined {
	return listSessions(cwd, env)[0];
}

/** A session of `cwd` by id prefix; throws one line when none or several match. */
export function findSession(cwd: string, idPrefix: string, env?: Env): SessionInfo {
	const matches = listSessions(cwd, env).filter((s) => s.id.startsWith(idPrefix));
	if (matches.length === 0) throw new Error(`No session of ${resolve(cwd)} has an id starting with "${idPrefix}"`);
	if (matches.length > 1) throw new Error(`Several sessions match "${idPrefix}": ${matches.map((s) => s.id.slice(0, 8)).join(", ")}`);
	return matches[0];
}
