// How a Rudder tool call looks to an ACP client: its kind (the icon an editor shows), a one-line title,
// the files it touches (`locations`, so the editor can follow along) and, for edit and write, the change
// as `diff` content computed from the file as it is now with the edit tool's own logic. Nothing here writes.
import { readFileSync, statSync } from "node:fs";
import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import { applyEdits } from "../../tools/edit-apply.js";
import { resolveToolPath } from "../../tools/resolve-path.js";
import { decodeText, normalizeLineEndings } from "../../tools/text-encoding.js";

/** The built-in tools' kinds; any other tool (an MCP server's) is "other". */
const TOOL_KINDS: Readonly<Record<string, ToolKind>> = {
	read: "read",
	edit: "edit",
	write: "edit",
	bash: "execute",
	grep: "search",
	find: "search",
	ls: "search",
};

/** Files larger than this get no diff content (the title and location still name them). */
const MAX_DIFF_FILE_BYTES = 2 * 1024 * 1024;
/** A title is one line; a long command is cut here. */
const MAX_TITLE_CHARS = 120;

export interface ToolCallView {
	title: string;
	kind: ToolKind;
	locations: ToolCallLocation[];
	content: ToolCallContent[];
}

type Args = Record<string, unknown>;

export function toolKind(tool: string): ToolKind {
	return Object.hasOwn(TOOL_KINDS, tool) ? (TOOL_KINDS[tool] as ToolKind) : "other";
}

/** The view of a call with these arguments, for a session working in `cwd`. */
export function toolCallView(tool: string, args: unknown, cwd: string): ToolCallView {
	const a: Args = args && typeof args === "object" ? (args as Args) : {};
	const path = typeof a.path === "string" && a.path !== "" ? a.path : undefined;
	const absolute = path === undefined ? undefined : resolveToolPath(path, cwd);
	const kind = toolKind(tool);
	const locations: ToolCallLocation[] = absolute
		? [{ path: absolute, ...(tool === "read" && typeof a.offset === "number" ? { line: a.offset } : {}) }]
		: [];
	const content = (tool === "edit" || tool === "write") && absolute ? diffContent(tool, a, absolute) : [];
	return { title: oneLine(titleOf(tool, a, path)), kind, locations, content };
}

function titleOf(tool: string, a: Args, path: string | undefined): string {
	const str = (v: unknown) => (typeof v === "string" ? v : "");
	switch (tool) {
		case "read":
			return `Read ${path ?? ""}`;
		case "edit":
			return `Edit ${path ?? ""}`;
		case "write":
			return `Write ${path ?? ""}`;
		case "bash":
			return `Run ${str(a.command)}`;
		case "grep":
			return `Search for "${str(a.pattern)}"${path ? ` in ${path}` : ""}`;
		case "find":
			return `Find ${str(a.pattern)}${path ? ` in ${path}` : ""}`;
		case "ls":
			return `List ${path ?? "."}`;
		default:
			return tool;
	}
}

/** Whitespace runs become one space; long titles are cut with an ellipsis. */
function oneLine(text: string): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > MAX_TITLE_CHARS ? `${flat.slice(0, MAX_TITLE_CHARS - 1)}…` : flat;
}

/** The change as ACP `diff` content (`oldText` null for a new file); none when it cannot be computed. */
function diffContent(tool: "edit" | "write", a: Args, absolute: string): ToolCallContent[] {
	const before = currentText(absolute);
	if (before === false) return [];
	try {
		const newText =
			tool === "write"
				? normalizeLineEndings(String(a.content ?? ""))
				: applyEdits(
						before ?? "",
						(Array.isArray(a.edits) ? a.edits : []).map((e: { oldText?: unknown; newText?: unknown }) => ({
							oldText: normalizeLineEndings(String(e?.oldText ?? "")),
							newText: normalizeLineEndings(String(e?.newText ?? "")),
						})),
						absolute,
					);
		return [{ type: "diff", path: absolute, oldText: before, newText }];
	} catch {
		// An edit whose text is not in the file: the call fails and says why; there is no diff to show.
		return [];
	}
}

/** The file's text; null when it does not exist; false when it cannot be shown (not a file, too large). */
function currentText(file: string): string | null | false {
	try {
		const stat = statSync(file);
		if (!stat.isFile() || stat.size > MAX_DIFF_FILE_BYTES) return false;
		return decodeText(readFileSync(file, "utf8")).text;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "ENOENT" ? null : false;
	}
}
