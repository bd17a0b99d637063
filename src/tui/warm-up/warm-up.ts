// The start-up patches (README.md here) move the set-up of text measuring for non-plain text (the RGI
// emoji regex, string-width 7's emoji regex in wrap-ansi, ICU's break data for Intl.Segmenter) from
// load to first use. Left at that, the first frame that draws such text pays 30–50 ms — and that frame
// is often one a user waits for (Esc's "Aborted" line measured 13 → 58 ms). Doing it once while the
// app is idle after its first frame keeps both launch and that frame fast.
import stringWidth from "string-width";
import wrapAnsi from "wrap-ansi";
import { partText, staticRows } from "../ink/index.js";
import { renderMarkdown } from "../markdown/render-markdown.js";
import { tailAnsiRows } from "../transcript/StreamingMessage.js";

/** Text with a wide character, an emoji and a combining mark: every lazily built path runs once. */
const MIXED = "✓ é 😀 表 e\u0301 ⟪U+202E⟫";

export function warmTextMeasuring(): void {
	stringWidth(MIXED);
	wrapAnsi(MIXED, 6, { hard: true });
	for (const _ of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(MIXED));
}

/**
 * A short reply in the shapes replies take (paragraphs, emphasis, a list, a fenced block), so that
 * the markdown lexer's and highlight.js's regular expressions are compiled before the first reply.
 */
const REPLY = [
	"Here is **the plan**: read `src/app.ts`, then [the docs](https://example.com).",
	"",
	"- one step",
	"- and *another*",
	"",
	"1. first",
	"",
	"> a quote",
	"",
	"## A heading",
	"",
	"```ts",
	'const answer: number = 42; // "why"',
	"```",
	"",
].join("\n");

/**
 * Renders REPLY once and throws the rows away. The first markdown render of a process costs ~40 ms
 * (V8 compiles a regular expression on its first match, and no code cache holds those), which would
 * otherwise land on the first reply's first finished block. Then the rest of a frame's path runs once
 * on those rows, as the streaming tail gives them: its ANSI rows (with a thinking row), the part's
 * text and Ink's row building (`staticRows`: caches of its own, none of its rows kept), so their
 * first-use cost (baseline code, inline caches: nothing a code cache holds) is not the first reply's.
 */
export function warmReplyRendering(): void {
	renderMarkdown(REPLY, 80);
	const rows = tailAnsiRows({ text: REPLY, thinking: "a **thought**", textOpen: true }, 80, 40);
	partText(rows);
	staticRows(80, rows);
}

/** How long the keyboard must rest before the reply rendering is warmed. */
export const INPUT_PAUSE_MS = 150;

/**
 * Runs `warm` once the keyboard has rested for `pauseMs` (`lastInputAt()`: the time of the last key):
 * the ~40 ms it blocks then falls between keystrokes, not under one.
 */
export function whenInputPauses(lastInputAt: () => number, warm: () => void, pauseMs = INPUT_PAUSE_MS): void {
	const check = () => {
		const quiet = Date.now() - lastInputAt();
		if (quiet >= pauseMs) warm();
		else setTimeout(check, pauseMs - quiet).unref?.();
	};
	check();
}

/** What `prepareForReply` runs, and what it asks. */
export interface ReplyPreparation {
	/** The time of the last key. */
	lastInputAt: () => number;
	/** Loads what rendering needs first (the highlighter). */
	loadRendering: () => Promise<void>;
	/** `warmReplyRendering`. */
	warmRendering: () => void;
	/** The session's transport warm-up, if it has one; its failure is its own business. */
	warmTransport?: () => Promise<void>;
	/** Whether the session is idle (no reply to slow down). */
	idle: () => boolean;
	/** `collectGarbage`. */
	collect: () => void;
}

/**
 * The first reply's preparation, once the user starts typing: the rendering warm-up at a pause in
 * typing, the transport's meanwhile, and when both are done, at the next pause and only while the
 * session is idle, one full collection of the garbage they and start-up left (collect-garbage.ts).
 */
export async function prepareForReply(steps: ReplyPreparation, pauseMs = INPUT_PAUSE_MS): Promise<void> {
	const pause = () => new Promise<void>((rested) => whenInputPauses(steps.lastInputAt, rested, pauseMs));
	const rendering = steps
		.loadRendering()
		.then(pause)
		.then(() => steps.warmRendering());
	const transport = steps.warmTransport?.().catch(() => {});
	await Promise.all([rendering, transport]);
	await pause();
	if (steps.idle()) steps.collect();
}
