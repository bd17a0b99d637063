// The reply text every mock streams: seeded, so each app gets the same bytes; non-periodic, so Gemini CLI's
// loop detector (a 50-character chunk repeated 10 times) never cuts a reply short.

/** Deterministic text: ~4.4 characters per token, paragraphs, some lists and code. */
export function* tokenStream(count, seed = 42) {
	let s = seed >>> 0;
	const rand = () => {
		s = (s * 1664525 + 1013904223) >>> 0;
		return s / 2 ** 32;
	};
	const words = [
		"the",
		"agent",
		"runs",
		"a",
		"tool",
		"and",
		"you",
		"steer",
		"it",
		"frame",
		"of",
		"text",
		"to",
		"queue",
		"is",
		"model",
		"row",
		"diff",
		"code",
		"in",
	];
	let inCode = false;
	for (let i = 0; i < count; i++) {
		const r = rand();
		let tok = (i % 12 === 0 ? "" : " ") + words[Math.floor(rand() * words.length)];
		if (r < 0.015) tok = inCode ? "\n```\n\n" : "\n\n```ts\n";
		if (r < 0.015) inCode = !inCode;
		else if (r < 0.05) tok += ".\n\n";
		else if (r < 0.07) tok += "\n- ";
		yield tok;
	}
	if (inCode) yield "\n```\n";
}
