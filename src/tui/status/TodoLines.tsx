// The todo list the model keeps (`todo_write`), as a checklist above the input while a run goes on:
// done items ticked, the one in progress highlighted, the rest open. Cut to `maxRows`, keeping the
// item in progress in view.
import { Box, Text } from "ink";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import type { TodoItem } from "../../session/types.js";
import { color, theme } from "../text/theme.js";

const MARK: Record<TodoItem["status"], string> = { completed: "☒", in_progress: "◐", pending: "☐" };

export interface TodoLine {
	text: string;
	status: TodoItem["status"] | "more";
}

/** The heading and the items that fit in `maxRows` (at least the heading), around the item in progress. */
export function todoLines(todos: readonly TodoItem[], maxRows: number): TodoLine[] {
	if (todos.length === 0 || maxRows < 1) return [];
	const done = todos.filter((t) => t.status === "completed").length;
	const heading: TodoLine = { text: `Todos ${done}/${todos.length}`, status: "more" };
	const room = maxRows - 1;
	const items = todos.map((t) => ({
		text: `${MARK[t.status]} ${sanitizeTerminalText(t.content).replace(/\s*\n\s*/g, " ")}`,
		status: t.status,
	}));
	if (items.length <= room) return [heading, ...items];
	if (room < 2) return [heading];
	const focus = Math.max(
		0,
		todos.findIndex((t) => t.status === "in_progress"),
	);
	const start = Math.min(Math.max(0, focus - 1), items.length - (room - 1));
	const shown = items.slice(start, start + room - 1);
	return [heading, ...shown, { text: `… ${items.length - shown.length} more`, status: "more" }];
}

export function TodoLines({ lines }: { lines: readonly TodoLine[] }) {
	if (!lines.length) return null;
	return (
		<Box flexDirection="column">
			{lines.map((line, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
				<Text key={i} wrap="truncate" dimColor={line.status === "completed" || (line.status === "more" && i > 0)} bold={i === 0}>
					{line.status === "in_progress" ? <Text color={color(theme.accent)}>{line.text}</Text> : line.text}
				</Text>
			))}
		</Box>
	);
}
