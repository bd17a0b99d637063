// read, write and edit through the editor (ACP `fs/read_text_file`, `fs/write_text_file`) when the
// client offers both: reads see unsaved buffers and edits land in them, so the user sees and can undo
// each change in the editor. The permission gate still decides before every call (it checks the path
// against the workspace and the rules before `execute` runs); only where the bytes go changes.
//
// createAgentSession takes tool names, not implementations, so the session's own tool objects get
// these `execute`s (`routeFilesThroughClient`): the objects are shared by every copy of the tool list (MCP
// servers coming and going rebuild the list from the same objects), so the swap holds for the session.
import { existsSync } from "node:fs";
import type { AgentContext } from "@agentclientprotocol/sdk";
import type { AgentTool, AgentToolResult } from "../../agent/types.js";
import { withRedactedResults } from "../../session/redacting-tools.js";
import { applyEdits } from "../../tools/edit-apply.js";
import { diffTexts } from "../../tools/edit-diff.js";
import { resolveToolPath } from "../../tools/resolve-path.js";
import { decodeText, encodeText, normalizeLineEndings } from "../../tools/text-encoding.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateHead } from "../../tools/truncate.js";

/** The editor's files for one session. */
export interface ClientFiles {
	read(path: string, window?: { line?: number; limit?: number }, signal?: AbortSignal): Promise<string>;
	write(path: string, content: string, signal?: AbortSignal): Promise<void>;
}

export function clientFilesOf(client: AgentContext, sessionId: string): ClientFiles {
	return {
		read: async (path, window = {}, signal) =>
			(await client.request("fs/read_text_file", { sessionId, path, ...window }, { cancellationSignal: signal })).content,
		write: async (path, content, signal) => {
			await client.request("fs/write_text_file", { sessionId, path, content }, { cancellationSignal: signal });
		},
	};
}

type Execute = AgentTool["execute"];

/** Images are read by Rudder's own tool: the editor's file API is for text. */
const IMAGE_FILE = /\.(png|jpe?g|gif|webp)$/i;

/**
 * The three executes, over `files`, for a session in `cwd`. As Rudder's own tools, an existing file is
 * written or edited only after the model read it (here: through the editor, in this session).
 */
export function clientFileTools(files: ClientFiles, cwd: string, ownRead: Execute): Record<"read" | "write" | "edit", Execute> {
	const seen = new Set<string>();
	const mustHaveRead = (absolute: string, display: string, verb: string) => {
		if (!seen.has(absolute)) throw new Error(`Cannot ${verb} ${display}: read it first (its current content has not been seen)`);
	};
	return {
		read: async (toolCallId, params: { path: string; offset?: number; limit?: number }, signal, onUpdate) => {
			if (IMAGE_FILE.test(params.path)) return ownRead(toolCallId, params, signal, onUpdate);
			const absolute = resolveToolPath(params.path, cwd);
			const line = params.offset ?? 1;
			const limit = Math.min(params.limit ?? DEFAULT_MAX_LINES, DEFAULT_MAX_LINES);
			// One line more than asked for tells whether the file goes on (the editor does not say how long it is).
			const lines = splitLines(await files.read(absolute, { line, limit: limit + 1 }, signal));
			seen.add(absolute);
			const cut = truncateHead(lines.slice(0, limit).join("\n"), { maxLines: limit, maxBytes: DEFAULT_MAX_BYTES });
			const goesOn = cut.truncated || lines.length > limit;
			const next = line + cut.outputLines;
			const more = goesOn ? `\n\n[Showing lines ${line}-${next - 1}. Use offset=${next} to continue.]` : "";
			return textResult(`${cut.content}${more}`, {});
		},
		write: async (_toolCallId, params: { path: string; content: string }, signal) => {
			const absolute = resolveToolPath(params.path, cwd);
			if (existsSync(absolute)) mustHaveRead(absolute, params.path, "write");
			await files.write(absolute, params.content, signal);
			seen.add(absolute);
			const bytes = Buffer.byteLength(params.content, "utf8");
			return textResult(`Wrote ${bytes} bytes to ${params.path}`, { bytes });
		},
		edit: async (_toolCallId, params: { path: string; edits: { oldText: string; newText: string }[] }, signal) => {
			const absolute = resolveToolPath(params.path, cwd);
			mustHaveRead(absolute, params.path, "edit");
			const { text: before, lineEnding, hasBom } = decodeText(await files.read(absolute, {}, signal));
			const edits = params.edits.map((e) => ({ oldText: normalizeLineEndings(e.oldText), newText: normalizeLineEndings(e.newText) }));
			const after = applyEdits(before, edits, params.path);
			await files.write(absolute, encodeText(after, lineEnding, hasBom), signal);
			const { diff, firstChangedLine } = diffTexts(params.path, before, after);
			const count = edits.length === 1 ? "1 edit" : `${edits.length} edits`;
			return textResult(`Applied ${count} to ${params.path}`, { diff, firstChangedLine });
		},
	};
}

/** Gives the session's read, write and edit tools the executes above (redacted as the session's tools are). */
export function routeFilesThroughClient(tools: readonly AgentTool[], files: ClientFiles, cwd: string): void {
	const byName = new Map(tools.map((t) => [t.name, t]));
	const read = byName.get("read");
	const executes = clientFileTools(files, cwd, read ? read.execute.bind(read) : missingRead);
	for (const name of ["read", "write", "edit"] as const) {
		const tool = byName.get(name);
		if (tool) tool.execute = withRedactedResults({ ...tool, execute: executes[name] }).execute;
	}
}

const missingRead: Execute = async () => {
	throw new Error("Images cannot be read in this session (the read tool is off)");
};

/** Lines of `text`; a final newline ends the last line rather than starting an empty one. */
function splitLines(text: string): string[] {
	const lines = text.split("\n");
	if (lines.length > 1 && lines.at(-1) === "") lines.pop();
	return lines;
}

function textResult<T>(text: string, details: T): AgentToolResult<T> {
	return { content: [{ type: "text", text }], details };
}
