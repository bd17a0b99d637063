// An MCP server's question (elicitation): who asks, its message, then one row per field with the value
// shown (defaults filled in) and the focused row marked, the problem when Enter found one, and the keys.
// A URL request shows the page's address and asks before opening it. Everything the server chose was
// made visible-safe and capped when the request was read (src/extensions/mcp/elicitation.ts); it is
// sanitised again here, as all outside text is on its way to the screen.
import { Box, Text } from "ink";
import type { ElicitField, ElicitValue } from "../../extensions/mcp/elicitation.js";
import type { ElicitationRequest } from "../../session/types.js";
import { screenText } from "../text/screen-text.js";
import { color, theme } from "../text/theme.js";
import type { ElicitationFormState } from "./elicitation-form-state.js";

const FORM_HINT = "↑/↓ field · type to edit · Space/←/→ change · Enter submits · Esc declines";
const URL_HINT = "Enter opens it in your browser · Esc declines";

function shown(field: ElicitField, value: ElicitValue | undefined, cursor: number, focused: boolean): string {
	if (field.kind === "boolean") return value ? "[x] yes" : "[ ] no";
	if (field.kind === "choice") {
		const label = field.options.find((o) => o.value === value)?.label ?? "(none)";
		return `‹ ${label} ›`;
	}
	if (field.kind === "multi") {
		const list = Array.isArray(value) ? value : [];
		return field.options
			.map((o, i) => `${focused && i === cursor ? ">" : " "}${list.includes(o.value) ? "[x]" : "[ ]"} ${o.label}`)
			.join(" ");
	}
	const text = typeof value === "string" ? value : "";
	return `${text}${focused ? "▏" : ""}`;
}

function messageLines(request: ElicitationRequest): string[] {
	return request.message ? screenText(request.message).split("\n").slice(0, 6) : [];
}

/** The fields shown in `room` rows: all, or a window around the focused one with a line for the rest. */
function visibleFields(request: Extract<ElicitationRequest, { mode: "form" }>, focus: number, room: number) {
	const fields = request.fields;
	if (fields.length <= room) return { shown: fields.map((field, index) => ({ field, index })), hidden: 0 };
	const size = Math.max(1, room - 1);
	const start = Math.min(Math.max(0, focus - Math.floor(size / 2)), fields.length - size);
	return { shown: fields.slice(start, start + size).map((field, i) => ({ field, index: start + i })), hidden: fields.length - size };
}

const frameRows = (request: ElicitationRequest, state: ElicitationFormState | undefined) =>
	2 + messageLines(request).length + (state?.error ? 1 : 0);

/** Rows the form takes within `maxRows`: the title, the message, the fields (or the URL), the problem and the hint. */
export function elicitationRows(request: ElicitationRequest, state: ElicitationFormState | undefined, maxRows: number): number {
	const body = request.mode === "form" ? request.fields.length : 1;
	return Math.min(maxRows, frameRows(request, state) + body);
}

export function ElicitationForm({
	request,
	state,
	maxRows,
}: {
	request: ElicitationRequest;
	state: ElicitationFormState;
	maxRows: number;
}) {
	const visible =
		request.mode === "form" ? visibleFields(request, state.focus, Math.max(2, maxRows - frameRows(request, state))) : undefined;
	const title = request.mode === "url" ? "asks you to open a page" : "asks for input";
	return (
		<Box flexDirection="column">
			<Text bold color={color(theme.warning)} wrap="truncate">
				MCP server {screenText(request.server)} {title}:
			</Text>
			{messageLines(request).map((line, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: lines are positions in the message
				<Text key={i} wrap="truncate">
					{"  "}
					{line}
				</Text>
			))}
			{request.mode === "url" ? (
				<Text color={color(theme.accent)} wrap="truncate">
					{"  "}
					{screenText(request.url)}
				</Text>
			) : (
				visible?.shown.map(({ field, index }) => {
					const focused = index === state.focus;
					const label = `${field.title}${field.required ? " *" : ""}`;
					return (
						<Text key={field.key} wrap="truncate" {...(focused ? { color: color(theme.accent) } : {})}>
							{focused ? "› " : "  "}
							{screenText(label)}: {screenText(shown(field, state.values[field.key], state.cursor[field.key] ?? 0, focused))}
						</Text>
					);
				})
			)}
			{visible?.hidden ? <Text dimColor>{`  … ${visible.hidden} more fields (↑/↓)`}</Text> : null}
			{state.error ? <Text color={color(theme.error)}>{screenText(state.error)}</Text> : null}
			<Text dimColor wrap="truncate">
				{request.mode === "url" ? URL_HINT : FORM_HINT}
			</Text>
		</Box>
	);
}
