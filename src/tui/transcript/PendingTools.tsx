// Tools still running: a spinner, the name, the arguments on one line, elapsed seconds, and the last
// lines of streamed output (bash), or for a `task` call its sub-agents' live lines (sub-agent-lines.ts).
// Cut to `maxRows` rows in total.
import { Box, Text } from "ink";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import { formatToolArgs } from "../text/format-args.js";
import { color, theme } from "../text/theme.js";
import type { RunningTool } from "./session-view.js";
import type { SubAgentLine } from "./sub-agent-lines.js";

/** A call waiting for the snapshot of an edits-only rewind point before it runs (bash, MCP tools). */
const WAITING = "waiting for the checkpoint snapshot…";

/** How long each spinner glyph shows. */
const SPINNER_MS = 100;
const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** The spinner's turn at `now`: its glyph changes when this does. */
export const spinnerStep = (now: number): number => Math.floor(now / SPINNER_MS);

export function spinnerFrame(now: number): string {
	return SPINNER[spinnerStep(now) % SPINNER.length];
}

/** A tool's output rows: its sub-agents' lines (a `task` call), else the tail of its output. */
export type RowsBelow = (tool: RunningTool) => SubAgentLine[] | undefined;

export interface PendingToolRow {
	tool: RunningTool;
	output: string[];
	agents: SubAgentLine[];
}

/** The rows the tools take: one each, plus their output or sub-agent lines, never more than `maxRows`. */
export function pendingToolRows(tools: readonly RunningTool[], maxRows: number, below?: RowsBelow): PendingToolRow[] {
	const out: PendingToolRow[] = [];
	let rows = 0;
	for (const tool of tools) {
		if (rows >= maxRows) break;
		rows++;
		const agents = below?.(tool);
		if (agents?.length) {
			const shown = agents.slice(0, Math.max(0, maxRows - rows));
			rows += shown.length;
			out.push({ tool, output: [], agents: shown });
			continue;
		}
		const lines = tool.outputTail ? sanitizeTerminalText(tool.outputTail).split("\n") : [];
		const room = Math.max(0, maxRows - rows);
		const output = lines.slice(Math.max(0, lines.length - room));
		rows += output.length;
		out.push({ tool, output, agents: [] });
	}
	return out;
}

export function PendingTools({
	tools,
	now,
	maxRows,
	below,
}: {
	tools: readonly RunningTool[];
	now: number;
	maxRows: number;
	below?: RowsBelow;
}) {
	const shown = pendingToolRows(tools, maxRows, below);
	if (!shown.length) return null;
	return (
		<Box flexDirection="column">
			{shown.map(({ tool, output, agents }) => (
				<Box key={tool.id} flexDirection="column">
					<Text wrap="truncate">
						<Text color={color(theme.accent)}>{spinnerFrame(now)} </Text>
						<Text bold>{tool.name}</Text>
						<Text dimColor>
							{" "}
							{formatToolArgs(tool.args)} {tool.waiting ? WAITING : `(${Math.max(0, Math.floor((now - tool.startedAt) / 1000))}s)`}
						</Text>
					</Text>
					{agents.map((agent) => (
						<Text key={agent.agentId} wrap="truncate" dimColor={agent.queued} color={agent.selected ? color(theme.accent) : undefined}>
							{"  "}
							{agent.text}
						</Text>
					))}
					{output.map((line, i) => (
						// biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
						<Text key={i} dimColor wrap="truncate">
							{"  "}
							{line}
						</Text>
					))}
				</Box>
			))}
		</Box>
	);
}
