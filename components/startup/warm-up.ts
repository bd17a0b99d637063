// The start-up patches (README.md here) move the set-up of text measuring for non-plain text (the RGI
// emoji regex, string-width 7's emoji regex in wrap-ansi, ICU's break data for Intl.Segmenter) from
// load to first use. Left at that, the first frame that draws such text pays 30–50 ms — and that frame
// is often one a user waits for (Esc's "Aborted" line measured 13 → 58 ms). Doing it once while the
// app is idle after its first frame keeps both launch and that frame fast.
import stringWidth from "string-width";
import wrapAnsi from "wrap-ansi";

/** Text with a wide character, an emoji and a combining mark: every lazily built path runs once. */
const MIXED = "✓ é 😀 表 e\u0301 ⟪U+202E⟫";

export function warmTextMeasuring(): void {
	stringWidth(MIXED);
	wrapAnsi(MIXED, 6, { hard: true });
	for (const _ of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(MIXED));
}
