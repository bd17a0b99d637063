// Width and grapheme clusters of text made only of characters that are each their own cluster and whose
// width is their East Asian Width: ASCII, Latin, Greek, Cyrillic, punctuation, arrows, symbols, box
// drawing, braille, CJK. The packages under Ink that measure and split text are patched
// (src/tui/ink/startup/patches.ts) to ask this first, because their general path (Intl.Segmenter, and
// string-width's /\p{RGI_Emoji}/v regex) costs 20-90 ms to set up on first use, and the first frame
// already has "›" and "·" in it. test/tui/text/plain-text.test.ts checks every code point of
// RANGES against the installed packages; anything else (marks, emoji, Hangul, CR) goes their own way.

type EastAsianWidth = (codePoint: number, options?: { ambiguousAsWide?: boolean }) => number;

/** Inclusive [first, last] code point ranges, sorted; printable ASCII is handled before the table. */
export const RANGES: readonly (readonly [number, number])[] = [
	[0x00a0, 0x00ac], // Latin-1 (U+00AD, the soft hyphen, is a format character: width 0)
	[0x00ae, 0x02ff], // Latin-1, Latin Extended-A/B, IPA, spacing modifiers (combining marks start at U+0300)
	[0x0370, 0x0482], // Greek, Cyrillic (U+0483–U+0489 combine)
	[0x048a, 0x052f],
	[0x2010, 0x2027], // dashes, quotes, bullets, ellipsis
	[0x2030, 0x205e], // per mille, primes, ‼ ⁉ …
	[0x20a0, 0x20c0], // currency
	[0x2100, 0x218b], // letterlike, number forms
	[0x2190, 0x23ff], // arrows, mathematical operators, technical
	[0x2400, 0x2426],
	[0x2440, 0x244a],
	[0x2460, 0x27ff], // enclosed alphanumerics, box drawing, blocks, shapes, symbols, dingbats
	[0x2800, 0x2bff], // braille (spinners), arrows, mathematical symbols
	[0x3000, 0x3029], // CJK punctuation (U+302A–U+302F combine)
	[0x3030, 0x303f],
	[0x3041, 0x3096], // hiragana (U+3099–U+309A combine)
	[0x309b, 0x30ff], // katakana
	[0x4e00, 0x9fff], // CJK unified ideographs
	[0xff01, 0xff60], // fullwidth forms (the halfwidth ones after U+FF60 can join a cluster)
];

// Emoji (even text-presentation ones such as © and ↔) are left to the packages: string-width 7 counts
// them as 2 columns, 8 as 1, and a following U+FE0F changes that.
const PICTOGRAPHIC = /[\p{Extended_Pictographic}\p{Emoji}]/u;

function inRanges(code: number): boolean {
	let low = 0;
	let high = RANGES.length - 1;
	while (low <= high) {
		const mid = (low + high) >> 1;
		const [first, last] = RANGES[mid];
		if (code < first) high = mid - 1;
		else if (code > last) low = mid + 1;
		else return true;
	}
	return false;
}

/** Columns `text` takes, or -1 when it holds a character outside the table (the caller's own path decides). */
export function plainWidth(text: string, eastAsianWidth: EastAsianWidth, options?: { ambiguousAsWide?: boolean }): number {
	let width = 0;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code >= 0x20 && code <= 0x7e) width++;
		else if (inRanges(code) && !PICTOGRAPHIC.test(text[i])) width += eastAsianWidth(code, options);
		else return -1;
	}
	return width;
}

/** True when every character of `text` is a grapheme cluster of its own (CR can join a following LF). */
export function standalone(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x80 ? code === 0x0d : !inRanges(code) || PICTOGRAPHIC.test(text[i])) return false;
	}
	return true;
}

interface Segment {
	segment: string;
	index: number;
	input: string;
}

/** What `Intl.Segmenter#segment` returns, for standalone text: one segment per UTF-16 unit. */
class CharSegments implements Iterable<Segment> {
	constructor(private readonly input: string) {}
	containing(index = 0): Segment | undefined {
		const at = Math.trunc(index);
		return at >= 0 && at < this.input.length ? { segment: this.input[at], index: at, input: this.input } : undefined;
	}
	*[Symbol.iterator](): Iterator<Segment> {
		for (let index = 0; index < this.input.length; index++) yield { segment: this.input[index], index, input: this.input };
	}
}

/**
 * A grapheme segmenter that splits standalone text itself and builds the real one (options as given)
 * only for other text.
 */
export function plainSegmenter(options?: Intl.SegmenterOptions): { segment(text: string): Iterable<Segment> } {
	let real: Intl.Segmenter | undefined;
	return {
		segment(text) {
			if (standalone(text)) return new CharSegments(text);
			real ??= new Intl.Segmenter(undefined, options);
			return real.segment(text);
		},
	};
}
