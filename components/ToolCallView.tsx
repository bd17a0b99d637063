// A finished tool call in history: a status mark, the name and arguments on one line, then the result
// collapsed to a few lines (Ctrl+O prints the last one in full), or the edit's diff coloured.
import { Box, Text } from "ink";
import React from "react";
import { formatToolArgs } from "./format-args.js";
import { sanitizeTerminalText } from "./sanitize.js";
import type { HistoryItem } from "./session-view.js";
import { color, theme } from "./theme.js";

export const COLLAPSED_LINES = 4;
const COLLAPSED_DIFF_LINES = 20;

type ToolItem = Extract<HistoryItem, { kind: "tool" }>;

function diffColor(line: string): string | undefined {
	if (line.startsWith("+++") || line.startsWith("---")) return theme.muted;
	if (line.startsWith("+")) return theme.success;
	if (line.startsWith("-")) return theme.error;
	if (line.startsWith("@@")) return "cyan";
	return undefined;
}

function Collapsed({ lines, limit, render }: { lines: string[]; limit: number; render: (line: string, i: number) => React.ReactNode }) {
	const shown = lines.slice(0, limit);
	return (
		<Box flexDirection="column" paddingLeft={2}>
			{shown.map(render)}
			{lines.length > limit ? <Text dimColor>{`… ${lines.length - limit} more lines (Ctrl+O to expand)`}</Text> : null}
		</Box>
	);
}

export const ToolCallView = React.memo(function ToolCallView({ item }: { item: ToolItem }) {
	const mark = item.isError ? "✗" : "✓";
	const args = item.args === undefined ? "" : formatToolArgs(item.args);
	const output = sanitizeTerminalText(item.output).replace(/\n+$/, "");
	const diffLines = item.diff ? sanitizeTerminalText(item.diff).replace(/\n+$/, "").split("\n") : undefined;
	const unlimited = Number.POSITIVE_INFINITY;
	return (
		<Box flexDirection="column">
			<Text>
				<Text color={color(item.isError ? theme.error : theme.success)}>{mark} </Text>
				<Text bold>{item.name}</Text>
				{args ? <Text dimColor> {args}</Text> : null}
				{item.expanded ? <Text dimColor> (full output)</Text> : null}
			</Text>
			{diffLines ? (
				<Collapsed
					lines={diffLines}
					limit={item.expanded ? unlimited : COLLAPSED_DIFF_LINES}
					render={(line, i) => (
						<Text key={i} color={color(diffColor(line))}>
							{line}
						</Text>
					)}
				/>
			) : output ? (
				<Collapsed
					lines={output.split("\n")}
					limit={item.expanded ? unlimited : COLLAPSED_LINES}
					render={(line, i) => (
						<Text key={i} color={item.isError ? color(theme.error) : undefined} dimColor={!item.isError}>
							{line}
						</Text>
					)}
				/>
			) : null}
		</Box>
	);
});
