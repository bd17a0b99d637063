// Up/Down recall of earlier inputs, persisted as JSON lines under the data folder so it survives restarts.
// The file is capped too, not only the list: it is rewritten with the newest entries when it has grown
// to twice the cap, so it never grows without bound across sessions.
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { inputHistoryFile } from "../../config/paths.js";
import { redactSecrets } from "../../safety/secrets.js";
import { isLoginCommand } from "../../session/login-command.js";

export const MAX_HISTORY_ENTRIES = 500;

export interface InputHistory {
	/** Oldest first. */
	readonly entries: readonly string[];
	add(text: string): void;
}

export const defaultHistoryFile = (): string => inputHistoryFile();

/**
 * Loads the history file (a missing or damaged file gives an empty history) and appends to it on `add`.
 * `null` keeps the history in memory only.
 */
export function openInputHistory(file: string | null = defaultHistoryFile(), max = MAX_HISTORY_ENTRIES): InputHistory {
	const entries: string[] = [];
	let linesInFile = 0;
	if (file) {
		try {
			for (const line of readFileSync(file, "utf8").split("\n")) {
				if (!line) continue;
				linesInFile++;
				try {
					const value = JSON.parse(line);
					// Older versions kept /login lines: they are not recalled.
					if (typeof value === "string" && !isLoginCommand(value)) entries.push(value);
				} catch {
					// A torn last line from a crash: skip it, keep the rest.
				}
			}
		} catch {
			// No history yet.
		}
	}
	entries.splice(0, Math.max(0, entries.length - max));
	const rewrite = () => {
		if (!file) return;
		try {
			const tmp = `${file}.${process.pid}.tmp`;
			writeFileSync(tmp, entries.map((e) => `${JSON.stringify(e)}\n`).join(""), { mode: 0o600 });
			renameSync(tmp, file);
			linesInFile = entries.length;
		} catch {
			// History is a convenience; a read-only data folder must not break input.
		}
	};
	if (linesInFile > max) rewrite();
	return {
		entries,
		add(raw) {
			// A key typed with /login is never kept (nor recalled with Up); other text loses known secrets.
			if (isLoginCommand(raw)) return;
			const text = redactSecrets(raw);
			if (!text.trim() || entries[entries.length - 1] === text) return;
			entries.push(text);
			if (entries.length > max) entries.shift();
			if (!file) return;
			if (linesInFile + 1 > 2 * max) return rewrite();
			try {
				mkdirSync(dirname(file), { recursive: true });
				appendFileSync(file, `${JSON.stringify(text)}\n`, { mode: 0o600 });
				linesInFile++;
			} catch {
				// History is a convenience; a read-only data folder must not break input.
			}
		},
	};
}
