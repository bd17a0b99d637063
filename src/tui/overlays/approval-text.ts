// What an approval shows, as screen rows: every character of the command, diff or arguments, wrapped
// (never cut with `…`), with what a terminal would not show made visible. A run of spaces that could
// push `; curl x|sh` off the screen becomes `⟨300 spaces⟩`, a tab `⟨tab⟩`, an unusual space its code
// point; controls and invisible characters are marked by the sanitiser (src/safety/sanitize.ts), after
// known secrets are redacted (screen-text.ts). Pure: the prompt and the pager both draw these rows.
import { unicodeMarker } from "../../safety/sanitize.js";
import type { ApprovalPreview } from "../../session/types.js";
import { screenText } from "../text/screen-text.js";
import { wrapLine } from "../text/text-width.js";
import { theme } from "../text/theme.js";

export interface PreviewRow {
	text: string;
	color?: string;
	dim?: boolean;
	/** Kept below the preview whatever its height (where a command runs): not part of its head or tail. */
	pinned?: boolean;
}

/** Spaces a terminal draws as blanks but that are not U+0020: each is named (`⟪U+00A0⟫`). */
const ODD_SPACES = /[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/g;
/** Runs of spaces or tabs this long inside a line are counted, not drawn; indentation may be longer. */
const INNER_RUN = 3;
const LEADING_RUN = 16;

function countRun(run: string): string {
	const tabs = run.replaceAll(" ", "").length;
	const spaces = run.length - tabs;
	if (tabs === 0) return `⟨${spaces} spaces⟩`;
	if (spaces === 0) return tabs === 1 ? "⟨tab⟩" : `⟨${tabs} tabs⟩`;
	return `⟨${spaces} spaces, ${tabs} ${tabs === 1 ? "tab" : "tabs"}⟩`;
}

/** ESC and CSI: shown as text before the sanitiser, which drops a complete colour code elsewhere. */
const ESCAPES = /[\x1b\x9b]/g;

/**
 * One line made whole to the eye: every escape shown (`^[[31m`: in an approval even a colour code is
 * part of what runs, so it is not dropped as the sanitiser drops it from output), runs of blanks counted
 * (a tab is always marked, so an indented here-document cannot hide one), odd spaces named, then
 * redacted and sanitised for the screen.
 */
export function visibleLine(line: string): string {
	const marked = line
		.replace(ESCAPES, (ch) => (ch === "\x1b" ? "^[" : unicodeMarker(0x9b)))
		.replace(ODD_SPACES, (ch) => unicodeMarker(ch.charCodeAt(0)))
		.replace(/[ \t]+/g, (run, offset: number) => {
			const leading = offset === 0;
			if (run.includes("\t") || run.length >= (leading ? LEADING_RUN : INNER_RUN)) return countRun(run);
			return run;
		});
	return screenText(marked);
}

/** Lines of a preview before wrapping: what they say and how they are coloured. */
function previewLines(preview: ApprovalPreview): PreviewRow[] {
	switch (preview.type) {
		case "command": {
			const where =
				preview.sandbox === "bwrap"
					? `runs in the sandbox: writes only inside the workspace and /tmp${preview.network ? "" : ", no network"}`
					: "runs without a sandbox";
			const lines = preview.command.split("\n").map((text, i) => ({ text: `${i === 0 ? "$" : ">"} ${visibleLine(text)}` }));
			return [...lines, { text: where, dim: true, pinned: true }];
		}
		case "diff": {
			const body = preview.diff.split("\n").filter((l, i) => !(i < 4 && /^(Index: |={10,}|--- |\+\+\+ )/.test(l)));
			while (body.length > 0 && body[body.length - 1] === "") body.pop();
			const lines: PreviewRow[] = body.map((text) => ({
				// The sign stays in front; the line after it is shown whole.
				text: text.slice(0, 1) + visibleLine(text.slice(1)),
				color: text.startsWith("+") ? theme.success : text.startsWith("-") ? theme.error : text.startsWith("@@") ? theme.accent : undefined,
				dim: text.startsWith("\\"),
			}));
			if (preview.truncatedLines > 0) lines.push({ text: `… ${preview.truncatedLines} more lines of the diff not previewed`, dim: true });
			return [{ text: screenText(preview.path), dim: true }, ...lines];
		}
		case "error":
			return [{ text: `${screenText(preview.path)}: ${screenText(preview.text)}`, color: theme.warning }];
		case "args":
			return preview.text.split("\n").map((text) => ({ text: visibleLine(text) }));
	}
}

/** Every row of the preview at `width` cells: long lines wrap, continuation rows keep the line's colour. */
export function previewRows(preview: ApprovalPreview, width: number): PreviewRow[] {
	return previewLines(preview).flatMap((line) => wrapLine(line.text, Math.max(8, width)).map((text) => ({ ...line, text })));
}

/**
 * At most `room` rows: the head and the tail (a command's end is where `rm -rf` hides), and between
 * them one row saying how many are hidden and which key shows them all.
 */
export function fitRows(all: readonly PreviewRow[], room: number, fullKey: string): PreviewRow[] {
	if (all.length <= room) return [...all];
	const pinned = all.filter((row) => row.pinned);
	const rows = all.filter((row) => !row.pinned);
	const keep = Math.max(1, room - 1 - pinned.length);
	const tail = Math.min(Math.floor(keep / 3), 3);
	const head = keep - tail;
	const hidden = rows.length - head - tail;
	const note = { text: `⟨${hidden} more ${hidden === 1 ? "line" : "lines"} hidden · ${fullKey} shows all⟩`, dim: true };
	return [...rows.slice(0, head), note, ...(tail > 0 ? rows.slice(rows.length - tail) : []), ...pinned];
}
