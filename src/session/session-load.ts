// Loading a session file: every line is checked against the schemas of session-format.ts; a line that
// fails is skipped with one warning naming the file and the line, never a crash. Lines are streamed
// (line-reader.ts), so a huge line is skipped without being read into memory. Version 1 lines (no ids)
// are given ids in file order, so an old file loads as one branch.
import { statSync } from "node:fs";
import { Compile } from "typebox/compile";
import type { AgentMessage } from "../agent/types.js";
import type { ThinkingLevel, ToolResultMessage } from "../ai/index.js";
import { type FileLine, lineText, type ReadLinesOptions, readLines } from "./line-reader.js";
import {
	ASIDE_KINDS,
	entryBaseSchema,
	entryKindSchemas,
	headerSchema,
	legacyEntrySchemas,
	messageSchemas,
	type SessionEntry,
	type SessionEntryKind,
	type SessionHeader,
} from "./session-format.js";
import { type CompactionSummaryMessage, messageText } from "./session-messages.js";

export interface LoadedSession {
	path: string;
	header: SessionHeader;
	/** Every entry that loaded, in file order. */
	entries: SessionEntry[];
	/** The current branch: the entries from the first to the leaf (the last entry written). */
	branch: SessionEntry[];
	/** The leaf's id; new entries are appended as its children. Null for a file with no entries. */
	leafId: string | null;
	/** The model's context on the branch: after its last compaction, a summary then the kept messages. */
	messages: AgentMessage[];
	/** For each of `messages`, the id of the entry holding it (undefined for the compaction summary). */
	messageEntryIds: (string | undefined)[];
	/** Last model and thinking level recorded on the branch, if any. */
	model?: { provider: string; modelId: string };
	thinkingLevel?: ThinkingLevel;
	/** The branch's last todo list (`todo_write`), if any. */
	todos?: { content: string; status: "pending" | "in_progress" | "completed" }[];
	/** The MCP tools `tool_search` loaded on the branch (their schemas are sent again). */
	mcpTools?: string[];
	/** One line per skipped line of the file (at most `MAX_WARNINGS`, then a count). */
	warnings: string[];
}

export interface LoadOptions extends ReadLinesOptions {}

const MAX_WARNINGS = 10;

type Validator = ReturnType<typeof Compile>;
const compiled = new Map<object, Validator>();
function check(schema: object, value: unknown): string | undefined {
	let v = compiled.get(schema);
	if (!v) {
		v = Compile(schema as never);
		compiled.set(schema, v);
	}
	if (v.Check(value)) return undefined;
	for (const error of v.Errors(value)) {
		const path = (error.instancePath ?? "").replace(/^\//, "").replace(/\//g, ".");
		return `${path ? `"${path}" ` : ""}${error.message}`;
	}
	return "does not match the schema";
}

/** Reads a session file. Throws one line only when the file cannot be read or has no valid header. */
export function loadSession(path: string, options: LoadOptions = {}): LoadedSession {
	const warnings: string[] = [];
	let skippedLines = 0;
	const warn = (lineNo: number, problem: string) => {
		skippedLines++;
		if (warnings.length < MAX_WARNINGS) warnings.push(`${path}: skipped line ${lineNo}: ${problem}`);
	};
	let header: SessionHeader | undefined;
	const builder = new EntryBuilder();
	for (const line of readLines(path, options)) {
		const parsed = parseFileLine(line, warn);
		if (parsed === undefined) continue;
		if (!header) {
			if (parsed.type === "session") {
				const problem = check(headerSchema, parsed);
				if (problem) throw new Error(`Not a session file (bad header on line ${line.lineNo}: ${problem}): ${path}`);
				header = { ...(parsed as unknown as SessionHeader), version: (parsed.version as number | undefined) ?? 1 };
			} else warn(line.lineNo, "comes before the session header");
			continue;
		}
		const problem = builder.add(parsed, line.lineNo, header.timestamp);
		if (problem) warn(line.lineNo, problem);
	}
	if (!header) throw new Error(`Not a session file (no header line): ${path}`);
	if (skippedLines > warnings.length) warnings.push(`${path}: ${skippedLines - warnings.length} more bad lines skipped`);
	return { path, header, warnings, ...builder.result() };
}

/** The JSON object of a line, or undefined (blank, too long, unreadable: the last two are warned about). */
function parseFileLine(line: FileLine, warn: (lineNo: number, problem: string) => void): Record<string, unknown> | undefined {
	if ("tooLong" in line) {
		warn(line.lineNo, `${formatBytes(line.tooLong)}, over the limit for one entry`);
		return undefined;
	}
	const text = line.lineNo === 1 ? lineText(line.bytes) : line.bytes.toString("utf8");
	if (!text.trim()) return undefined;
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		warn(line.lineNo, line.last ? "unreadable torn last line (the process was probably killed while writing)" : "not valid JSON");
		return undefined;
	}
	if (typeof value !== "object" || value === null || Array.isArray(value) || typeof (value as { type?: unknown }).type !== "string") {
		warn(line.lineNo, 'not an entry (a JSON object with a string "type")');
		return undefined;
	}
	return value as Record<string, unknown>;
}

/** Turns checked lines into entries with ids, then walks the tree from the leaf. */
class EntryBuilder {
	private readonly entries: SessionEntry[] = [];
	private readonly indexById = new Map<string, number>();
	/** Version 1 compactions name the kept message by its ordinal among the file's message lines. */
	private readonly messageIdByOrdinal: (string | undefined)[] = [];

	/** Adds one parsed line; returns why it was skipped, if it was. */
	add(raw: Record<string, unknown>, lineNo: number, headerTime: string): string | undefined {
		const type = raw.type as string;
		if (type === "message") this.messageIdByOrdinal.push(undefined);
		const legacy = raw.id === undefined;
		const entry = legacy ? this.fromLegacy(raw, lineNo, headerTime) : raw;
		if (typeof entry === "string") return entry;
		const problem = this.check(entry, type);
		if (problem) return problem;
		if (this.indexById.has(entry.id as string)) return `duplicate entry id "${entry.id}"`;
		if (type === "message") this.messageIdByOrdinal[this.messageIdByOrdinal.length - 1] = entry.id as string;
		this.indexById.set(entry.id as string, this.entries.length);
		this.entries.push(entry as unknown as SessionEntry);
		return undefined;
	}

	private check(entry: Record<string, unknown>, type: string): string | undefined {
		const kind = entryKindSchemas[type as SessionEntryKind];
		if (!kind) return `unknown entry type "${type}" (written by a newer Rudder?)`;
		const problem = check(entryBaseSchema, entry) ?? check(kind, entry);
		if (problem) return `${type} entry: ${problem}`;
		if (type !== "message") return undefined;
		const message = entry.message as { role: string };
		const schema = messageSchemas[message.role];
		if (!schema) return `unknown message role "${message.role}"`;
		const messageProblem = check(schema, message);
		return messageProblem ? `${message.role} message: ${messageProblem.replace(/^"/, '"message.')}` : undefined;
	}

	/** A version 1 line with the tree fields it lacks: its line number as id, the previous entry as parent. */
	private fromLegacy(raw: Record<string, unknown>, lineNo: number, headerTime: string): Record<string, unknown> | string {
		const base = { id: `L${lineNo}`, parentId: this.entries.at(-1)?.id ?? null, timestamp: headerTime };
		if (raw.type === "thinking_level_change") {
			const problem = check(legacyEntrySchemas.thinking_level_change, raw);
			if (problem) return `thinking_level_change entry: ${problem}`;
			return { type: raw.type, ...base, thinkingLevel: raw.level };
		}
		if (raw.type === "compaction") {
			const problem = check(legacyEntrySchemas.compaction, raw);
			if (problem) return `compaction entry: ${problem}`;
			const index = raw.firstKeptIndex as number;
			const kept = this.messageIdByOrdinal.slice(Math.max(0, index)).find((id) => id !== undefined);
			const time = typeof raw.timestamp === "number" ? new Date(raw.timestamp).toISOString() : headerTime;
			// Nothing kept (all skipped): the summary alone stands for what came before.
			return {
				type: raw.type,
				...base,
				timestamp: time,
				summary: raw.summary,
				tokensBefore: raw.tokensBefore,
				firstKeptEntryId: kept ?? "",
			};
		}
		const message = raw.message as { timestamp?: unknown } | undefined;
		const time = typeof message?.timestamp === "number" ? safeIso(message.timestamp, headerTime) : headerTime;
		return { ...raw, ...base, timestamp: time };
	}

	result(): Omit<LoadedSession, "path" | "header" | "warnings"> {
		const branch = this.branch();
		const messages: AgentMessage[] = [];
		const messageEntryIds: (string | undefined)[] = [];
		let model: LoadedSession["model"];
		let thinkingLevel: ThinkingLevel | undefined;
		let compactionAt = -1;
		branch.forEach((entry, i) => {
			if (entry.type === "model_change") model = { provider: entry.provider, modelId: entry.modelId };
			else if (entry.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
			else if (entry.type === "compaction") compactionAt = i;
		});
		let first = 0;
		if (compactionAt >= 0) {
			const compaction = branch[compactionAt] as Extract<SessionEntry, { type: "compaction" }>;
			const summary: CompactionSummaryMessage = {
				role: "compactionSummary",
				summary: compaction.summary,
				tokensBefore: compaction.tokensBefore,
				timestamp: Date.parse(compaction.timestamp) || 0,
			};
			messages.push(summary);
			messageEntryIds.push(undefined);
			const kept = branch.findIndex((e, i) => i < compactionAt && e.id === compaction.firstKeptEntryId);
			first = kept >= 0 ? kept : compactionAt + 1;
		}
		for (let i = first; i < branch.length; i++) {
			const entry = branch[i];
			if (entry.type !== "message") continue;
			messages.push(entry.message);
			messageEntryIds.push(entry.id);
		}
		const todos = branch.findLast((e) => e.type === "todo")?.items;
		const mcpTools = [...new Set(branch.flatMap((e) => (e.type === "mcp_tools" ? e.names : [])))];
		const leafId = this.entries[this.leafIndex()]?.id ?? null;
		return {
			entries: this.entries,
			branch,
			leafId,
			messages,
			messageEntryIds,
			model,
			thinkingLevel,
			...(todos ? { todos } : {}),
			mcpTools,
		};
	}

	/** The last entry that is not on a side branch (a sub-agent's message, a checkpoint made whole): where the main branch ends. */
	private leafIndex(): number {
		let index = this.entries.length - 1;
		while (index >= 0 && ASIDE_KINDS.has(this.entries[index].type)) index--;
		return index;
	}

	/**
	 * From the leaf (the last entry in the file) up through `parentId` to the first entry, then reversed.
	 * A parent that did not load (its line was skipped) is replaced by the entry before the child in the
	 * file, so one bad line never cuts off the history before it.
	 */
	private branch(): SessionEntry[] {
		const path: SessionEntry[] = [];
		const seen = new Set<number>();
		let index = this.leafIndex();
		while (index >= 0 && !seen.has(index)) {
			seen.add(index);
			const entry = this.entries[index];
			path.push(entry);
			if (entry.parentId === null) break;
			index = this.indexById.get(entry.parentId) ?? index - 1;
		}
		return path.reverse();
	}
}

function safeIso(ms: number, fallback: string): string {
	const date = new Date(ms);
	return Number.isNaN(date.getTime()) ? fallback : date.toISOString();
}

function formatBytes(n: number): string {
	if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GB`;
	if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MB`;
	return `${(n / 1024).toFixed(1)} KB`;
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

/** What a listing shows of a session file. */
export interface SessionInfo {
	path: string;
	id: string;
	cwd: string;
	timestamp: string;
	modified: Date;
	/**
	 * Messages on the current branch (the path to the file's last entry), compacted ones included: what
	 * every listing and the "Resumed" notice call a session's messages (`branchMessageCount`).
	 */
	messageCount: number;
	/** Text of the first user message, for pickers. */
	firstMessage: string;
	/** Size of the file. */
	bytes: number;
}

const MESSAGE_LINE = Buffer.from('{"type":"message"');

/** The messages on a loaded session's current branch, counted as `SessionInfo.messageCount` counts them. */
export function branchMessageCount(loaded: Pick<LoadedSession, "branch">): number {
	return loaded.branch.filter((e) => e.type === "message").length;
}

/** An entry's place in the tree, as a listing sees it. */
interface TreeNode {
	id: string | undefined;
	parentId: string | null | undefined;
	message: boolean;
}

/**
 * The log writes `id`, `parentId` and `timestamp` last, so they are read off a line's last bytes; a line
 * written otherwise (copied by a fork from an older file) is parsed whole. No id: a version 1 line.
 */
const TREE_TAIL = /"id":"([^"\\]+)","parentId":(?:null|"([^"\\]+)"),"timestamp":"[^"\\]*"\}\s*$/;
function treeNode(bytes: Buffer, message: boolean): TreeNode | undefined {
	const tail = TREE_TAIL.exec(bytes.subarray(Math.max(0, bytes.length - 160)).toString("latin1"));
	if (tail) return { id: tail[1], parentId: tail[2] ?? null, message };
	const entry = parseQuietly(bytes.toString("utf8"));
	if (!entry) return undefined;
	const id = typeof entry.id === "string" ? entry.id : undefined;
	const parentId = typeof entry.parentId === "string" || entry.parentId === null ? entry.parentId : undefined;
	return { id, parentId, message };
}

/** Messages from the last entry up through the parents, as loadSession's branch walk goes. */
function countBranch(nodes: readonly TreeNode[]): number {
	const indexById = new Map<string, number>();
	nodes.forEach((n, i) => {
		if (n.id !== undefined) indexById.set(n.id, i);
	});
	const seen = new Set<number>();
	let count = 0;
	let index = nodes.length - 1;
	while (index >= 0 && !seen.has(index)) {
		seen.add(index);
		const node = nodes[index];
		if (node.message) count++;
		if (node.parentId === null) break;
		// A version 1 line (no parent) follows the line before it; so does a child of a line that did not load.
		index = (node.parentId !== undefined ? indexById.get(node.parentId) : undefined) ?? index - 1;
	}
	return count;
}

/**
 * What a listing needs of a session file: its header, first user message and number of messages on
 * its current branch. Only the header and the lines up to the first user message are decoded, checked
 * and parsed; of the rest, the kind is read off the line's first bytes (entries are written `{"type":…`
 * first) and the tree fields off its last, so `--continue` and the picker stay quick with many long
 * sessions. Undefined when the file has no valid header.
 */
export function readSessionInfo(path: string, options: ReadLinesOptions = {}): SessionInfo | undefined {
	let header: SessionHeader | undefined;
	let firstMessage: string | undefined;
	const nodes: TreeNode[] = [];
	try {
		for (const line of readLines(path, options)) {
			if ("tooLong" in line) continue;
			const bytes = line.bytes;
			if (!header || firstMessage === undefined) {
				const entry = parseQuietly(line.lineNo === 1 ? lineText(bytes) : bytes.toString("utf8"));
				if (!header) {
					if (entry?.type === "session" && check(headerSchema, entry) === undefined) header = entry as unknown as SessionHeader;
					continue;
				}
				if (!entry) continue;
				let message = false;
				if (entry.type === "message") {
					const m = entry.message as { role?: string } | undefined;
					if (!m || !messageSchemas[m.role ?? ""] || check(messageSchemas[m.role ?? ""], m)) continue;
					message = true;
					if (m.role === "user") firstMessage = messageText(m as AgentMessage).slice(0, 200);
				}
				nodes.push({
					id: typeof entry.id === "string" ? entry.id : undefined,
					parentId: typeof entry.parentId === "string" || entry.parentId === null ? entry.parentId : undefined,
					message,
				});
			} else if (bytes[bytes.length - 1] === 0x7d) {
				// A line torn by a crash is cut before its closing brace: loading skips it, so do we.
				const message =
					bytes.length > MESSAGE_LINE.length && bytes.compare(MESSAGE_LINE, 0, MESSAGE_LINE.length, 0, MESSAGE_LINE.length) === 0;
				const node = treeNode(bytes, message);
				if (node) nodes.push(node);
			}
		}
		if (!header) return undefined;
		const messageCount = countBranch(nodes);
		const stat = statSync(path);
		return {
			path,
			id: header.id,
			cwd: header.cwd,
			timestamp: header.timestamp,
			modified: stat.mtime,
			messageCount,
			firstMessage: firstMessage ?? "",
			bytes: stat.size,
		};
	} catch {
		return undefined;
	}
}

function parseQuietly(text: string): Record<string, unknown> | undefined {
	if (!text.trim()) return undefined;
	try {
		const value = JSON.parse(text);
		return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
	} catch {
		return undefined;
	}
}
