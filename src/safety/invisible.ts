// Which characters draw as nothing: every Default_Ignorable_Code_Point (from the generated table) plus
// the interlinear annotation controls U+FFF9–U+FFFB, which hide their annotation text the same way. The
// sanitiser and the json escaping both mark them; the one exception is a joiner or a variation selector
// that is part of an emoji, which draws as (part of) a visible glyph.
//
// The patterns are built without the `u` flag, in UTF-16 units, like the other patterns on the per-token
// path: a BMP character class and one alternative per astral range.

import { DEFAULT_IGNORABLE_RANGES } from "./default-ignorable.js";

type Range = readonly [number, number];

/** Not default-ignorable, but invisible all the same: they open, split and close hidden ruby text. */
const ANNOTATION_CONTROLS: Range = [0xfff9, 0xfffb];

export const INVISIBLE_RANGES: readonly Range[] = [...DEFAULT_IGNORABLE_RANGES, ANNOTATION_CONTROLS].sort((a, b) => a[0] - b[0]);

const unit = (code: number): string => `\\u${code.toString(16).padStart(4, "0")}`;
const span = (low: number, high: number): string => (low === high ? unit(low) : `${unit(low)}-${unit(high)}`);
const high = (cp: number): number => 0xd800 + ((cp - 0x10000) >> 10);
const low = (cp: number): number => 0xdc00 + ((cp - 0x10000) & 0x3ff);

/** Class body (no brackets) of the BMP part of `ranges`. */
function bmpClassBody(ranges: readonly Range[]): string {
	return ranges
		.filter(([first]) => first <= 0xffff)
		.map(([first, last]) => span(first, Math.min(last, 0xffff)))
		.join("");
}

/** One alternative per astral range, as a high surrogate followed by its low-surrogate span(s). */
function astralAlternatives(ranges: readonly Range[]): string[] {
	const out: string[] = [];
	for (const [rangeFirst, last] of ranges) {
		const first = Math.max(rangeFirst, 0x10000);
		if (first > last) continue;
		const [h1, h2] = [high(first), high(last)];
		if (h1 === h2) {
			out.push(`${unit(h1)}[${span(low(first), low(last))}]`);
			continue;
		}
		out.push(`${unit(h1)}[${span(low(first), 0xdfff)}]`);
		if (h2 - h1 > 1) out.push(`[${span(h1 + 1, h2 - 1)}][\\udc00-\\udfff]`);
		out.push(`${unit(h2)}[${span(0xdc00, low(last))}]`);
	}
	return out;
}

/**
 * A pattern source (no `u` flag) matching one invisible character, or one of `extraClass` (a class body
 * of BMP characters such as controls): the single units first, then the astral pairs.
 */
export function invisibleSource(extraClass: string): string {
	return [`[${extraClass}${bmpClassBody(INVISIBLE_RANGES)}]`, ...astralAlternatives(INVISIBLE_RANGES)].join("|");
}

/**
 * V8 scans text with one character class of up to about a dozen ranges several times faster than with
 * one of the ~25 ranges here (bench/sanitize.mjs "prose" read 0.5 against 5 µs per KB), so the fast test
 * asks a few small classes in turn.
 */
const RANGES_PER_CLASS = 12;

/** Anything but printable ASCII and newline: every control and invisible character among it. */
const NOT_PLAIN_ASCII = /[^\n\x20-\x7e]/;

/**
 * The fast "anything to do?" test on the per-token path: true for text holding any `extraClass` (a class
 * body of BMP ranges such as controls, none of them printable ASCII or newline, which are let through
 * first) or invisible character. High surrogates of astral ranges stand for
 * their whole block (a false positive only costs the slow path).
 */
export function invisibleFastTest(extraClass: string): (text: string) => boolean {
	const highs: Range[] = INVISIBLE_RANGES.filter(([, last]) => last > 0xffff).map(([first, last]) => [
		high(Math.max(first, 0x10000)),
		high(last),
	]);
	const parts = [
		extraClass,
		...[...INVISIBLE_RANGES.filter(([first]) => first <= 0xffff), ...highs].map(([first, last]) => span(first, Math.min(last, 0xffff))),
	];
	const classes: RegExp[] = [];
	for (let i = 0; i < parts.length; i += RANGES_PER_CLASS) classes.push(new RegExp(`[${parts.slice(i, i + RANGES_PER_CLASS).join("")}]`));
	return (text) => {
		// Printable ASCII and newlines (most tokens, most code) need one scan.
		if (!NOT_PLAIN_ASCII.test(text)) return false;
		for (const pattern of classes) if (pattern.test(text)) return true;
		return false;
	};
}

const ZWJ = 0x200d;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const EMOJI = /^\p{Emoji}$/u;

function isBetween(code: number, lowest: number, highest: number): boolean {
	return code >= lowest && code <= highest;
}

/** Index of the code point that ends just before `at` (the first half of a pair), or -1. */
function previousIndex(text: string, at: number): number {
	const before = at - 1;
	if (before > 0 && isBetween(text.charCodeAt(before), 0xdc00, 0xdfff) && isBetween(text.charCodeAt(before - 1), 0xd800, 0xdbff))
		return before - 1;
	return before;
}

/** A ZWJ between two emoji builds one glyph (👨‍👩‍👧); anywhere else it hides a boundary. */
function joinsEmoji(text: string, at: number): boolean {
	let before = previousIndex(text, at);
	// Skip a variation selector-16 and a skin-tone modifier (U+1F3FB–U+1F3FF) before the joiner.
	if (before >= 0 && text.charCodeAt(before) === 0xfe0f) before = previousIndex(text, before);
	if (before >= 0 && isBetween(text.codePointAt(before) as number, 0x1f3fb, 0x1f3ff)) before = previousIndex(text, before);
	const previous = before >= 0 ? text.codePointAt(before) : undefined;
	const next = text.codePointAt(at + 1);
	if (previous === undefined || next === undefined) return false;
	return PICTOGRAPHIC.test(String.fromCodePoint(previous)) && PICTOGRAPHIC.test(String.fromCodePoint(next));
}

/** VS15/VS16 pick text or emoji presentation of the emoji character just before them (❤️, #️⃣). */
function selectsEmojiPresentation(text: string, at: number): boolean {
	const before = previousIndex(text, at);
	if (before < 0) return false;
	return EMOJI.test(String.fromCodePoint(text.codePointAt(before) as number));
}

/**
 * Whether the invisible character at `at` in `text` is part of a valid emoji sequence and draws as part
 * of its glyph: a ZWJ between two pictographs, or VS15/VS16 right after an emoji character.
 */
export function keptInEmoji(text: string, at: number): boolean {
	const code = text.charCodeAt(at);
	if (code === ZWJ) return joinsEmoji(text, at);
	if (code === 0xfe0e || code === 0xfe0f) return selectsEmojiPresentation(text, at);
	return false;
}
