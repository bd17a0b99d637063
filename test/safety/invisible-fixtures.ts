import fc from "fast-check";
import { INVISIBLE_RANGES } from "../../src/safety/invisible.js";

/** Every code point the sanitiser and the json escaping must mark, in table order. */
export const INVISIBLE_CODE_POINTS: number[] = INVISIBLE_RANGES.flatMap(([first, last]) =>
	Array.from({ length: last - first + 1 }, (_, i) => first + i),
);

/** The issue's examples: variation selectors, tags past U+E0080, CGJ, Khmer, Mongolian, Hangul fillers. */
export const ISSUE_EXAMPLES = [
	0xfe00, 0xfe0e, 0xfe0f, 0xe0100, 0xe01ef, 0xe0080, 0xe0fff, 0x034f, 0x17b4, 0x180b, 0x180f, 0x2065, 0x115f, 0x1160, 0x3164, 0xffa0,
];

/** Any one invisible code point, drawn from the whole table. */
export const anyInvisible = fc.constantFrom(...INVISIBLE_CODE_POINTS).map((cp) => String.fromCodePoint(cp));

const isInvisible = (cp: number): boolean => INVISIBLE_RANGES.some(([first, last]) => cp >= first && cp <= last);
const isEmoji = /^\p{Emoji}$/u;

/** Ordinary letters of any script (no controls, no invisible, no emoji characters): nothing to mark. */
export const ordinaryChar = fc
	.integer({ min: 0x20, max: 0x10ffff })
	.filter(
		(cp) =>
			!(cp >= 0x7f && cp <= 0x9f) &&
			// Line and paragraph separators: json lines escape them (JavaScript reads them as line breaks).
			cp !== 0x2028 &&
			cp !== 0x2029 &&
			!(cp >= 0xd800 && cp <= 0xdfff) &&
			!isInvisible(cp) &&
			!isEmoji.test(String.fromCodePoint(cp)) &&
			!(cp >= 0x1f3fb && cp <= 0x1f3ff),
	)
	.map((cp) => String.fromCodePoint(cp));

/** Emoji whose ZWJ and VS15/VS16 draw as part of the glyph. */
export const EMOJI_SEQUENCES = ["👨‍👩‍👧", "👋🏽‍❤️", "🏳️‍🌈", "🏴‍☠️", "👁️‍🗨️", "🧑🏿‍💻", "❤️", "#️⃣", "☺︎", "©️", "🧑‍🦰"];

/** Ordinary text with valid emoji sequences between words: must pass untouched. */
export const ordinaryText = fc
	.array(fc.oneof(ordinaryChar, fc.constantFrom(...EMOJI_SEQUENCES.map((e) => ` ${e} `)), fc.constant("\n")), { maxLength: 40 })
	.map((parts) => parts.join(""));
