// The `find` tool: lists files matching a glob under a path, respecting .gitignore.
import { realpath, stat } from "node:fs/promises";
import { type Static, Type } from "typebox";
import type { AgentTool } from "../agent/types.js";
import { throwIfAborted } from "./abort.js";
import { deniedPathError, type HiddenCount, hiddenNote, type PathDenial } from "./denied-paths.js";
import { describeFsError } from "./fs-errors.js";
import { compileGlob, type GlobMatcher } from "./glob.js";
import { type LinkCheck, linkedNote } from "./linked-outside.js";
import { capSortedListing, LISTING_CUT_NOTE, limitNote, withNotes } from "./listing-output.js";
import { resolveToolPath } from "./resolve-path.js";
import { type RipgrepPaths, ripgrepOnPath, ripgrepPaths } from "./ripgrep-files.js";
import { type WalkEntry, walkFiles } from "./walk-files.js";

const findSchema = Type.Object({
	pattern: Type.String({ description: "Glob to match, e.g. '*.ts' (file name at any depth) or 'src/**/*.test.ts' (path)" }),
	path: Type.Optional(Type.String({ description: "Folder to search (default: the working directory)" })),
	limit: Type.Optional(Type.Integer({ minimum: 1, description: "Maximum number of results (default 1000)" })),
});

export type FindToolInput = Static<typeof findSchema>;

export interface FindToolDetails {
	count: number;
	/** Set when the result limit stopped the search early. */
	resultLimitReached?: number;
	/** Set when the output was cut by the byte cap. */
	byteLimitReached?: boolean;
}

export interface FindToolOptions {
	/** Default result limit; 1,000. */
	defaultLimit?: number;
	/** Files and folders permission deny rules hide from find: not listed. */
	denied?: PathDenial;
	/** Whether a linked file's target may be read without asking; others are not listed (see linked-outside.ts). */
	links?: LinkCheck;
	/** The ripgrep binary that lists files fast; false walks in Node. Default: `rg` on PATH, if any. */
	ripgrep?: string | false;
}

/** The matches (folders with a "/" after) and whether there were more than `limit`. */
interface Matches {
	found: string[];
	limitReached: boolean;
}

/** ripgrep's listing holds only matches already (`keep`), in the walk's order when over the limit. */
function listedMatches(listed: RipgrepPaths, limit: number): Matches {
	const limitReached = listed.paths.length > limit;
	const found = limitReached ? listed.paths.slice(0, limit) : listed.paths; // find's own: changed in place
	if (listed.folders.size > 0) for (let i = 0; i < found.length; i++) if (listed.folders.has(found[i] as string)) found[i] = `${found[i]}/`;
	return { found, limitReached };
}

async function walkedMatches(walk: AsyncIterable<WalkEntry>, matches: GlobMatcher, limit: number): Promise<Matches> {
	const found: string[] = [];
	for await (const entry of walk) {
		if (!matches(entry.relativePath)) continue;
		if (found.length >= limit) return { found, limitReached: true };
		found.push(entry.isDirectory ? `${entry.relativePath}/` : entry.relativePath);
	}
	return { found, limitReached: false };
}

export function createFindTool(cwd: string, options: FindToolOptions = {}): AgentTool<typeof findSchema, FindToolDetails> {
	const defaultLimit = options.defaultLimit ?? 1000;
	return {
		name: "find",
		label: "find",
		description: `Find files by glob. Respects .gitignore and skips .git and node_modules. Returns paths relative to the searched folder, sorted. Stops after ${defaultLimit} results by default.`,
		parameters: findSchema,
		async execute(_toolCallId, params: FindToolInput, signal) {
			throwIfAborted(signal);
			const root = resolveToolPath(params.path ?? ".", cwd);
			const info = await stat(root).catch((error) => {
				throw describeFsError(error, params.path ?? ".");
			});
			if (!info.isDirectory()) throw new Error(`Not a directory: ${params.path}`);
			const denied = options.denied;
			const rule = denied?.(await realpath(root), true);
			if (rule) throw deniedPathError("search", params.path ?? ".", rule);
			const hidden: HiddenCount = { count: 0 };
			const limit = params.limit ?? defaultLimit;
			const matches = compileGlob(params.pattern);
			const linked: HiddenCount = { count: 0 };
			const rg = options.ripgrep ?? ripgrepOnPath();
			const listed = rg
				? await ripgrepPaths(root, {
						rg,
						signal,
						includeDirectories: true,
						denied,
						hidden,
						links: options.links,
						linked,
						keep: matches,
						unorderedUpTo: limit,
					})
				: undefined;
			const { found, limitReached } = listed
				? listedMatches(listed, limit)
				: await walkedMatches(
						walkFiles(root, { signal, includeDirectories: true, denied, hidden, links: options.links, linked }),
						matches,
						limit,
					);
			const skipped = [hiddenNote(hidden, "path"), linkedNote(linked.count)].filter((n): n is string => n !== undefined);
			if (found.length === 0) {
				const text = withNotes("No files found matching pattern", skipped);
				return { content: [{ type: "text", text }], details: { count: 0 } };
			}
			// Sorted, but only as far as the byte cap shows (the count is of all).
			const listing = capSortedListing(found);
			const details: FindToolDetails = { count: found.length };
			const notes: string[] = [...skipped];
			if (limitReached) {
				details.resultLimitReached = limit;
				notes.push(limitNote(limit, "results"));
			}
			if (listing.cut) {
				details.byteLimitReached = true;
				notes.push(LISTING_CUT_NOTE);
			}
			return { content: [{ type: "text", text: withNotes(listing.text, notes) }], details };
		},
	};
}
