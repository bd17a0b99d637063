// The input's text model, pure: a string, a cursor (a UTF-16 index into it) and the pastes hidden
// behind placeholders. Every edit returns a new state; `use-editor.ts` holds it in React.
import { plainSegmenter } from "../text/plain-text.js";

export interface EditorState {
	text: string;
	cursor: number;
	/** Placeholder text → pasted content, expanded on submit. */
	pastes: ReadonlyMap<string, string>;
	/** Numbering of `[paste #N +L lines]`, never reused within one input. */
	pasteCount: number;
}

/** A paste longer than this many lines is shown as a placeholder. */
export const PASTE_PLACEHOLDER_LINES = 10;

export const emptyEditor = (text = ""): EditorState => ({ text, cursor: text.length, pastes: new Map(), pasteCount: 0 });

export function insertText(s: EditorState, input: string): EditorState {
	const clean = input.replace(/\r\n?/g, "\n");
	return { ...s, text: s.text.slice(0, s.cursor) + clean + s.text.slice(s.cursor), cursor: s.cursor + clean.length };
}

/** A bracketed paste: small ones go in as text, big ones behind `[paste #N +L lines]`. */
export function insertPaste(s: EditorState, pasted: string): EditorState {
	const clean = pasted.replace(/\r\n?/g, "\n");
	const lines = clean.split("\n").length;
	if (lines <= PASTE_PLACEHOLDER_LINES) return insertText(s, clean);
	const n = s.pasteCount + 1;
	const placeholder = `[paste #${n} +${lines} lines]`;
	const pastes = new Map(s.pastes);
	pastes.set(placeholder, clean);
	return { ...insertText(s, placeholder), pastes, pasteCount: n };
}

/** The text to send: placeholders replaced by what was pasted. */
export function expandPastes(s: EditorState): string {
	let out = s.text;
	for (const [placeholder, content] of s.pastes) out = out.split(placeholder).join(content);
	return out;
}

const isWord = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);

function wordStartBefore(text: string, i: number): number {
	while (i > 0 && !isWord(text[i - 1])) i--;
	while (i > 0 && isWord(text[i - 1])) i--;
	return i;
}

function wordEndAfter(text: string, i: number): number {
	while (i < text.length && !isWord(text[i])) i++;
	while (i < text.length && isWord(text[i])) i++;
	return i;
}

// Splits plain text itself: a real Intl.Segmenter, built on first other text, loads ICU's break data
// (~12 ms of start-up otherwise: src/tui/ink/startup/README.md).
const graphemes = plainSegmenter({ granularity: "grapheme" });
/** Longest grapheme we look at around the cursor (a family emoji with skin tones is about 20 units). */
const GRAPHEME_WINDOW = 32;

/**
 * Length of the character (grapheme: a code point with its combining marks, an emoji ZWJ sequence)
 * ending at `i`, 0 at the start: the cursor never lands inside one, and never before 0. Only a short
 * window before `i` is segmented, so the cost does not grow with the text.
 */
export function charBefore(text: string, i: number): number {
	if (i <= 0) return 0;
	let last = 0;
	for (const { segment } of graphemes.segment(text.slice(Math.max(0, i - GRAPHEME_WINDOW), i))) last = segment.length;
	return last;
}

/** Length of the character starting at `i`, 0 at the end. */
export function charAt(text: string, i: number): number {
	if (i >= text.length) return 0;
	for (const { segment } of graphemes.segment(text.slice(i, i + GRAPHEME_WINDOW))) return segment.length;
	return 0;
}

export function moveLeft(s: EditorState): EditorState {
	return s.cursor === 0 ? s : { ...s, cursor: s.cursor - charBefore(s.text, s.cursor) };
}

export function moveRight(s: EditorState): EditorState {
	return s.cursor >= s.text.length ? s : { ...s, cursor: s.cursor + charAt(s.text, s.cursor) };
}

export const moveWordLeft = (s: EditorState): EditorState => ({ ...s, cursor: wordStartBefore(s.text, s.cursor) });
export const moveWordRight = (s: EditorState): EditorState => ({ ...s, cursor: wordEndAfter(s.text, s.cursor) });

export function moveHome(s: EditorState): EditorState {
	return { ...s, cursor: s.text.lastIndexOf("\n", s.cursor - 1) + 1 };
}

export function moveEnd(s: EditorState): EditorState {
	const nl = s.text.indexOf("\n", s.cursor);
	return { ...s, cursor: nl === -1 ? s.text.length : nl };
}

/** A cursor moved by a column count may land between the halves of a surrogate pair: step back. */
function onBoundary(text: string, i: number): number {
	const code = text.charCodeAt(i);
	return code >= 0xdc00 && code <= 0xdfff && i > 0 ? i - 1 : i;
}

/** Moves to the line above or below, keeping the column; undefined when there is no such line. */
export function moveLine(s: EditorState, direction: -1 | 1): EditorState | undefined {
	const lineStart = s.text.lastIndexOf("\n", s.cursor - 1) + 1;
	const column = s.cursor - lineStart;
	if (direction === -1) {
		if (lineStart === 0) return undefined;
		const prevStart = s.text.lastIndexOf("\n", lineStart - 2) + 1;
		return { ...s, cursor: onBoundary(s.text, Math.min(prevStart + column, lineStart - 1)) };
	}
	const nextNl = s.text.indexOf("\n", s.cursor);
	if (nextNl === -1) return undefined;
	const afterNext = s.text.indexOf("\n", nextNl + 1);
	const nextEnd = afterNext === -1 ? s.text.length : afterNext;
	return { ...s, cursor: onBoundary(s.text, Math.min(nextNl + 1 + column, nextEnd)) };
}

function deleteRange(s: EditorState, from: number, to: number): EditorState {
	if (from >= to) return s;
	return { ...s, text: s.text.slice(0, from) + s.text.slice(to), cursor: from };
}

/** Backspace; a placeholder ending at the cursor goes as a whole, with its paste. */
export function backspace(s: EditorState): EditorState {
	for (const placeholder of s.pastes.keys()) {
		if (s.text.slice(0, s.cursor).endsWith(placeholder)) {
			const pastes = new Map(s.pastes);
			pastes.delete(placeholder);
			return { ...deleteRange(s, s.cursor - placeholder.length, s.cursor), pastes };
		}
	}
	return deleteRange(s, s.cursor - charBefore(s.text, s.cursor), s.cursor);
}

export const deleteForward = (s: EditorState): EditorState => deleteRange(s, s.cursor, s.cursor + charAt(s.text, s.cursor));
export const deleteWordBack = (s: EditorState): EditorState => deleteRange(s, wordStartBefore(s.text, s.cursor), s.cursor);
export const deleteToLineStart = (s: EditorState): EditorState => deleteRange(s, s.text.lastIndexOf("\n", s.cursor - 1) + 1, s.cursor);
