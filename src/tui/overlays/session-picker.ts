// The `/resume` (and `rudder -r`) picker: this folder's sessions, newest first, one row each with the
// date, the first message, the message count and the file size, searchable by first message and id.
import type { SessionSummary } from "../../session/types.js";
import { type PickerState, padCells } from "../widgets/Picker.js";

/** Characters of the first message shown in a row (the row is cut to the terminal anyway). */
const FIRST_MESSAGE_CELLS = 48;

export function formatBytes(n: number): string {
	if (n < 1024) return `${n} B`;
	if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
	return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** `2026-11-30 10:00` in local time: what the user's clock said when they last used the session. */
export function formatDate(d: Date): string {
	const two = (n: number) => String(n).padStart(2, "0");
	return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

function firstMessageCell(text: string): string {
	const line = text.replace(/\s+/g, " ").trim() || "(no message yet)";
	const chars = [...line];
	return chars.length > FIRST_MESSAGE_CELLS ? `${chars.slice(0, FIRST_MESSAGE_CELLS - 1).join("")}…` : line;
}

export function resumePicker(sessions: readonly SessionSummary[], onPick: (id: string) => void): PickerState<string> {
	const sorted = [...sessions].sort((a, b) => b.modified.getTime() - a.modified.getTime());
	return {
		title: `Resume a session (${sorted.length})`,
		items: sorted.map((s) => ({
			label: `${formatDate(s.modified)}  ${padCells(firstMessageCell(s.firstMessage), FIRST_MESSAGE_CELLS)}`,
			detail: [`${s.messageCount} msg${s.messageCount === 1 ? "" : "s"}`, s.bytes !== undefined ? formatBytes(s.bytes) : ""]
				.filter(Boolean)
				.join(" · "),
			search: `${s.firstMessage} ${s.id}`,
		})),
		values: sorted.map((s) => s.id),
		index: 0,
		query: "",
		searchHint: "first message or id",
		onPick,
	};
}
