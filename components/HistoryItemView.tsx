// One finished item of the transcript, as printed once into <Static>.
import { Box, Text } from "ink";
import React from "react";
import { MarkdownBlock } from "./markdown/MarkdownBlock.js";
import { sanitizeTerminalText } from "./sanitize.js";
import type { HistoryItem } from "./session-view.js";
import { ToolCallView } from "./ToolCallView.js";
import { color, theme } from "./theme.js";

const THINKING_LINES = 6;

function lastN(text: string, n: number): string {
	const lines = text.split("\n");
	return lines.length <= n ? text : `…\n${lines.slice(-n).join("\n")}`;
}

export function HistoryItemView({ item }: { item: HistoryItem }): React.ReactElement {
	switch (item.kind) {
		case "user":
			return (
				<Box marginTop={1}>
					<Text color={color(theme.user)} bold>
						{"› "}
					</Text>
					<Text>{sanitizeTerminalText(item.text)}</Text>
				</Box>
			);
		case "markdown":
			return (
				<Box marginTop={1}>
					<MarkdownBlock source={item.source} />
				</Box>
			);
		case "thinking":
			return (
				<Box marginTop={1}>
					<Text dimColor italic>
						{sanitizeTerminalText(lastN(item.text, THINKING_LINES))}
					</Text>
				</Box>
			);
		case "tool":
			return (
				<Box marginTop={1}>
					<ToolCallView item={item} />
				</Box>
			);
		case "error":
			return (
				<Box marginTop={1}>
					<Text color={color(theme.error)}>Error: {sanitizeTerminalText(item.text)}</Text>
				</Box>
			);
		case "aborted":
			return (
				<Text color={color(theme.warning)} bold>
					⏹ Aborted
				</Text>
			);
		case "notice":
			return (
				<Text
					color={color(item.level === "error" ? theme.error : item.level === "warning" ? theme.warning : undefined)}
					dimColor={item.level === "info"}
				>
					{sanitizeTerminalText(item.text)}
				</Text>
			);
		case "shell":
			return (
				<Box marginTop={1} flexDirection="column">
					<Text bold>$ {sanitizeTerminalText(item.command)}</Text>
					<Text dimColor>{sanitizeTerminalText(item.output.replace(/\n+$/, ""))}</Text>
					{item.exitCode ? <Text color={color(theme.error)}>exit {item.exitCode}</Text> : null}
				</Box>
			);
	}
}
