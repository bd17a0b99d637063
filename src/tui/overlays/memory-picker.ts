// `#text` in the input: which AGENTS.md the line goes to, the project's nearest one or the user's global
// one (memory-file.ts in the session finds them and writes the line). The builder is pure; ui-requests.ts
// opens it and hands the choice to the session's `/memory` command.
import { shownPath } from "../../config/paths.js";
import type { MemoryScope, MemoryTarget } from "../../session/memory-file.js";
import { oneLine } from "../text/screen-text.js";
import type { PickerState } from "../widgets/Picker.js";

const SCOPE_DETAIL: Readonly<Record<MemoryScope, string>> = {
	project: "this project, for everyone who works in it",
	global: "every project, only you",
};

/** A memory line: `#` and the text after it, or undefined when the input is not one (a `##` heading, several lines). */
export function memoryLine(input: string): string | undefined {
	const match = /^#(?!#)[ \t]*(\S.*)$/.exec(input.trim());
	return match && !input.trim().includes("\n") ? match[1].trim() : undefined;
}

export function memoryPicker(
	targets: readonly MemoryTarget[],
	text: string,
	onPick: (scope: MemoryScope) => void,
): PickerState<MemoryScope> {
	const shown = [...oneLine(text)];
	const quoted = shown.length > 60 ? `${shown.slice(0, 59).join("")}…` : shown.join("");
	return {
		title: `Add "${quoted}" to which AGENTS.md?`,
		items: targets.map((t) => ({
			label: `${t.scope.padEnd(7)} ${oneLine(shownPath(t.file))}${t.exists ? "" : " (new)"}`,
			detail: SCOPE_DETAIL[t.scope],
		})),
		values: targets.map((t) => t.scope),
		index: 0,
		onPick,
	};
}
