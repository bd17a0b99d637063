// One closed markdown block as styled rows wrapped to a width: headings, paragraphs with emphasis, code
// spans and links, lists with hanging indents, quotes, rules, fenced code (coloured when highlight.js has
// loaded) and anything else as its raw text. Pure (its last answer remembered); the streaming tail
// renders the open block each frame, history renders each block once when it closes.
import { Marked, type Token, type Tokens } from "marked";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import {
	type Line,
	mergeStyle,
	prefixLines,
	type Segment,
	type Style,
	segmentsWidth,
	withStyle,
	wrapSegments,
} from "../text/styled-text.js";
import { color, theme } from "../text/theme.js";
import { codeRows } from "./code-rows.js";
import { highlightCode, highlighterLoaded } from "./highlight.js";
import { renderTable } from "./table.js";

/**
 * marked with two of its block rules asked only when they can match: every HTML block starts with "<"
 * after at most three spaces, and a setext heading needs a line of "=" or "-" under it. Their regexes
 * ran at every block start of the streaming tail, every frame (a third of the tail's lexing); `undefined`
 * is "no such block here", `false` lets marked's own rule decide. Same tokens as marked's defaults
 * (test/tui/markdown/render-markdown.test.ts compares them on random sources).
 */
let markdown: Marked | undefined;
// Made on first use, not at load: the bundle runs marked's script then (bin/load-bundle.js), after the
// first frame, which has no markdown to draw.
const parser = (): Marked =>
	(markdown ??= new Marked({
		tokenizer: {
			html: (src: string) => (HTML_START.test(src) ? false : undefined),
			lheading: (src: string) => (SETEXT_UNDERLINE.test(src) ? false : undefined),
		},
	}));
const HTML_START = /^ {0,3}</;
const SETEXT_UNDERLINE = /\n {0,3}[=-]/;

/** Block tokens of `source` (sanitised), as marked's `lexer` gives them. */
export const lexMarkdown = (source: string): Token[] => parser().lexer(source);

const CODE_INDENT: Segment[] = [{ text: "  " }];
const RULE_WIDTH = 20;

/** Inline tokens → segments, each carrying `style` under its own. */
function renderInline(tokens: Token[] | undefined, style: Style | undefined): Segment[] {
	if (!tokens) return [];
	const out: Segment[] = [];
	for (const t of tokens) {
		switch (t.type) {
			case "strong":
				out.push(...renderInline((t as Tokens.Strong).tokens, mergeStyle(style, { bold: true })));
				break;
			case "em":
				out.push(...renderInline((t as Tokens.Em).tokens, mergeStyle(style, { italic: true })));
				break;
			case "del":
				out.push(...renderInline((t as Tokens.Del).tokens, mergeStyle(style, { strikethrough: true })));
				break;
			case "codespan":
				out.push({ text: sanitizeTerminalText((t as Tokens.Codespan).text), style: mergeStyle(style, { color: color(theme.code) }) });
				break;
			case "link": {
				const link = t as Tokens.Link;
				out.push(...renderInline(link.tokens, mergeStyle(style, { color: color(theme.link), underline: true })));
				// The URL is printed, never turned into an OSC 8 hyperlink: what you see is where it goes.
				if (link.text !== link.href) out.push({ text: ` (${sanitizeTerminalText(link.href)})`, style });
				break;
			}
			case "br":
				out.push({ text: "\n", style });
				break;
			case "text": {
				const text = t as Tokens.Text;
				if (text.tokens?.length) out.push(...renderInline(text.tokens, style));
				else out.push({ text: sanitizeTerminalText(text.text), style });
				break;
			}
			default:
				out.push({ text: sanitizeTerminalText("text" in t && typeof t.text === "string" ? t.text : t.raw), style });
		}
	}
	return out;
}

/** Fence languages that only say "no language": a label row for them reads as a stray code line. */
const PLAIN_LANGUAGES = new Set(["text", "txt", "plain", "plaintext"]);

/** The label row(s) of a fence's info string, or none for no language; the last one remembered (every frame of an open fence asks). */
let lastLabel: { lang: string; width: number; rows: readonly Line[] } | undefined;
function labelRows(lang: string, width: number): readonly Line[] {
	if (lastLabel?.lang === lang && lastLabel.width === width) return lastLabel.rows;
	const named = lang !== "" && !PLAIN_LANGUAGES.has(lang.toLowerCase());
	const rows = named
		? wrapSegments([{ text: sanitizeTerminalText(lang), style: { dim: true } }], width, {
				firstPrefix: CODE_INDENT,
				restPrefix: CODE_INDENT,
			})
		: [];
	lastLabel = { lang, width, rows };
	return rows;
}

function renderCode(info: string | undefined, text: string, width: number): Line[] {
	const source = sanitizeTerminalText(text);
	const label = labelRows(info?.trim() ?? "", width);
	return codeRows(highlightCode(source, info?.split(/\s/)[0]) ?? [{ text: source }], width, [...label]);
}

function renderList(list: Tokens.List, width: number): Line[] {
	const start = typeof list.start === "number" ? list.start : 1;
	const rows: Line[] = [];
	list.items.forEach((item, i) => {
		const marker = list.ordered ? `${start + i}. ` : "• ";
		const hanging = " ".repeat(marker.length);
		const body = renderBlocks(item.tokens, Math.max(1, width - marker.length));
		rows.push(...prefixLines(body.length ? body : [[]], [{ text: marker }], [{ text: hanging }]));
	});
	return rows;
}

function renderBlock(t: Token, width: number): Line[] {
	switch (t.type) {
		case "heading": {
			const h = t as Tokens.Heading;
			const style: Style = { bold: true, color: color(theme.heading) };
			const hashes: Segment[] = h.depth <= 2 ? [] : [{ text: `${"#".repeat(h.depth)} `, style }];
			return wrapSegments([...hashes, ...renderInline(h.tokens, style)], width);
		}
		case "paragraph":
			return wrapSegments(renderInline((t as Tokens.Paragraph).tokens, undefined), width);
		case "code":
			return renderCode((t as Tokens.Code).lang, (t as Tokens.Code).text, width);
		case "list":
			return renderList(t as Tokens.List, width);
		case "blockquote": {
			const bar: Segment[] = [{ text: "  │ ", style: { dim: true } }];
			const inner = renderBlocks((t as Tokens.Blockquote).tokens, Math.max(1, width - segmentsWidth(bar)));
			return prefixLines(withStyle(inner, { dim: true }), bar, bar);
		}
		case "hr":
			return [[{ text: "─".repeat(Math.max(1, Math.min(RULE_WIDTH, width))), style: { dim: true } }]];
		case "table":
			return renderTable(t as Tokens.Table, width, (tokens, header) => renderInline(tokens, header ? { bold: true } : undefined));
		case "space":
			return [];
		case "text": {
			const text = t as Tokens.Text;
			return wrapSegments(text.tokens ? renderInline(text.tokens, undefined) : [{ text: sanitizeTerminalText(text.text) }], width);
		}
		default:
			// HTML and anything else: the source as written.
			return wrapSegments([{ text: sanitizeTerminalText(t.raw.replace(/\n+$/, "")) }], width, { keepIndent: true });
	}
}

function renderBlocks(tokens: Token[], width: number): Line[] {
	return tokens.flatMap((t) => renderBlock(t, width));
}

/** An unindented opening fence line: its marker and info string (a backtick fence's has no backtick). */
const OPEN_FENCE = /^(?:(`{3,})([^`\n]*)|(~{3,})([^\n]*))(?:\n|$)/;
/** A line that could close a fence (or is one): more than marked's closing rule takes. */
const FENCE_LINE = /\n {0,3}(?:`{3,}|~{3,})/;

/**
 * The language and code marked gives a source that is one open fence: an unindented opening line and
 * no line that could close it, no carriage return, no backslash in the info string (marked unescapes
 * it), and no newline at the end. That is the streaming tail of every code block, each frame; its lex
 * was a tenth of a code frame. Anything else is undefined (marked decides); the property test in
 * test/tui/markdown/render-markdown.test.ts compares this with marked's token on random fences.
 */
export function openFence(source: string): { lang: string; text: string } | undefined {
	const open = OPEN_FENCE.exec(source);
	if (!open || source.endsWith("\n") || source.includes("\r") || FENCE_LINE.test(source)) return undefined;
	const info = open[2] ?? open[4];
	if (info.includes("\\")) return undefined;
	const nl = source.indexOf("\n");
	// marked's text: the lines after the opening one, "" when there are none.
	return { lang: info.trim(), text: nl === -1 ? "" : source.slice(nl + 1) };
}

/**
 * One line of prose that marked lexes as a paragraph of one text token: a letter first, after at most
 * three spaces (kept in the text, as marked keeps them; not a list
 * marker, heading, fence, quote, HTML or indented code), then letters, digits, spaces and punctuation
 * no inline rule starts at (no "*", "_", "`", "~", "[", "!", "<", "&", "\\", "@", "/"), and no "www" (a
 * gfm autolink). The tail's open paragraph, most frames of prose; marked's lex of it was half the frame.
 */
const PLAIN_LINE = /^ {0,3}[A-Za-z][A-Za-z0-9 ,.;:?'"()-]*$/;
export const isPlainLine = (source: string): boolean => PLAIN_LINE.test(source) && !/www/i.test(source);

const PLAIN_ITEM = /^- {1,4}(?=[A-Za-z])/;

/**
 * A tight bullet list of plain lines ("- " and one to four spaces, then a plain line), after at most
 * one plain line of paragraph, no line ending in a space: the lines' texts (the paragraph's first, or
 * undefined), or undefined when the source is anything else. marked gives a paragraph of one text token
 * and a list whose items hold one text token each; its list tokenizer was most of such a frame.
 */
export function plainList(source: string): { lead: string | undefined; items: string[] } | undefined {
	const lines = source.split("\n");
	let lead: string | undefined;
	let from = 0;
	if (!PLAIN_ITEM.test(lines[0])) {
		if (!isPlainLine(lines[0]) || lines[0].endsWith(" ")) return undefined;
		lead = lines[0];
		from = 1;
	}
	if (from >= lines.length) return undefined;
	const items: string[] = [];
	for (let i = from; i < lines.length; i++) {
		const bullet = PLAIN_ITEM.exec(lines[i]);
		const text = bullet && lines[i].slice(bullet[0].length);
		if (!text || !isPlainLine(text) || text.endsWith(" ")) return undefined;
		items.push(text);
	}
	return { lead, items };
}

const plainRows = (text: string, width: number): Line[] => wrapSegments([{ text: sanitizeTerminalText(text), style: undefined }], width);

/** A plain list item's rows, as renderList draws the item marked gives. */
function itemRows(item: string, width: number): Line[] {
	const body = plainRows(item, Math.max(1, width - 2));
	return prefixLines(body.length ? body : [[]], [{ text: "• " }], [{ text: "  " }]);
}

interface ListLines {
	width: number;
	lead: string | undefined;
	leadRows: Line[];
	items: string[];
	itemRows: Line[][];
}
/**
 * The last plain list drawn. Each frame of an open list draws its lead and every item but the last
 * as the frame before did (rows depend only on a line's text and the width), so those are taken from it.
 */
let lastList: ListLines = { width: 0, lead: undefined, leadRows: [], items: [], itemRows: [] };
let reusedItems = 0;
/** How many list items were taken from the list drawn before so far (for its test). */
export const reusedListItems = (): number => reusedItems;

function plainListRows(list: { lead: string | undefined; items: string[] }, width: number): Line[] {
	const before = lastList.width === width ? lastList : undefined;
	const { lead, items } = list;
	const leadRows = lead === undefined ? [] : before?.lead === lead ? before.leadRows : plainRows(lead, width);
	const rows = [...leadRows];
	const perItem: Line[][] = [];
	for (let i = 0; i < items.length; i++) {
		const same = before !== undefined && before.items[i] === items[i];
		if (same) reusedItems++;
		const item = same ? before.itemRows[i] : itemRows(items[i], width);
		perItem.push(item);
		for (const row of item) rows.push(row);
	}
	lastList = { width, lead, leadRows, items, itemRows: perItem };
	return rows;
}

/** What renderBlocks gives for the tokens of `source` (sanitised), without lexing the cases above. */
function renderSource(source: string, width: number): Line[] {
	if (isPlainLine(source)) return plainRows(source, width);
	const fence = openFence(source);
	if (fence) return renderCode(fence.lang, fence.text, width);
	const list = plainList(source);
	if (list) return plainListRows(list, width);
	return renderBlocks(lexMarkdown(source), width);
}

/** renderMarkdown's rows through marked alone (for the test of the shortcuts). */
export const markedRows = (source: string, width: number): Line[] => renderBlocks(lexMarkdown(sanitizeTerminalText(source)), width);

let last: { source: string; width: number; coloured: boolean; lines: readonly Line[] } | undefined;

/**
 * A block of assistant markdown as rows of at most `width` cells. The last answer is remembered: a block
 * that closes (or a reply that ends) after the tail last drew it is the source the tail just rendered,
 * so history prints the tail's rows instead of lexing and wrapping the block again. Not across the load
 * of highlight.js, which colours code blocks from then on.
 */
export function renderMarkdown(source: string, width: number): readonly Line[] {
	const coloured = highlighterLoaded();
	if (last && last.source === source && last.width === width && last.coloured === coloured) return last.lines;
	const lines = renderSource(sanitizeTerminalText(source), width);
	last = { source, width, coloured, lines };
	return lines;
}
