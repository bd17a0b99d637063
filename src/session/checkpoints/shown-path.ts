// A file name as a menu shows it: a command can create `a\nb` or a name with an escape sequence in
// it, and a rewind row must neither break in two nor move the cursor or change colours. Control
// characters (C0, DEL, C1) and the Unicode line and paragraph separators are written as escapes.

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `path` with every control character and line break escaped (`\n`, `\x1b`, `\u2028`); a backslash stays as is. */
export function shownPath(path: string): string {
	return path.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
		const code = c.charCodeAt(0);
		return NAMED[c] ?? (code > 0xff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\x${code.toString(16).padStart(2, "0")}`);
	});
}

/** Changes as the UI shows them: paths (and the reasons that name them) escaped. */
export function shownChanges<T extends { path: string; skipped?: string }>(changes: T[]): T[] {
	return changes.map((c) => ({ ...c, path: shownPath(c.path), ...(c.skipped ? { skipped: shownPath(c.skipped) } : {}) }));
}

/** A rewind preview as the UI shows it. */
export function shownPreview<T extends { changes: { path: string }[]; changedOutside: string[] }>(preview: T): T {
	return { ...preview, changes: shownChanges(preview.changes), changedOutside: preview.changedOutside.map(shownPath) };
}
