// The coding tools: one factory per tool, each bound to a session's working directory.
import type { AgentTool } from "../agent/types.js";
import { BackgroundJobs } from "./background-jobs.js";
import { createBashOutputTool, createKillShellTool } from "./background-tools.js";
import { type BashToolOptions, createBashTool } from "./bash.js";
import type { PathDenial } from "./denied-paths.js";
import { createEditTool } from "./edit.js";
import type { BeforeMutate } from "./file-mutation-queue.js";
import { FileReadState } from "./file-read-state.js";
import { createFindTool, type FindToolOptions } from "./find.js";
import { createGrepTool, type GrepToolOptions } from "./grep.js";
import type { LinkCheck } from "./linked-outside.js";
import { createLsTool, type LsToolOptions } from "./ls.js";
import { createReadTool, type ReadToolOptions } from "./read.js";
import { createWebFetchTool, type WebFetchToolOptions } from "./web-fetch.js";
import { createWebSearchTool, type WebSearchToolOptions } from "./web-search.js";
import { createWriteTool } from "./write.js";

export { BackgroundJobs, describeEnd, type JobEvent, type JobInfo } from "./background-jobs.js";
export { type BashToolDetails, type BashToolInput, type BashToolOptions, createBashTool } from "./bash.js";
export type { PathDenial } from "./denied-paths.js";
export { createEditTool, type EditToolDetails, type EditToolInput, type EditToolOptions, prepareEditArguments } from "./edit.js";
export { FileReadState } from "./file-read-state.js";
export { createFindTool, type FindToolDetails, type FindToolInput, type FindToolOptions } from "./find.js";
export { createGrepTool, type GrepToolDetails, type GrepToolInput, type GrepToolOptions } from "./grep.js";
export { createLsTool, type LsToolDetails, type LsToolInput, type LsToolOptions } from "./ls.js";
export { createReadTool, type ReadToolDetails, type ReadToolInput, type ReadToolOptions } from "./read.js";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, type TruncationResult } from "./truncate.js";
export { createWebFetchTool, type WebFetchToolDetails, type WebFetchToolInput, type WebFetchToolOptions } from "./web-fetch.js";
export {
	createWebSearchTool,
	formatSearxResults,
	type WebSearchToolDetails,
	type WebSearchToolInput,
	type WebSearchToolOptions,
} from "./web-search.js";
export { createWriteTool, type WriteToolDetails, type WriteToolInput, type WriteToolOptions } from "./write.js";

/** Every built-in tool, in the order they are offered to the model. */
export const toolNames = [
	"read",
	"bash",
	"edit",
	"write",
	"grep",
	"find",
	"ls",
	"web_fetch",
	"web_search",
	"bash_output",
	"kill_shell",
] as const;
export type ToolName = (typeof toolNames)[number];

/**
 * Whether the checkpoints see every file a built-in tool changes: edit and write report theirs, and the
 * others but bash change none. A tool marked false waits for a rewind point's snapshot before it runs.
 * A record, so a new tool cannot be added without saying.
 */
const changesSeenByCheckpoints: Readonly<Record<ToolName, boolean>> = {
	read: true,
	bash: false,
	edit: true,
	write: true,
	grep: true,
	find: true,
	ls: true,
	web_fetch: true,
	web_search: true,
	bash_output: true,
	kill_shell: true,
};

/** The built-in tools whose file changes the checkpoints see (see changesSeenByCheckpoints). */
export const checkpointedToolNames: ReadonlySet<string> = new Set(toolNames.filter((name) => changesSeenByCheckpoints[name]));

/** Per-tool options for the factories below. */
export interface ToolsOptions {
	read?: ReadToolOptions;
	bash?: BashToolOptions;
	grep?: GrepToolOptions;
	find?: FindToolOptions;
	ls?: LsToolOptions;
	webFetch?: WebFetchToolOptions;
	webSearch?: WebSearchToolOptions;
	/** Where bash's background jobs run; default a set of its own with bash's shell, sandbox and env. */
	jobs?: BackgroundJobs;
	/** Sees each file before edit or write changes it. */
	beforeMutate?: BeforeMutate;
	/** The real path the permission check approved for a read, write or edit call (see write.ts). */
	checkedPath?: (toolCallId: string) => string | undefined;
	/** What permission deny rules hide from each walking tool (grep, find, ls); undefined: nothing. */
	deniedPaths?: (tool: ToolName) => PathDenial | undefined;
	/** Whether each walking tool may follow a link to a target (a read there would not ask); undefined: every link. */
	linkedReads?: (tool: ToolName) => LinkCheck | undefined;
}

/**
 * All eleven tools by name, bound to `cwd`. read, write and edit share one `FileReadState`, so a set
 * made here is one session's view of which files the model has seen.
 */
export function createAllTools(cwd: string, options: ToolsOptions = {}): Record<ToolName, AgentTool> {
	const readState = new FileReadState();
	const bash = options.bash ?? {};
	const jobs = options.jobs ?? new BackgroundJobs(cwd, { shellPath: bash.shellPath, wrapSpawn: bash.wrapSpawn, env: bash.env });
	return {
		read: createReadTool(cwd, { readState, checkedPath: options.checkedPath, ...options.read }),
		bash: createBashTool(cwd, { jobs, ...bash }),
		edit: createEditTool(cwd, { readState, beforeMutate: options.beforeMutate, checkedPath: options.checkedPath }),
		write: createWriteTool(cwd, { readState, beforeMutate: options.beforeMutate, checkedPath: options.checkedPath }),
		grep: createGrepTool(cwd, { denied: options.deniedPaths?.("grep"), links: options.linkedReads?.("grep"), ...options.grep }),
		find: createFindTool(cwd, { denied: options.deniedPaths?.("find"), links: options.linkedReads?.("find"), ...options.find }),
		ls: createLsTool(cwd, { denied: options.deniedPaths?.("ls"), links: options.linkedReads?.("ls"), ...options.ls }),
		web_fetch: createWebFetchTool(options.webFetch),
		web_search: createWebSearchTool(options.webSearch),
		bash_output: createBashOutputTool(jobs),
		kill_shell: createKillShellTool(jobs),
	};
}

/**
 * The default set for a coding session: read, bash (with its background jobs' bash_output and
 * kill_shell), edit, write, the searches (read-only, never ask), web_fetch, web_search (offered to a
 * model only where a search exists for it: see src/session/web-search-offer.ts).
 */
export function createCodingTools(cwd: string, options: ToolsOptions = {}): AgentTool[] {
	const all = createAllTools(cwd, options);
	return [all.read, all.bash, all.bash_output, all.kill_shell, all.edit, all.write, all.grep, all.find, all.web_fetch, all.web_search];
}
