// The rewind menu (`/rewind`, Esc twice on an empty idle input), as three pickers in a row: the
// prompts of the branch, newest first, each with the files its run changed; what to restore; and, for
// a restore that changes files, a confirmation naming them and any changed outside Rudder since. The
// builders are pure; use-input-controller.ts chains them (picking closes one picker, then opens the next).
import type { FileChangeInfo, RewindPointInfo } from "../../session/types.js";
import type { PickerState } from "../widgets/Picker.js";

export type RestoreChoice = "both" | "conversation" | "code" | "cancel";

const PROMPT_CELLS = 48;

function cut(text: string, cells: number): string {
	const flat = text.replace(/\s+/g, " ").trim() || "(empty prompt)";
	const chars = [...flat];
	return chars.length > cells ? `${chars.slice(0, cells - 1).join("")}…` : flat;
}

/** `+12 −3 src/a.ts` */
export function changeLabel(change: FileChangeInfo): string {
	if (change.binary) return `${change.status === "added" ? "+" : change.status === "deleted" ? "−" : "~"} ${change.path} (binary)`;
	return `+${change.added} −${change.removed} ${change.path}`;
}

function changesDetail(point: RewindPointInfo): string {
	if (!point.checkpoint) return "conversation only";
	const scope = point.editsOnly ? "edits only: " : "";
	if (point.changes.length === 0) return `${scope}no file changes`;
	const shown = point.changes.slice(0, 3).map(changeLabel).join(", ");
	return `${scope}${point.changes.length > 3 ? `${shown}, +${point.changes.length - 3} more` : shown}`;
}

export function rewindPointsPicker(
	points: readonly RewindPointInfo[],
	onPick: (point: RewindPointInfo) => void,
): PickerState<RewindPointInfo> {
	return {
		title: `Rewind to before a prompt (${points.length}, newest first)`,
		items: points.map((p) => ({ label: cut(p.text, PROMPT_CELLS), detail: changesDetail(p), search: p.text })),
		values: [...points],
		index: 0,
		query: "",
		searchHint: "prompt text",
		onPick,
	};
}

export function restoreChoicePicker(point: RewindPointInfo, onPick: (choice: RestoreChoice) => void): PickerState<RestoreChoice> {
	const choices: { value: RestoreChoice; label: string }[] = point.checkpoint
		? [
				{ value: "both", label: "Restore code and conversation" },
				{ value: "conversation", label: "Restore conversation only" },
				{ value: "code", label: point.editsOnly ? "Restore code only (edits only: bash changes are not tracked)" : "Restore code only" },
				{ value: "cancel", label: "Cancel" },
			]
		: [
				{ value: "conversation", label: "Restore conversation only (this prompt has no checkpoint)" },
				{ value: "cancel", label: "Cancel" },
			];
	return {
		title: `Before "${cut(point.text, PROMPT_CELLS)}"`,
		items: choices.map((c) => ({ label: c.label })),
		values: choices.map((c) => c.value),
		index: 0,
		onPick,
	};
}

const verb = (c: FileChangeInfo) => (c.status === "added" ? "restore" : c.status === "deleted" ? "delete" : "revert");

/**
 * The last step of a code restore: what it will change, and the files someone else changed since. The
 * cursor starts on "No" when a restore would overwrite a change made outside Rudder.
 */
export function confirmRestorePicker(
	preview: { changes: readonly FileChangeInfo[]; changedOutside: readonly string[] },
	onPick: (yes: boolean) => void,
): PickerState<boolean> {
	const outside = preview.changedOutside.length ? ` (changed outside Rudder since: ${preview.changedOutside.join(", ")})` : "";
	const n = preview.changes.length;
	const shown = preview.changes.slice(0, 4).map((c) => `${verb(c)} ${c.path}`);
	if (n > 4) shown.push(`${n - 4} more`);
	return {
		title: `Restore ${n} file${n === 1 ? "" : "s"}?${outside}`,
		items: [{ label: "Yes, restore them", detail: shown.join(", ") }, { label: "No, keep the files as they are" }],
		values: [true, false],
		index: preview.changedOutside.length > 0 ? 1 : 0,
		onPick,
	};
}
