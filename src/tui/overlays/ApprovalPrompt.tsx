// The approval prompt: which tool wants what (the whole command, the diff the edit would make, or the
// arguments), numbered choices, and, for a lasting grant, a confirmation naming the exact rule. Past its
// height the preview says how many rows are hidden and the pager shows them all. Everything shown came
// from the model or a file: redacted and sanitised (approval-text.ts). The rows are computed by one pure
// function, so the height the app reserves is the height drawn.
import { Text } from "ink";
import type { SessionApprovalRequest } from "../../session/types.js";
import { hintLine, keyLabel } from "../keys/key-hints.js";
import { DEFAULT_KEY_BINDINGS, type KeyBindings } from "../keys/keybindings.js";
import { displayWidth, wrapLine } from "../text/text-width.js";
import { color, theme } from "../text/theme.js";
import { type ApprovalPromptState, choicesFor, type PagerSize, SCOPE_NAMES } from "./approval-prompt-state.js";
import { fitRows, type PreviewRow, previewRows, visibleLine } from "./approval-text.js";

const INDENT = "  ";

/** Which call of the reply this is: "call 1 of 2". */
export interface CallPosition {
	index: number;
	count: number;
}

export interface ApprovalView {
	request: SessionApprovalRequest;
	state: ApprovalPromptState;
	maxRows: number;
	columns: number;
	position?: CallPosition;
	bindings?: KeyBindings;
}

interface PromptRow extends PreviewRow {
	bold?: boolean;
	inverse?: boolean;
}

const pagerRowsOf = (view: Pick<ApprovalView, "request" | "columns">) => previewRows(view.request.preview, view.columns - INDENT.length);

/** The pager's size for scrolling: the preview's rows and a page of them (the rest is its header and footer). */
export function pagerSize(view: Pick<ApprovalView, "request" | "columns" | "maxRows">): PagerSize {
	return { rows: pagerRowsOf(view).length, page: Math.max(1, view.maxRows - 2) };
}

/** Our own text (titles, hints, the rule) wrapped at spaces; a word longer than the row is cut where it must be. */
function wrapped(text: string, columns: number, style: Omit<PromptRow, "text"> = {}): PromptRow[] {
	const width = Math.max(8, columns);
	const rows: string[] = [];
	let row = "";
	for (const word of text.split(" ")) {
		const joined = row ? `${row} ${word}` : word;
		if (displayWidth(joined) <= width) row = joined;
		else {
			if (row) rows.push(row);
			const pieces = wrapLine(word, width);
			row = pieces.pop() ?? "";
			rows.push(...pieces);
		}
	}
	rows.push(row);
	return rows.map((text) => ({ ...style, text }));
}

function pagerRows(view: ApprovalView, top: number, bindings: KeyBindings): PromptRow[] {
	const all = pagerRowsOf(view);
	const { page } = pagerSize(view);
	const first = Math.min(top, Math.max(0, all.length - page));
	const shown = all.slice(first, first + page).map((row) => ({ ...row, text: INDENT + row.text }));
	const header = `${view.request.tool}: rows ${first + 1}–${first + shown.length} of ${all.length}`;
	const keys = hintLine(bindings, [
		["pagerDown", "down"],
		["pagerUp", "up"],
		["pagerPageDown", "page down"],
		["pagerPageUp", "page up"],
		["pagerClose", "back to the choices"],
	]);
	return [{ text: header, bold: true, color: theme.warning }, ...shown, { text: keys, dim: true }];
}

/** The prompt's rows at this size, in order: what the app reserves and what the component draws. */
export function approvalPromptRows(view: ApprovalView): PromptRow[] {
	const { request, state, columns, position } = view;
	const bindings = view.bindings ?? DEFAULT_KEY_BINDINGS;
	if (state.pager !== undefined) return pagerRows(view, state.pager, bindings);
	const choices = choicesFor(request);
	// A sub-agent's request says which agent asks (its name came from a definition file: visibleLine below).
	const asker = request.agent ? `sub-agent ${request.agent.name} (${request.agent.id}): ` : "";
	const what = `${asker}${request.kind === "unsandboxed" ? `${request.tool} failed inside the sandbox` : `${request.tool} wants to run`}`;
	const of = position && position.count > 1 ? ` · call ${position.index} of ${position.count}` : "";
	const title: PromptRow = { text: `${visibleLine(what)}${of} · ${visibleLine(request.reason)}`, bold: true, color: theme.warning };
	const fullKey = keyLabel(bindings, "approvalFullText") ?? "the pager";
	const tail: PromptRow[] = [];
	if (state.confirming !== undefined) {
		const { response } = choices[state.confirming];
		const scope = response.decision === "always" ? SCOPE_NAMES[response.scope ?? "session"] : "";
		tail.push(...wrapped(`Save rule ${visibleLine(request.rule ?? request.tool)} ${scope}?`, columns, { bold: true, color: theme.accent }));
		tail.push(
			...wrapped(
				hintLine(bindings, [
					["approvalSelect", "saves it and runs the call"],
					["approvalDenyAndStop", "back"],
				]),
				columns,
				{ dim: true },
			),
		);
	} else {
		choices.forEach((choice, i) => {
			const here = i === state.selected && state.reason === undefined;
			tail.push({ text: `${here ? "›" : " "} ${i + 1}  ${choice.label}`, inverse: here });
		});
		if (state.reason !== undefined)
			tail.push(
				...wrapped(`reason: ${visibleLine(state.reason)}▏ (Enter sends the denial; empty for none)`, columns, { color: theme.accent }),
			);
		const keys = `↑↓ or 1–${choices.length}, then ${keyLabel(bindings, "approvalSelect") ?? "Enter"} · ${fullKey} shows all · ${keyLabel(bindings, "approvalDenyAndStop") ?? "Esc"} denies and stops the run · typing goes to the input`;
		tail.push(...wrapped(keys, columns, { dim: true }));
	}
	const room = Math.max(2, view.maxRows - 1 - tail.length);
	const preview = fitRows(previewRows(request.preview, columns - INDENT.length), room, fullKey).map((row) => ({
		...row,
		text: INDENT + row.text,
	}));
	return [...wrapped(title.text, columns, title), ...preview, ...tail];
}

export function approvalRows(view: ApprovalView): number {
	return approvalPromptRows(view).length;
}

export function ApprovalPrompt(view: ApprovalView) {
	return (
		<>
			{approvalPromptRows(view).map((row, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in a fixed layout
				<Text key={i} wrap="truncate" color={color(row.color)} dimColor={row.dim} bold={row.bold} inverse={row.inverse}>
					{row.text}
				</Text>
			))}
		</>
	);
}
