// The plan the model proposes in plan mode (`exit_plan_mode`), shown for the user's answer: the plan's
// lines (from the model: sanitised), then the choices. 1 approves and switches to auto-edit, 2 approves
// and keeps asking, typed text then Enter keeps planning with that feedback, Esc stops the run.
import { Box, Text } from "ink";
import type { PlanRequest } from "../../session/types.js";
import { screenText } from "../text/screen-text.js";
import { color, theme } from "../text/theme.js";

/** Title and the three choice lines. */
const FRAME_ROWS = 4;

export const PLAN_CHOICES = [
	"1  approve, and switch to auto-edit (edits run without asking)",
	"2  approve, and keep asking before each change",
	"type feedback, then Enter  keep planning",
] as const;

function planLines(plan: string): string[] {
	const lines = plan.replace(/\s+$/, "").split("\n");
	return lines.map((line) => screenText(line));
}

export function planRows(request: PlanRequest, maxRows: number): number {
	return Math.min(maxRows, FRAME_ROWS + planLines(request.plan).length);
}

export function PlanPrompt({ request, maxRows }: { request: PlanRequest; maxRows: number }) {
	const lines = planLines(request.plan);
	const room = Math.max(1, maxRows - FRAME_ROWS);
	const shown = lines.length > room ? [...lines.slice(0, room - 1), `… ${lines.length - room + 1} more lines`] : lines;
	return (
		<Box flexDirection="column">
			<Text bold color={color(theme.warning)}>
				The plan (approve to carry it out):
			</Text>
			{shown.map((line, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: lines are positions in the plan
				<Text key={i} wrap="truncate">
					{"  "}
					{line}
				</Text>
			))}
			{PLAN_CHOICES.map((choice) => (
				<Text key={choice} color={color(theme.accent)} wrap="truncate">
					{choice}
				</Text>
			))}
		</Box>
	);
}
