// Up/Down recall of earlier inputs, persisted as JSON lines under the data folder so it survives restarts.
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { inputHistoryFile } from "../src/config/paths.js";

const MAX_ENTRIES = 500;

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
export function openInputHistory(file: string | null = defaultHistoryFile()): InputHistory {
	const entries: string[] = [];
	if (file) {
		try {
			for (const line of readFileSync(file, "utf8").split("\n")) {
				if (!line) continue;
				try {
					const value = JSON.parse(line);
					if (typeof value === "string") entries.push(value);
				} catch {
					// A torn last line from a crash: skip it, keep the rest.
				}
			}
		} catch {
			// No history yet.
		}
	}
	entries.splice(0, Math.max(0, entries.length - MAX_ENTRIES));
	return {
		entries,
		add(text) {
			if (!text.trim() || entries[entries.length - 1] === text) return;
			entries.push(text);
			if (entries.length > MAX_ENTRIES) entries.shift();
			if (!file) return;
			try {
				mkdirSync(dirname(file), { recursive: true });
				appendFileSync(file, `${JSON.stringify(text)}\n`, { mode: 0o600 });
			} catch {
				// History is a convenience; a read-only data folder must not break input.
			}
		},
	};
}
