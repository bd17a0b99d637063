// What an approval shows before the call runs: the command, or the diff an edit or write would make,
// computed from the file as it is now with the tools' own edit logic. Nothing here writes.
import { readFileSync, statSync } from "node:fs";
import { applyEdits } from "../tools/edit-apply.js";
import { diffTexts } from "../tools/edit-diff.js";
import { resolveToolPath } from "../tools/resolve-path.js";
import { decodeText, normalizeLineEndings } from "../tools/text-encoding.js";

export type ApprovalPreview =
	| { type: "command"; command: string; sandbox: "bwrap" | "none"; network: boolean }
	| { type: "diff"; path: string; diff: string; truncatedLines: number }
	/** The call would fail as given (an edit whose text is not in the file); it may still be allowed. */
	| { type: "error"; path: string; text: string }
	| { type: "args"; text: string };

/** Files larger than this are not read for a preview. */
const MAX_PREVIEW_FILE = 2 * 1024 * 1024;
/** Diff lines kept in a preview; the rest are counted. */
const MAX_PREVIEW_LINES = 400;

/** The file's current text; "" when it does not exist. Throws a one-line reason when it cannot be shown. */
function currentText(file: string): string {
	let size: number;
	try {
		const stat = statSync(file);
		if (!stat.isFile()) throw new Error("not a regular file");
		size = stat.size;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
		throw error;
	}
	if (size > MAX_PREVIEW_FILE) throw new Error(`the file is ${Math.round(size / 1024)} KB, too large to preview`);
	return decodeText(readFileSync(file, "utf8")).text;
}

function capped(path: string, diff: string): ApprovalPreview {
	const lines = diff.split("\n");
	if (lines.length <= MAX_PREVIEW_LINES) return { type: "diff", path, diff, truncatedLines: 0 };
	return { type: "diff", path, diff: lines.slice(0, MAX_PREVIEW_LINES).join("\n"), truncatedLines: lines.length - MAX_PREVIEW_LINES };
}

export interface PreviewContext {
	cwd: string;
	sandbox: "bwrap" | "none";
	network: boolean;
}

export function previewCall(tool: string, args: Record<string, unknown>, ctx: PreviewContext): ApprovalPreview {
	if (tool === "bash") return { type: "command", command: String(args.command ?? ""), sandbox: ctx.sandbox, network: ctx.network };
	const path = typeof args.path === "string" ? args.path : "";
	if (tool === "write" || tool === "edit") {
		try {
			const before = currentText(resolveToolPath(path, ctx.cwd));
			const after =
				tool === "write"
					? normalizeLineEndings(String(args.content ?? ""))
					: applyEdits(
							before,
							(Array.isArray(args.edits) ? args.edits : []).map((e: { oldText?: unknown; newText?: unknown }) => ({
								oldText: normalizeLineEndings(String(e?.oldText ?? "")),
								newText: normalizeLineEndings(String(e?.newText ?? "")),
							})),
							path,
						);
			return capped(path, diffTexts(path, before, after).diff);
		} catch (error) {
			return { type: "error", path, text: (error instanceof Error ? error.message : String(error)).split("\n")[0] };
		}
	}
	return { type: "args", text: argumentLines(args) };
}

/** Arguments this long are cut (and say so); the approval's pager shows the rest up to here. */
const MAX_ARGS_TEXT = 64 * 1024;

/**
 * A tool's arguments as `key: value` lines, not JSON: a string shown as it is (a multi-line one
 * indented under its key), anything else as compact JSON. Everything is shown; the screen wraps it.
 */
export function argumentLines(args: Record<string, unknown>, indent = ""): string {
	const lines: string[] = [];
	for (const [key, value] of Object.entries(args ?? {})) {
		if (typeof value === "string" && value.includes("\n"))
			lines.push(`${indent}${key}:`, ...value.split("\n").map((line) => `${indent}  ${line}`));
		else if (typeof value === "string") lines.push(`${indent}${key}: ${value}`);
		else if (value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0)
			lines.push(`${indent}${key}:`, argumentLines(value as Record<string, unknown>, `${indent}  `));
		else lines.push(`${indent}${key}: ${JSON.stringify(value) ?? String(value)}`);
	}
	const text = lines.length > 0 ? lines.join("\n") : "(no arguments)";
	return text.length > MAX_ARGS_TEXT ? `${text.slice(0, MAX_ARGS_TEXT)}\n… ${text.length - MAX_ARGS_TEXT} more characters` : text;
}
