// Ctrl+G: the input edited in the user's $VISUAL / $EDITOR. The editor gets the terminal as the shell
// would give it: Ink's raw mode off and the keyboard modes the app asked for (kitty protocol,
// modifyOtherKeys, bracketed paste) popped, so the editor's keys arrive as it expects. The text goes
// through a file only the user can read (0600, in a fresh 0700 folder, removed afterwards), and the
// modes are restored whatever the editor did. Synchronous on purpose: nothing else may read the
// terminal while the editor owns it.
import { spawnSync } from "node:child_process";
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { KITTY_POP, KITTY_PUSH, MODIFY_OTHER_KEYS_OFF, MODIFY_OTHER_KEYS_ON } from "../keys/terminal-modes.js";

const BRACKETED_PASTE_ON = "\x1b[?2004h";
const BRACKETED_PASTE_OFF = "\x1b[?2004l";
const SHOW_CURSOR = "\x1b[?25h";

/** What the editor session needs of the terminal. */
export interface EditorTerminal {
	setRawMode(on: boolean): void;
	write(data: string): void;
}

export type EditorOutcome = { text: string } | { error: string };

/** Tried in order when neither `$VISUAL` nor `$EDITOR` is set, as git and most shells' tools do. */
export const FALLBACK_EDITORS = ["vi", "nano"] as const;

/**
 * The editor command line: `$VISUAL`, else `$EDITOR`, else the first of FALLBACK_EDITORS found on
 * `$PATH` (an executable file); undefined when there is none.
 */
export function editorCommand(env: Record<string, string | undefined>): string | undefined {
	return env.VISUAL?.trim() || env.EDITOR?.trim() || FALLBACK_EDITORS.find((name) => onPath(name, env.PATH));
}

function onPath(name: string, path: string | undefined): boolean {
	return (path ?? "").split(delimiter).some((folder) => {
		if (folder === "") return false;
		try {
			const file = join(folder, name);
			accessSync(file, constants.X_OK);
			return statSync(file).isFile();
		} catch {
			return false;
		}
	});
}

/** Runs the editor on `text`; the saved text (one trailing newline dropped), or why not. */
export function editInExternalEditor(
	text: string,
	terminal: EditorTerminal,
	env: Record<string, string | undefined> = process.env,
): EditorOutcome {
	const command = editorCommand(env);
	if (!command)
		return {
			error: `No editor: set $VISUAL or $EDITOR to edit the input in one (Ctrl+G); ${FALLBACK_EDITORS.join(" and ")} are not on PATH`,
		};
	// "code --wait", "emacs -nw": the command's own words, then the file; no shell in between.
	const [program, ...args] = command.split(/\s+/);
	const dir = mkdtempSync(join(tmpdir(), "rudder-edit-"));
	const file = join(dir, "input.md");
	try {
		writeFileSync(file, text, { mode: 0o600, flag: "wx" });
		terminal.write(KITTY_POP + MODIFY_OTHER_KEYS_OFF + BRACKETED_PASTE_OFF + SHOW_CURSOR);
		terminal.setRawMode(false);
		let result: ReturnType<typeof spawnSync>;
		try {
			result = spawnSync(program, [...args, file], { stdio: "inherit", env });
		} finally {
			terminal.setRawMode(true);
			terminal.write(KITTY_PUSH + MODIFY_OTHER_KEYS_ON + BRACKETED_PASTE_ON);
		}
		if (result.error) return { error: `Could not run the editor "${program}": ${result.error.message}` };
		if (result.status !== 0)
			return { error: `The editor "${program}" exited with ${result.status ?? result.signal}; the input is unchanged` };
		return { text: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
