// A drop-in for Ink 6.8's `Output.prototype.get` (ink/build/output.js), installed into the bundle by
// scripts/bundle.mjs. Ink's version allocates a cell object for every column of every row, every
// frame, then turns each row back into a string; most rows of the live region (footer, input, all but
// the last rows of the streaming tail) are the same as in the previous frame. Rows are independent in
// Ink's algorithm (a write's line only ever touches its own row), so this one collects, per row, the
// pieces written into it, and builds a row only when that list of pieces is new. Output is identical
// to Ink's (test/tui/ink/row-cached-output.test.ts compares them on random frames).

/** One cell as @alcalzone/ansi-tokenize describes it. */
export interface StyledCell {
	type: "char";
	value: string;
	fullWidth: boolean;
	styles: unknown[];
}

type Transformer = (line: string, index: number) => string;

interface Clip {
	x1?: number;
	x2?: number;
	y1?: number;
	y2?: number;
}

type Operation =
	| { type: "write"; x: number; y: number; text: string; transformers: Transformer[] }
	| { type: "clip"; clip: Clip }
	| { type: "unclip" };

/** The fields of Ink's Output instance this reads. */
export interface InkOutput {
	width: number;
	height: number;
	/** <Static>'s output (patched in, patches.ts): drawn once, so its rows are not cached. */
	once?: boolean;
	operations: Operation[];
	caches: {
		getStyledChars(line: string): StyledCell[];
		getStringWidth(text: string): number;
		getWidestLine(text: string): number;
	};
}

/** An SGR code as @alcalzone/ansi-tokenize keeps it in a cell's styles. */
export interface AnsiCode {
	type: "ansi";
	code: string;
	endCode: string;
}

/** What Ink's output.js imports, passed in by the patch. */
export interface OutputDeps {
	styledCharsToString(cells: StyledCell[]): string;
	sliceAnsi(text: string, from: number, to: number): string;
	/** ansi-tokenize's own: a row's SGR codes are read with them, so a row of runs has Ink's styles. */
	tokenize?(text: string): ReadonlyArray<{ type: string }>;
	reduceAnsiCodesIncremental?(codes: unknown[], tokens: ReadonlyArray<{ type: string }>): unknown[];
	/** ansi-tokenize's own: the codes styledCharsToString closes a row with, for a row that grows (`grown`). */
	diffAnsiCodes?(from: unknown[], to: unknown[]): unknown[];
	ansiCodesToString?(codes: unknown[]): string;
}

const BLANK: StyledCell = Object.freeze({ type: "char", value: " ", fullWidth: false, styles: [] }) as StyledCell;
const MAX_CACHED_ROWS = 1000;

let rowCache = new Map<string, string>();

/** Rows kept for the next frames (for tests). */
export const cachedRowCount = (): number => rowCache.size;

/** Renders the frame; same result as Ink's `Output.get()`. */
export function renderOutput(out: InkOutput, deps: OutputDeps): { output: string; height: number } {
	const rows: Array<Array<{ x: number; line: string }> | undefined> = new Array(out.height);
	const clips: Clip[] = [];
	for (const operation of out.operations) {
		if (operation.type === "clip") clips.push(operation.clip);
		else if (operation.type === "unclip") clips.pop();
		else collectWrite(out, deps, operation, clips.at(-1), rows);
	}
	if (rowCache.size > MAX_CACHED_ROWS) rowCache = new Map();
	const lines = new Array<string>(out.height);
	for (let y = 0; y < out.height; y++) {
		const pieces = rows[y];
		if (pieces === undefined) {
			lines[y] = "";
			continue;
		}
		if (out.once) {
			lines[y] = buildRow(out, deps, pieces);
			continue;
		}
		// Each piece as x, length and text: unambiguous whatever the text holds.
		let key = String(out.width);
		for (const piece of pieces) key += `|${piece.x},${piece.line.length}:${piece.line}`;
		let line = rowCache.get(key);
		if (line === undefined) {
			line = buildRow(out, deps, pieces);
			rowCache.set(key, line);
		}
		lines[y] = line;
	}
	return { output: lines.join("\n"), height: out.height };
}

/** Ink's clipping and transformers for one write, leaving each resulting line in its row's list. */
function collectWrite(
	out: InkOutput,
	deps: OutputDeps,
	operation: { x: number; y: number; text: string; transformers: Transformer[] },
	clip: Clip | undefined,
	rows: Array<Array<{ x: number; line: string }> | undefined>,
): void {
	const { text, transformers } = operation;
	let { x, y } = operation;
	let lines = text.split("\n");
	if (clip) {
		const clipX = typeof clip.x1 === "number" && typeof clip.x2 === "number";
		const clipY = typeof clip.y1 === "number" && typeof clip.y2 === "number";
		if (clipX) {
			const width = out.caches.getWidestLine(text);
			if (x + width < (clip.x1 as number) || x > (clip.x2 as number)) return;
		}
		if (clipY && (y + lines.length < (clip.y1 as number) || y > (clip.y2 as number))) return;
		if (clipX) {
			const x1 = clip.x1 as number;
			const x2 = clip.x2 as number;
			lines = lines.map((line) => {
				const from = x < x1 ? x1 - x : 0;
				const width = out.caches.getStringWidth(line);
				const to = x + width > x2 ? x2 - x : width;
				return deps.sliceAnsi(line, from, to);
			});
			if (x < x1) x = x1;
		}
		if (clipY) {
			const y1 = clip.y1 as number;
			const y2 = clip.y2 as number;
			const from = y < y1 ? y1 - y : 0;
			const to = y + lines.length > y2 ? y2 - y : lines.length;
			lines = lines.slice(from, to);
			if (y < y1) y = y1;
		}
	}
	for (let index = 0; index < lines.length; index++) {
		const row = y + index;
		// Ink stops at the first line that falls outside the frame (its row counter does not advance).
		if (row < 0 || row >= out.height) return;
		let line = lines[index] as string;
		for (const transformer of transformers) line = transformer(line, index);
		const pieces = rows[row];
		if (pieces === undefined) rows[row] = [{ x, line }];
		else pieces.push({ x, line });
	}
}

/**
 * Lines of characters that are one UTF-16 unit, one cell wide and never part of an escape sequence:
 * printable ASCII, Latin-1 and Latin Extended, general punctuation (dashes, quotes, • …, ‹ ›), arrows,
 * box drawing and geometric shapes but the two drawn as emoji (◽◾, two cells). The test checks
 * every one of them against Ink's own Output.
 */
export const PLAIN = /^[\x20-\x7e\u00a0-\u024f\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2500-\u257f\u25a0-\u25fc]*$/;

/** SGR codes string-width strips whole (ansi-regex reads at most 4 digits a parameter). */
const SHORT_SGR = /\x1b\[(?:\d{1,3}(?:;\d{1,3})*)?m/g;

/**
 * The width Ink measures (widest-line, string-width) for a line of PLAIN characters between short SGR
 * codes: one cell each, so its length without the codes; such a line is also left as it is by Ink's
 * sanitising (no control character). Undefined for anything else, measured as Ink does. The soft hyphen
 * (PLAIN, a cell in Output) counts zero in string-width. Tested against widest-line for every PLAIN character.
 */
export function plainWidth(line: string): number | undefined {
	const text = line.indexOf("\x1b") === -1 ? line : line.replace(SHORT_SGR, "");
	return PLAIN.test(text) && text.indexOf("\u00ad") === -1 ? text.length : undefined;
}

/** One row exactly as Ink builds it: blank cells, each piece's characters laid over them in order. */
function buildRow(out: InkOutput, deps: OutputDeps, pieces: Array<{ x: number; line: string }>): string {
	if (pieces.length === 1) {
		const row = buildRunRow(out.width, deps, pieces[0].x, pieces[0].line);
		if (row !== undefined) return row;
	}
	if (pieces.every((piece) => PLAIN.test(piece.line))) return buildPlainRow(out.width, pieces);
	const cells: Array<StyledCell | undefined> = new Array(out.width).fill(BLANK);
	for (const { x, line } of pieces) {
		let offsetX = x;
		for (const cell of out.caches.getStyledChars(line)) {
			cells[offsetX] = cell;
			const width = Math.max(1, out.caches.getStringWidth(cell.value));
			for (let i = 1; i < width; i++) cells[offsetX + i] = { type: "char", value: "", fullWidth: false, styles: cell.styles };
			offsetX += width;
		}
	}
	return deps.styledCharsToString(mergeStyleRuns(cells)).trimEnd();
}

/** The `code`/`endCode` pair ansi-tokenize keeps for each style a cell carries. */
type StyleCode = { code?: unknown; endCode?: unknown };

function sameStyles(a: unknown[], b: unknown[]): boolean {
	if (a === b) return true;
	if (a.length !== b.length) return false;
	for (let i = 0; i < a.length; i++) {
		const x = a[i] as StyleCode;
		const y = b[i] as StyleCode;
		if (x !== y && (x.code !== y.code || x.endCode !== y.endCode)) return false;
	}
	return true;
}

/**
 * The row's cells (holes dropped, as Ink drops them) with each run of cells in the same styles joined
 * into one cell. styledCharsToString writes, between two cells, only the difference of their styles,
 * which between equal styles is nothing: the string is the same, but it is computed once per change of
 * style instead of once per column (three Sets and four arrays each). A resumed session's history is
 * hundreds of styled rows drawn at once; per column, that was ~15 MB of garbage and the young
 * generation doubled for good.
 */
export function mergeStyleRuns(cells: ReadonlyArray<StyledCell | undefined>): StyledCell[] {
	const runs: StyledCell[] = [];
	let run: StyledCell | undefined;
	let text = "";
	for (const cell of cells) {
		if (cell === undefined) continue;
		if (run !== undefined && sameStyles(run.styles, cell.styles)) {
			text += cell.value;
			continue;
		}
		if (run !== undefined) runs.push(text === run.value ? run : { ...run, value: text });
		run = cell;
		text = cell.value;
	}
	if (run !== undefined) runs.push(text === run.value ? run : { ...run, value: text });
	return runs;
}

/** An SGR sequence as ansi-tokenize reads one (digits and ";" only), from `lastIndex`. */
const SGR_AT = /\x1b\[[0-9;]*m/y;
/** The codes of each SGR sequence seen, as ansi-tokenize's tokens (few distinct ones: bounded anyway). */
let sgrTokens = new Map<string, ReadonlyArray<{ type: string }>>();
const NO_STYLES: unknown[] = [];

/** The tokens of one SGR sequence, tokenised once. */
function sgrTokensOf(code: string, tokenize: NonNullable<OutputDeps["tokenize"]>): ReadonlyArray<{ type: string }> {
	let tokens = sgrTokens.get(code);
	if (tokens === undefined) {
		if (sgrTokens.size > 500) sgrTokens = new Map();
		tokens = tokenize(code);
		sgrTokens.set(code, tokens);
	}
	return tokens;
}

/**
 * The row of one piece at `x >= 0`, built from the piece's runs of text between SGR codes instead of
 * from a cell per character. With one piece nothing overlaps, so where each character lands does not
 * matter, only the order: Ink's cells, run-merged (`mergeStyleRuns`), are these runs, each in the
 * styles ansi-tokenize's own reducer gives for the codes before it; the blank cells after the piece
 * are removed by the trimEnd either way. Undefined (build it cell by cell) for anything else Ink's
 * tokenizer reads as a code (links, C1, other CSI) and for a run starting with a character at or above
 * U+0300, which may join the grapheme of the code's last byte (Ink would drop it with the code).
 */
function buildRunRow(width: number, deps: OutputDeps, x: number, line: string): string | undefined {
	if (x < 0) return undefined;
	const pad = Math.min(x, width);
	const firstCode = line.indexOf("\x1b");
	if (firstCode === -1) {
		if (line.indexOf("\x9b") !== -1) return undefined;
		return pad === 0 ? line.trimEnd() : (" ".repeat(pad) + line).trimEnd();
	}
	const grew = grown(width, deps, x, line);
	if (grew !== undefined) return grew;
	const { tokenize, reduceAnsiCodesIncremental: reduce } = deps;
	if (!tokenize || !reduce || line.indexOf("\x9b") !== -1) return undefined;
	const runs: StyledCell[] = [];
	if (pad > 0) runs.push({ type: "char", value: " ".repeat(pad), fullWidth: false, styles: NO_STYLES });
	let styles: unknown[] = NO_STYLES;
	let at = 0;
	let next = firstCode;
	for (;;) {
		if (next > at) {
			if (at > 0 && line.charCodeAt(at) >= 0x300) return undefined;
			runs.push({ type: "char", value: line.slice(at, next), fullWidth: false, styles });
		}
		if (next === line.length) break;
		SGR_AT.lastIndex = next;
		if (!SGR_AT.test(line)) return undefined;
		styles = reduce(styles, sgrTokensOf(line.slice(next, SGR_AT.lastIndex), tokenize));
		at = SGR_AT.lastIndex;
		next = line.indexOf("\x1b", at);
		if (next === -1) next = line.length;
	}
	const merged = mergeStyleRuns(runs);
	const full = deps.styledCharsToString(merged);
	// The row can grow by more text (the streaming tail's last row, frame after frame): remembered.
	if (deps.diffAnsiCodes && deps.ansiCodesToString && merged.length > 0) {
		const last = merged[merged.length - 1].styles;
		const close = deps.ansiCodesToString(deps.diffAnsiCodes(last, NO_STYLES));
		if (full.endsWith(close)) {
			const body = full.slice(0, full.length - close.length);
			remember({ width, deps, x, line, body, last, final: styles, endsInText: at < line.length, close });
		}
	}
	return full.trimEnd();
}

/**
 * The last rows `buildRunRow` built (newest first; a frame builds the tail's last row and, between,
 * the status line's: one would push the other out): each one's string before the codes that close it (`close`, for the styles
 * of its `last` run), and the styles after its last code (`final`). A line that is that line and more
 * text without codes has the same runs and one more, in `final` (or the last one longer, when it ends in
 * text or `final` are the same styles), so its string is `body`, the codes from `last` to `final`, the
 * text and the codes that close `final`: what styledCharsToString writes between and after runs.
 */
interface RunRow {
	width: number;
	deps: OutputDeps;
	x: number;
	line: string;
	body: string;
	last: unknown[];
	final: unknown[];
	endsInText: boolean;
	close: string;
}
const runRows: RunRow[] = [];
const KEPT_RUN_ROWS = 4;

function remember(row: RunRow, replacing = -1): void {
	if (replacing >= 0) runRows.splice(replacing, 1);
	runRows.unshift(row);
	if (runRows.length > KEPT_RUN_ROWS) runRows.length = KEPT_RUN_ROWS;
}

/**
 * `line`'s row from one of the last ones built when `line` is it grown by more text, with or without
 * SGR codes (a code fence's last row grows by highlighted tokens); undefined when it is not, or the
 * text added is not what `buildRunRow` reads as runs.
 */
function grown(width: number, deps: OutputDeps, x: number, line: string): string | undefined {
	let index = -1;
	for (let i = 0; i < runRows.length; i++) {
		const row = runRows[i];
		if (row.x === x && row.width === width && row.deps === deps && line.length > row.line.length && line.startsWith(row.line)) {
			index = i;
			break;
		}
	}
	if (index === -1) return undefined;
	const was = runRows[index];
	const { diffAnsiCodes: diff, ansiCodesToString: codes } = deps;
	if (!diff || !codes || line.indexOf("\x9b", was.line.length) !== -1) return undefined;
	const next = runsAfter(was, line, deps, diff, codes);
	if (next === undefined) return undefined;
	remember(next, index);
	return (next.body + next.close).trimEnd();
}

/**
 * `was` continued over the rest of `line`, as `buildRunRow` reads it: each run of text in the styles the
 * codes before it leave, after the codes styledCharsToString writes between the previous run's styles
 * and its own (none between equal styles, so a run that goes on, or one in the same styles after a
 * code, is the same string as the merged run). Undefined where `buildRunRow` would decline: a code it
 * does not read, a run after a code starting at or above U+0300.
 */
function runsAfter(
	was: RunRow,
	line: string,
	deps: OutputDeps,
	diff: NonNullable<OutputDeps["diffAnsiCodes"]>,
	codes: NonNullable<OutputDeps["ansiCodesToString"]>,
): RunRow | undefined {
	let { body, last } = was;
	let styles = was.final;
	let afterCode = !was.endsInText;
	let at = was.line.length;
	let next = line.indexOf("\x1b", at);
	if (next === -1) next = line.length;
	for (;;) {
		if (next > at) {
			if (afterCode && line.charCodeAt(at) >= 0x300) return undefined;
			if (styles !== last && !sameStyles(last, styles)) {
				body += codes(diff(last, styles));
				last = styles;
			}
			body += line.slice(at, next);
			afterCode = false;
		}
		if (next === line.length) break;
		if (!deps.tokenize || !deps.reduceAnsiCodesIncremental) return undefined;
		SGR_AT.lastIndex = next;
		if (!SGR_AT.test(line)) return undefined;
		styles = deps.reduceAnsiCodesIncremental(styles, sgrTokensOf(line.slice(next, SGR_AT.lastIndex), deps.tokenize));
		afterCode = true;
		at = SGR_AT.lastIndex;
		next = line.indexOf("\x1b", at);
		if (next === -1) next = line.length;
	}
	const close = last === was.last ? was.close : codes(diff(last, NO_STYLES));
	return { ...was, line, body, last, final: styles, endsInText: !afterCode, close };
}

/** The same row for unstyled one-cell pieces, without tokenising: Ink's string is then the characters. */
function buildPlainRow(width: number, pieces: Array<{ x: number; line: string }>): string {
	const chars: Array<string | undefined> = new Array(width).fill(" ");
	for (const { x, line } of pieces) {
		for (let i = 0; i < line.length; i++) chars[x + i] = line[i];
	}
	return chars
		.filter((char) => char !== undefined)
		.join("")
		.trimEnd();
}

type Caches = InkOutput["caches"];
let registered: { deps: OutputDeps; caches: () => Caches; fresh: () => Caches } | undefined;

/** Called by the patched output.js with what its module imports, its shared caches and a maker of new ones. */
export function registerRowDeps(deps: OutputDeps, caches: () => Caches, fresh: () => Caches): void {
	registered = { deps, caches, fresh };
}

/**
 * Builds the rows of one <Static> write (one line per row at x 0, every line fitting `width`) as Ink's
 * Output does for <Static>. A row the live frame drew at x 0 of a frame as wide (the streaming tail's
 * rows of a block that just closed) is in the row cache: the same row, not built again. Others are built
 * with caches of their own and stay out of the row cache (drawn once). Undefined on Ink as installed.
 */
export function staticRows(width: number, lines: readonly string[]): string[] | undefined {
	const r = registered;
	if (!r) return undefined;
	let out: InkOutput | undefined;
	return lines.map((line) => {
		const cached = rowCache.get(`${width}|0,${line.length}:${line}`);
		if (cached !== undefined) return cached;
		out ??= { caches: r.fresh(), width } as InkOutput;
		return buildRow(out, r.deps, [{ x: 0, line }]);
	});
}

/**
 * Builds rows the way `renderOutput` does for a row holding one write of one line at `x`, for the live
 * frame writer (live-frame.ts), with the same row cache. Undefined on Ink as installed (nothing registered).
 */
export function rowBuilder(): { row(width: number, x: number, line: string): string; widestLine(text: string): number } | undefined {
	const r = registered;
	if (!r) return undefined;
	const caches = r.caches();
	const out = { caches } as InkOutput;
	return {
		row(width, x, line) {
			const key = `${width}|${x},${line.length}:${line}`;
			let built = rowCache.get(key);
			if (built === undefined) {
				out.width = width;
				built = buildRow(out, r.deps, [{ x, line }]);
				if (rowCache.size > MAX_CACHED_ROWS) rowCache = new Map();
				rowCache.set(key, built);
			}
			return built;
		},
		widestLine: (text) => caches.getWidestLine(text),
	};
}
