// The `grep` tool: searches file contents under a path, in pure Node (no ripgrep needed), skipping
// ignored, vendored and binary files.
import { readFile, realpath, stat } from "node:fs/promises";
import { basename } from "node:path";
import { type Static, Type } from "typebox";
import type { AgentTool } from "../agent/types.js";
import { throwIfAborted } from "./abort.js";
import { deniedPathError, type HiddenCount, hiddenNote, type PathDenial } from "./denied-paths.js";
import { looksBinary } from "./file-kind.js";
import { describeFsError } from "./fs-errors.js";
import { compileGlob } from "./glob.js";
import { type LinkCheck, linkedNote } from "./linked-outside.js";
import { capListing, LISTING_CUT_NOTE, limitNote, withNotes } from "./listing-output.js";
import { notRegularFileError } from "./regular-file.js";
import { resolveToolPath } from "./resolve-path.js";
import { ripgrepFiles, ripgrepOnPath } from "./ripgrep-files.js";
import { truncateLine } from "./truncate.js";
import { walkFiles } from "./walk-files.js";

/** Longest matching line shown; minified files would otherwise flood the result. */
export const GREP_MAX_LINE_CHARS = 500;

const grepSchema = Type.Object({
	pattern: Type.String({ description: "Regular expression (JavaScript syntax), or plain text with literal: true" }),
	path: Type.Optional(Type.String({ description: "File or folder to search (default: the working directory)" })),
	glob: Type.Optional(Type.String({ description: "Only search files matching this glob, e.g. '*.ts' or 'src/**/*.test.ts'" })),
	ignoreCase: Type.Optional(Type.Boolean({ description: "Case-insensitive search (default false)" })),
	literal: Type.Optional(Type.Boolean({ description: "Treat the pattern as plain text, not a regular expression (default false)" })),
	context: Type.Optional(Type.Integer({ minimum: 0, description: "Lines of context before and after each match (default 0)" })),
	limit: Type.Optional(Type.Integer({ minimum: 1, description: "Maximum number of matches (default 100)" })),
});

export type GrepToolInput = Static<typeof grepSchema>;

export interface GrepToolDetails {
	matchCount: number;
	/** Set when the match limit stopped the search early. */
	matchLimitReached?: number;
	/** Set when the output was cut by the byte cap. */
	byteLimitReached?: boolean;
	/** Set when some lines were cut to `GREP_MAX_LINE_CHARS`. */
	linesTruncated?: boolean;
}

export interface GrepToolOptions {
	/** Default match limit; 100. */
	defaultLimit?: number;
	/** Files and folders permission deny rules hide from grep: not searched. */
	denied?: PathDenial;
	/** Whether a linked file's target may be read without asking; others are skipped (see linked-outside.ts). */
	links?: LinkCheck;
	/** The ripgrep binary that picks the files to search; false walks in Node. Default: `rg` on PATH, if any. */
	ripgrep?: string | false;
}

export function createGrepTool(cwd: string, options: GrepToolOptions = {}): AgentTool<typeof grepSchema, GrepToolDetails> {
	const defaultLimit = options.defaultLimit ?? 100;
	return {
		name: "grep",
		label: "grep",
		description: `Search file contents for a pattern. Respects .gitignore and skips .git, node_modules and binary files. Prints 'path:line: text' for matches (context lines as 'path-line- text'). Stops after ${defaultLimit} matches by default; lines are cut at ${GREP_MAX_LINE_CHARS} chars.`,
		parameters: grepSchema,
		async execute(_toolCallId, params: GrepToolInput, signal) {
			throwIfAborted(signal);
			const regex = compilePattern(params);
			const searchPath = resolveToolPath(params.path ?? ".", cwd);
			const searched = await stat(searchPath).catch((error) => {
				throw describeFsError(error, params.path ?? ".");
			});
			const isDirectory = searched.isDirectory();
			// /dev/zero would be read forever and a FIFO would block the read.
			if (!isDirectory && !searched.isFile()) throw notRegularFileError(params.path ?? ".", searched, "search");
			const denied = options.denied;
			const rule = denied?.(await realpath(searchPath), isDirectory);
			if (rule) throw deniedPathError("search", params.path ?? ".", rule);
			const hidden: HiddenCount = { count: 0 };
			const limit = params.limit ?? defaultLimit;
			const matchesGlob = params.glob ? compileGlob(params.glob) : () => true;
			const context = params.context ?? 0;

			const linked: HiddenCount = { count: 0 };
			const rg = options.ripgrep ?? ripgrepOnPath();
			const contains = { pattern: params.pattern, literal: params.literal, ignoreCase: params.ignoreCase };
			const listed =
				isDirectory && rg
					? await ripgrepFiles(searchPath, { rg, signal, denied, hidden, links: options.links, linked, contains })
					: undefined;
			const files = !isDirectory
				? singleFile(searchPath, basename(searchPath))
				: (listed ?? walkFiles(searchPath, { signal, denied, hidden, links: options.links, linked }));
			const out: string[] = [];
			let matchCount = 0;
			let linesTruncated = false;
			for await (const file of files) {
				if (matchCount >= limit) break;
				throwIfAborted(signal);
				if (!matchesGlob(file.relativePath)) continue;
				const bytes = await readFile(file.absolutePath).catch(() => undefined);
				if (!bytes || looksBinary(bytes)) continue;
				const found = searchLines(bytes.toString("utf8"), regex, context, limit - matchCount);
				for (const line of found.lines) {
					const cut = truncateLine(line.text, GREP_MAX_LINE_CHARS);
					linesTruncated ||= cut.wasTruncated;
					out.push(line.isMatch ? `${file.relativePath}:${line.number}: ${cut.text}` : `${file.relativePath}-${line.number}- ${cut.text}`);
				}
				matchCount += found.matchCount;
			}

			const skipped = [hiddenNote(hidden, "path"), linkedNote(linked.count)].filter((n): n is string => n !== undefined);
			if (matchCount === 0) {
				return {
					content: [{ type: "text", text: withNotes("No matches found", skipped) }],
					details: { matchCount },
				};
			}
			const listing = capListing(out);
			const details: GrepToolDetails = { matchCount };
			const notes: string[] = [...skipped];
			if (matchCount >= limit) {
				details.matchLimitReached = limit;
				notes.push(limitNote(limit, "matches"));
			}
			if (listing.cut) {
				details.byteLimitReached = true;
				notes.push(LISTING_CUT_NOTE);
			}
			if (linesTruncated) {
				details.linesTruncated = true;
				notes.push(`Some lines were cut to ${GREP_MAX_LINE_CHARS} chars; use read to see them whole`);
			}
			return { content: [{ type: "text", text: withNotes(listing.text, notes) }], details };
		},
	};
}

function compilePattern(params: GrepToolInput): RegExp {
	const source = params.literal ? params.pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : params.pattern;
	try {
		return new RegExp(source, params.ignoreCase ? "i" : "");
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new Error(
			`Invalid regular expression ${JSON.stringify(params.pattern)}: ${reason.replace(/^Invalid regular expression: /, "")}. Pass literal: true to search for plain text`,
		);
	}
}

async function* singleFile(absolutePath: string, relativePath: string) {
	yield { absolutePath, relativePath, isDirectory: false };
}

interface FoundLine {
	number: number;
	text: string;
	isMatch: boolean;
}

/** Matching lines with their context, each line once, in file order; at most `maxMatches` matches. */
export function searchLines(text: string, regex: RegExp, context: number, maxMatches: number): { lines: FoundLine[]; matchCount: number } {
	const lines = text.split("\n");
	if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
	const found: FoundLine[] = [];
	let matchCount = 0;
	let lastEmitted = -1;
	for (let i = 0; i < lines.length && matchCount < maxMatches; i++) {
		const line = (lines[i] as string).replace(/\r$/, "");
		if (!regex.test(line)) continue;
		matchCount++;
		for (let j = Math.max(lastEmitted + 1, i - context); j < i; j++) {
			found.push({ number: j + 1, text: (lines[j] as string).replace(/\r$/, ""), isMatch: false });
		}
		found.push({ number: i + 1, text: line, isMatch: true });
		lastEmitted = i;
		// Trailing context is emitted lazily: either as the next match's leading context or below.
		const nextMatch = findNextMatch(lines, regex, i + 1, i + context);
		const until = nextMatch === -1 ? Math.min(lines.length - 1, i + context) : nextMatch - 1;
		for (let j = i + 1; j <= until; j++) {
			found.push({ number: j + 1, text: (lines[j] as string).replace(/\r$/, ""), isMatch: false });
			lastEmitted = j;
		}
	}
	return { lines: found, matchCount };
}

function findNextMatch(lines: string[], regex: RegExp, from: number, to: number): number {
	for (let j = from; j <= to && j < lines.length; j++) if (regex.test((lines[j] as string).replace(/\r$/, ""))) return j;
	return -1;
}
