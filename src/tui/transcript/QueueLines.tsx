// Queued messages, dim, one line each: steering first (it is delivered first), then follow-ups.
import { Box, Text } from "ink";
import { sanitizeTerminalText } from "../../safety/sanitize.js";

export function queueLines(steering: readonly string[], followUp: readonly string[], maxRows: number): string[] {
	const all = [...steering.map((t) => `Steering: ${t}`), ...followUp.map((t) => `Follow-up: ${t}`)].map((line) =>
		sanitizeTerminalText(line).replace(/\s*\n\s*/g, " ⏎ "),
	);
	if (all.length <= maxRows) return all;
	return [...all.slice(0, maxRows - 1), `… ${all.length - maxRows + 1} more queued`];
}

export function QueueLines({ lines }: { lines: readonly string[] }) {
	if (!lines.length) return null;
	return (
		<Box flexDirection="column">
			{lines.map((line, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
				<Text key={i} dimColor wrap="truncate">
					{line}
				</Text>
			))}
		</Box>
	);
}
