// The unified diff and first changed line that the UI shows for an edit.
import { formatPatch, type StructuredPatch, structuredPatch } from "diff";

export interface EditDiff {
	/** Unified diff with 3 lines of context. */
	diff: string;
	/** 1-based line in the new text where the first change is, for jumping there in the UI. */
	firstChangedLine: number | undefined;
}

export function diffTexts(displayPath: string, before: string, after: string): EditDiff {
	const patch = structuredPatch(displayPath, displayPath, before, after, undefined, undefined, { context: 3 });
	return { diff: formatPatch(patch), firstChangedLine: firstChangedLine(patch) };
}

function firstChangedLine(patch: StructuredPatch): number | undefined {
	const hunk = patch.hunks[0];
	if (!hunk) return undefined;
	let line = hunk.newStart;
	for (const text of hunk.lines) {
		if (!text.startsWith(" ")) return Math.max(1, line);
		line++;
	}
	return line;
}
