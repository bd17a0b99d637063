// Claude Code's tool names and argument names for Rudder's tools, as a table: a matcher written for
// Claude Code ("Edit|Write") matches our tools, and a script reads `tool_input.file_path` as it would
// there. MCP tools are `mcp__<server>__<tool>` in both, so they pass as they are.
import { isAbsolute, resolve } from "node:path";

type Args = Record<string, unknown>;

interface ToolMapping {
	/** Every Claude Code name a matcher may use for this tool. */
	names: readonly string[];
	/** The name and `tool_input` a script sees for one call. */
	call(args: Args, cwd: string): { name: string; input: Args };
}

const absolute = (path: unknown, cwd: string): string | undefined =>
	typeof path === "string" ? (isAbsolute(path) ? path : resolve(cwd, path)) : undefined;

/** Drops undefined fields, so a script sees only what the call had. */
function defined(fields: Args): Args {
	return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

function edits(args: Args): { oldText?: unknown; newText?: unknown }[] {
	return Array.isArray(args.edits) ? args.edits.filter((e) => typeof e === "object" && e !== null) : [];
}

export const CLAUDE_TOOLS: Readonly<Record<string, ToolMapping>> = Object.freeze({
	bash: {
		names: ["Bash"],
		// Claude Code's timeout is in milliseconds, ours in seconds.
		call: (a) => ({
			name: "Bash",
			input: defined({ command: a.command, timeout: typeof a.timeout === "number" ? a.timeout * 1000 : undefined }),
		}),
	},
	edit: {
		names: ["Edit", "MultiEdit"],
		// One replacement is Claude Code's Edit, several its MultiEdit.
		call: (a, cwd) => {
			const list = edits(a);
			const file_path = absolute(a.path, cwd);
			if (list.length === 1)
				return { name: "Edit", input: defined({ file_path, old_string: list[0].oldText, new_string: list[0].newText }) };
			return {
				name: "MultiEdit",
				input: defined({ file_path, edits: list.map((e) => ({ old_string: e.oldText, new_string: e.newText })) }),
			};
		},
	},
	write: {
		names: ["Write"],
		call: (a, cwd) => ({ name: "Write", input: defined({ file_path: absolute(a.path, cwd), content: a.content }) }),
	},
	read: {
		names: ["Read"],
		call: (a, cwd) => ({ name: "Read", input: defined({ file_path: absolute(a.path, cwd), offset: a.offset, limit: a.limit }) }),
	},
	grep: {
		names: ["Grep"],
		call: (a, cwd) => ({
			name: "Grep",
			input: defined({
				pattern: a.pattern,
				path: absolute(a.path, cwd),
				glob: a.glob,
				"-i": a.ignoreCase,
				"-C": a.context,
				head_limit: a.limit,
			}),
		}),
	},
	find: { names: ["Glob"], call: (a, cwd) => ({ name: "Glob", input: defined({ pattern: a.pattern, path: absolute(a.path, cwd) }) }) },
	ls: { names: ["LS"], call: (a, cwd) => ({ name: "LS", input: defined({ path: absolute(a.path ?? ".", cwd) }) }) },
});

function mappingOf(tool: string): ToolMapping | undefined {
	return Object.hasOwn(CLAUDE_TOOLS, tool) ? CLAUDE_TOOLS[tool] : undefined;
}

/** Every name a matcher may match this tool by: ours and Claude Code's. */
export function matchNames(tool: string): string[] {
	const mapping = mappingOf(tool);
	return mapping ? [tool, ...mapping.names] : [tool];
}

/** `tool_name` and `tool_input` as Claude Code would send them; other tools (MCP) as they are. */
export function claudeToolCall(tool: string, args: unknown, cwd: string): { name: string; input: unknown } {
	const mapping = mappingOf(tool);
	if (!mapping) return { name: tool, input: args ?? {} };
	return mapping.call(typeof args === "object" && args !== null ? (args as Args) : {}, cwd);
}
