// A matcher as Claude Code reads it: empty or "*" matches everything; names and `|` only ("Edit|Write")
// match those names exactly; anything else is a regular expression tested against the name (not
// anchored, so "Notebook.*" or "mcp__github" match as they do there). Case-sensitive.

export type Matcher = (names: readonly string[]) => boolean;

const EVERYTHING: Matcher = () => true;
const PLAIN_NAMES = /^[A-Za-z0-9_|]+$/;

/** The compiled matcher, or a one-line problem when it is not a valid regular expression. */
export function compileMatcher(text: string): { matcher: Matcher } | { problem: string } {
	if (text === "" || text === "*") return { matcher: EVERYTHING };
	if (PLAIN_NAMES.test(text)) {
		const names = new Set(text.split("|").filter(Boolean));
		return { matcher: (candidates) => candidates.some((c) => names.has(c)) };
	}
	try {
		const pattern = new RegExp(text);
		return { matcher: (candidates) => candidates.some((c) => pattern.test(c)) };
	} catch (error) {
		return { problem: `is not a valid regular expression (${(error as Error).message})` };
	}
}

/** Compiled once per text: a PreToolUse hook's matcher is tested on every tool call. */
const compiledByText = new Map<string, Matcher>();

/** For a matcher checked when the configuration was read; an invalid one matches nothing. */
export function matches(text: string, names: readonly string[]): boolean {
	let matcher = compiledByText.get(text);
	if (!matcher) {
		const compiled = compileMatcher(text);
		matcher = "matcher" in compiled ? compiled.matcher : () => false;
		compiledByText.set(text, matcher);
	}
	return matcher(names);
}
