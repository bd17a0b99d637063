// The approval prompt: which tool wants what (the command, or the diff the edit would make, computed
// before anything is written) and the choices. Everything shown came from the model or a file, so known
// secrets are redacted from it and it is sanitised before it reaches the terminal.
import { Box, Text } from "ink";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import type { ApprovalPreview, ApprovalRequest, SessionApprovalRequest } from "../../session/types.js";
import { screenText } from "../text/screen-text.js";
import { color, theme } from "../text/theme.js";
import { type ApprovalPromptState, choicesFor } from "./approval-prompt-state.js";

/** Rows besides the preview: title, blank, hint, and the reason line when typing one. */
const FRAME_ROWS = 3;

interface Line {
	text: string;
	color?: string;
	dim?: boolean;
}

/** The preview as lines; a diff without its file header, coloured by sign. */
export function previewLines(preview: ApprovalPreview): Line[] {
	switch (preview.type) {
		case "command": {
			const where =
				preview.sandbox === "bwrap"
					? `runs in the sandbox: writes only inside the workspace and /tmp${preview.network ? "" : ", no network"}`
					: "runs without a sandbox";
			return [...preview.command.split("\n").map((text, i) => ({ text: `${i === 0 ? "$" : ">"} ${text}` })), { text: where, dim: true }];
		}
		case "diff": {
			const body = preview.diff.split("\n").filter((l, i) => !(i < 4 && /^(Index: |={10,}|--- |\+\+\+ )/.test(l)));
			while (body.length > 0 && body[body.length - 1] === "") body.pop();
			const lines = body.map((text) => ({
				text,
				color: text.startsWith("+") ? theme.success : text.startsWith("-") ? theme.error : text.startsWith("@@") ? theme.accent : undefined,
				dim: text.startsWith("\\"),
			}));
			if (preview.truncatedLines > 0) lines.push({ text: `… ${preview.truncatedLines} more lines`, color: undefined, dim: true });
			return [{ text: preview.path, dim: true }, ...lines];
		}
		case "error":
			return [{ text: `${preview.path}: ${preview.text}`, color: theme.warning }];
		case "args":
			return preview.text.split("\n").map((text) => ({ text }));
	}
}

export function approvalRows(request: ApprovalRequest, maxRows: number): number {
	const choices = choicesFor(request).length;
	return Math.min(maxRows, FRAME_ROWS + choices + previewLines(request.preview).length + 1);
}

export function ApprovalPrompt({
	request,
	state,
	maxRows,
}: {
	request: SessionApprovalRequest;
	state: ApprovalPromptState;
	maxRows: number;
}) {
	const choices = choicesFor(request);
	const lines = previewLines(request.preview);
	const room = Math.max(1, maxRows - FRAME_ROWS - choices.length - (state.reason !== undefined ? 1 : 0));
	const shown = lines.length > room ? [...lines.slice(0, room - 1), { text: `… ${lines.length - room + 1} more lines`, dim: true }] : lines;
	// A sub-agent's request says which agent asks (its name came from a definition file: sanitised below).
	const asker = request.agent ? `sub-agent ${request.agent.name} (${request.agent.id}): ` : "";
	const title = `${asker}${request.kind === "unsandboxed" ? `${request.tool} failed inside the sandbox` : `${request.tool} wants to run`}`;
	return (
		<Box flexDirection="column">
			<Text wrap="truncate">
				<Text bold color={color(theme.warning)}>
					{screenText(title)}
				</Text>
				<Text dimColor> · {screenText(request.reason)}</Text>
			</Text>
			{shown.map((line, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: lines are positions in a fixed preview
				<Text key={i} wrap="truncate" color={color(line.color)} dimColor={line.dim}>
					{"  "}
					{screenText(line.text)}
				</Text>
			))}
			{choices.map((choice, i) => (
				<Text key={choice.key} inverse={i === state.selected && state.reason === undefined} wrap="truncate">
					{`${i === state.selected ? "›" : " "} ${choice.key}  ${choice.label}`}
				</Text>
			))}
			{state.reason !== undefined ? (
				<Text wrap="truncate">
					<Text color={color(theme.accent)}>reason: </Text>
					{sanitizeTerminalText(state.reason)}
					<Text inverse> </Text>
					<Text dimColor> (Enter sends the denial; empty for none)</Text>
				</Text>
			) : null}
			<Text dimColor wrap="truncate">
				{request.kind === "unsandboxed" ? "y/w/n" : "y/a/p/n"} or ↑↓ Enter · Esc denies and stops the run · Shift+Tab changes the mode
			</Text>
		</Box>
	);
}
