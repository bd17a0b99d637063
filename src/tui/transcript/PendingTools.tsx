// Tools still running: a spinner, the name, the arguments on one line, elapsed seconds, and the last
// lines of streamed output (bash). Cut to `maxRows` rows in total.
import { Box, Text } from "ink";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import { formatToolArgs } from "../text/format-args.js";
import { color, theme } from "../text/theme.js";
import type { RunningTool } from "./session-view.js";

/** How long each spinner glyph shows. */
const SPINNER_MS = 100;
const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** The spinner's turn at `now`: its glyph changes when this does. */
export const spinnerStep = (now: number): number => Math.floor(now / SPINNER_MS);

export function spinnerFrame(now: number): string {
	return SPINNER[spinnerStep(now) % SPINNER.length];
}

/** The rows the tools take: one each, plus their output lines, never more than `maxRows`. */
export function pendingToolRows(tools: readonly RunningTool[], maxRows: number): { tool: RunningTool; output: string[] }[] {
	const out: { tool: RunningTool; output: string[] }[] = [];
	let rows = 0;
	for (const tool of tools) {
		if (rows >= maxRows) break;
		rows++;
		const lines = tool.outputTail ? sanitizeTerminalText(tool.outputTail).split("\n") : [];
		const room = Math.max(0, maxRows - rows);
		const output = lines.slice(Math.max(0, lines.length - room));
		rows += output.length;
		out.push({ tool, output });
	}
	return out;
}

export function PendingTools({ tools, now, maxRows }: { tools: readonly RunningTool[]; now: number; maxRows: number }) {
	const shown = pendingToolRows(tools, maxRows);
	if (!shown.length) return null;
	return (
		<Box flexDirection="column">
			{shown.map(({ tool, output }) => (
				<Box key={tool.id} flexDirection="column">
					<Text wrap="truncate">
						<Text color={color(theme.accent)}>{spinnerFrame(now)} </Text>
						<Text bold>{tool.name}</Text>
						<Text dimColor>
							{" "}
							{formatToolArgs(tool.args)} ({Math.max(0, Math.floor((now - tool.startedAt) / 1000))}s)
						</Text>
					</Text>
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
