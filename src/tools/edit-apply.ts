// The pure part of `edit`: find each oldText exactly once in the original text, reject ambiguous or
// overlapping edits, and splice all replacements in one pass. No file system here, so it is tested on
// strings alone.

export interface TextEdit {
	oldText: string;
	newText: string;
}

interface LocatedEdit extends TextEdit {
	/** Position in the edits array, for error messages. */
	index: number;
	start: number;
	end: number;
}

/**
 * Applies every edit to `original` or throws an Error naming the edit at fault. All positions refer to
 * the original text, so one edit's replacement can never create or destroy another edit's match.
 */
export function applyEdits(original: string, edits: readonly TextEdit[], displayPath: string): string {
	if (edits.length === 0) throw new Error("No edits given: pass at least one {oldText, newText}");
	const label = (i: number) => (edits.length === 1 ? "The edit" : `Edit ${i + 1} of ${edits.length}`);
	const located: LocatedEdit[] = edits.map((edit, index) => {
		if (edit.oldText === "") throw new Error(`${label(index)}: oldText is empty; give the exact text to replace`);
		const positions = findAll(original, edit.oldText, 2);
		if (positions.length === 0) {
			throw new Error(
				`${label(index)}: oldText was not found in ${displayPath}; it must match the file exactly, including whitespace and indentation`,
			);
		}
		if (positions.length > 1) {
			const count = findAll(original, edit.oldText, Number.POSITIVE_INFINITY).length;
			throw new Error(
				`${label(index)}: oldText matches ${count} times in ${displayPath}; add surrounding lines so it matches exactly once`,
			);
		}
		const start = positions[0] as number;
		return { ...edit, index, start, end: start + edit.oldText.length };
	});
	located.sort((a, b) => a.start - b.start);
	for (let i = 1; i < located.length; i++) {
		const prev = located[i - 1] as LocatedEdit;
		const next = located[i] as LocatedEdit;
		if (next.start < prev.end) {
			const [a, b] = [prev.index, next.index].sort((x, y) => x - y);
			throw new Error(`Edits ${(a as number) + 1} and ${(b as number) + 1} overlap in ${displayPath}; merge them into one edit`);
		}
	}
	let result = "";
	let cursor = 0;
	for (const edit of located) {
		result += original.slice(cursor, edit.start) + edit.newText;
		cursor = edit.end;
	}
	result += original.slice(cursor);
	if (result === original) throw new Error(`No changes made to ${displayPath}: every newText equals its oldText`);
	return result;
}

/** Start positions of `needle` in `haystack`, overlapping ones included, at most `max` of them. */
function findAll(haystack: string, needle: string, max: number): number[] {
	const found: number[] = [];
	let at = haystack.indexOf(needle);
	while (at !== -1 && found.length < max) {
		found.push(at);
		at = haystack.indexOf(needle, at + 1);
	}
	return found;
}
