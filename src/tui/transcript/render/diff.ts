// An edit's unified diff as the user reads it: no `Index:` / `====` / `---` / `+++` header lines (the
// tool row above names the file), each line with its line number (the new file's, the old file's for a
// removed line) in a gutter, a `⋮` between hunks.

export type DiffLineKind = "add" | "remove" | "context" | "gap" | "note";

export interface DiffLine {
	kind: DiffLineKind;
	/** Line number, right-aligned to the widest (empty for gaps and notes). */
	gutter: string;
	text: string;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;
const FILE_HEADER = /^(Index: |={3,}$|--- |\+\+\+ |diff --git )/;

export function numberDiff(diff: string): DiffLine[] {
	const out: { kind: DiffLineKind; number?: number; text: string }[] = [];
	let oldLine = 0;
	let newLine = 0;
	let inHunk = false;
	for (const line of diff.replace(/\n+$/, "").split("\n")) {
		const hunk = HUNK.exec(line);
		if (hunk) {
			if (inHunk) out.push({ kind: "gap", text: "⋮" });
			oldLine = Number(hunk[1]);
			newLine = Number(hunk[2]);
			inHunk = true;
			continue;
		}
		if (!inHunk) {
			if (!FILE_HEADER.test(line) && line.trim()) out.push({ kind: "note", text: line });
			continue;
		}
		if (line.startsWith("+")) out.push({ kind: "add", number: newLine++, text: line.slice(1) });
		else if (line.startsWith("-")) out.push({ kind: "remove", number: oldLine++, text: line.slice(1) });
		else if (line.startsWith("\\")) out.push({ kind: "note", text: line.slice(2) });
		else {
			out.push({ kind: "context", number: newLine, text: line.slice(1) });
			oldLine++;
			newLine++;
		}
	}
	const digits = Math.max(1, ...out.map((l) => (l.number === undefined ? 0 : String(l.number).length)));
	return out.map((l) => ({
		kind: l.kind,
		text: l.text,
		gutter: l.number === undefined ? " ".repeat(digits) : String(l.number).padStart(digits),
	}));
}

/** The mark after the gutter: what happened to the line. */
export const diffSign = (kind: DiffLineKind): string => (kind === "add" ? "+" : kind === "remove" ? "-" : " ");
