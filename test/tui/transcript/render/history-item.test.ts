import { describe, expect, it } from "vitest";
import { displayWidth } from "../../../../src/tui/text/text-width.js";
import type { RenderHints } from "../../../../src/tui/transcript/render/hints.js";
import { renderHistoryItem } from "../../../../src/tui/transcript/render/history-item.js";
import type { HistoryItem } from "../../../../src/tui/transcript/session-view.js";

// chalk has no colour level under vitest, so the strings are plain text (styles are tested in styled-text).
const show = (item: HistoryItem, columns = 80, hints?: RenderHints) => renderHistoryItem(item, columns, hints);

describe("renderHistoryItem", () => {
	it("prints a user message after the prompt mark, continuation rows indented, with a blank row above", () => {
		expect(show({ kind: "user", id: 1, text: "hello there" })).toBe("\n› hello there");
		expect(show({ kind: "user", id: 1, text: "one two three four\nfive" }, 12)).toBe("\n› one two\n  three four\n  five");
	});

	it("prints markdown, errors, thinking (its last six lines) and shell output with a blank row above", () => {
		expect(show({ kind: "markdown", id: 1, source: "Some **bold** text" })).toBe("\nSome bold text");
		expect(show({ kind: "error", id: 1, text: "429 Too Many Requests" })).toBe("\nError: 429 Too Many Requests");
		// No answer came: the prompt above is marked failed, with the key that recalls it.
		expect(show({ kind: "error", id: 1, text: "HTTP 500", unanswered: true })).toBe(
			"\n✗ not answered: HTTP 500 · ↑ recalls it to send again",
		);
		expect(show({ kind: "error", id: 1, text: "HTTP 500", unanswered: true }, 80, {})).toBe("\n✗ not answered: HTTP 500");
		const thinking = Array.from({ length: 9 }, (_, i) => `t${i + 1}`).join("\n");
		expect(show({ kind: "thinking", id: 1, text: thinking })).toBe("\n… 3 earlier lines (Ctrl+O to expand)\nt4\nt5\nt6\nt7\nt8\nt9");
		expect(show({ kind: "thinking", id: 1, text: thinking, expanded: true })).toBe(`\n${thinking}`);
		expect(show({ kind: "thinking", id: 1, text: "t1\nt2" })).toBe("\nt1\nt2");
		expect(show({ kind: "shell", id: 1, command: "ls", output: "a\nb\n", exitCode: 2 })).toBe("\n$ ls\na\nb\nexit 2");
		expect(show({ kind: "shell", id: 1, command: "true", output: "", exitCode: 0 })).toBe("\n$ true");
		expect(show({ kind: "shell", id: 1, command: "sleep 9", output: "", exitCode: null, aborted: true })).toBe("\n$ sleep 9\nstopped");
		expect(show({ kind: "shell", id: 1, command: "env", output: "A=1", exitCode: 0, excluded: true })).toBe(
			"\n$ env · not sent to the model\nA=1",
		);
		expect(show({ kind: "tool", id: 1, name: "read", args: { path: "a.ts" }, output: "x", isError: false })).toBe("\n✓ read a.ts\n  x");
	});

	it("prints a web search with its sources, and a reply's citations, every outside character visible", () => {
		const sources = [
			{ title: "Vitest \x1b]0;x\x07Timers\u202e", url: "https://vitest.dev/guide/mocking" },
			{ title: "Node", url: "https://nodejs.org/" },
		];
		expect(show({ kind: "sources", id: 1, search: { query: "vitest \x1b[2Jtimers" }, sources })).toBe(
			'\n⌕ Searched the web: "vitest ^[[2Jtimers"\n  · Vitest ^[]0;x^GTimers⟪U+202E⟫ https://vitest.dev/guide/mocking\n  · Node https://nodejs.org/',
		);
		expect(show({ kind: "sources", id: 1, search: { query: "", error: "max_uses_exceeded" }, sources: [] })).toBe(
			"\n⌕ Searched the web\n  failed: max_uses_exceeded",
		);
		const many = Array.from({ length: 10 }, (_, i) => ({ title: `T${i}`, url: `https://e.io/${i}` }));
		expect(show({ kind: "sources", id: 1, sources: many }).split("\n").slice(1, 3)).toEqual(["Sources (10)", "  · T0 https://e.io/0"]);
		expect(show({ kind: "sources", id: 1, sources: many }).endsWith("  · T7 https://e.io/7\n  … 2 more")).toBe(true);
	});

	it("prints aborts and notices without the blank row", () => {
		expect(show({ kind: "aborted", id: 1 })).toBe("⏹ Aborted");
		expect(show({ kind: "notice", id: 1, level: "warning", text: "careful" })).toBe("careful");
	});

	it("fits every row in the terminal width, so Ink never wraps history", () => {
		const long = `${"word ".repeat(60)}https://example.com/${"x".repeat(200)}${" 漢字".repeat(40)}`;
		const items: HistoryItem[] = [
			{ kind: "user", id: 1, text: long },
			{ kind: "markdown", id: 2, source: `- ${long}\n- **${long}**` },
			{ kind: "thinking", id: 3, text: long },
			{ kind: "tool", id: 4, name: "bash", args: { command: long }, output: long, isError: false },
			{ kind: "error", id: 5, text: long },
			{ kind: "notice", id: 6, level: "info", text: long },
			{ kind: "shell", id: 7, command: long, output: long, exitCode: 1 },
		];
		for (const columns of [20, 37, 120]) {
			for (const item of items) {
				for (const row of show(item, columns).split("\n")) expect(displayWidth(row)).toBeLessThanOrEqual(columns);
			}
		}
	});

	it("sanitises outside text before styling it", () => {
		expect(show({ kind: "user", id: 1, text: "a\x1b[2Jb\x1b]52;c;eA==\x07" })).toBe("\n› a^[[2Jb^[]52;c;eA==^G");
		expect(show({ kind: "error", id: 1, text: "bad\x1b[31m\r" })).toBe("\nError: bad^M");
		// A server's error text is untrusted: sanitised, and a whole HTML page is cut to a screenful.
		const hostile = show({ kind: "error", id: 1, text: `<html>\x1b]0;owned\x07${"x".repeat(5000)}</html>`, unanswered: true }, 80, {});
		expect(hostile).not.toContain("\x1b]");
		expect(hostile).not.toContain("\x07");
		expect(hostile.length).toBeLessThan(1000);
		expect(hostile).toMatch(/… \(\d+ chars\)/);
		expect(show({ kind: "notice", id: 1, level: "info", text: "n\x1b[1A" })).toBe("n^[[1A");
	});
});
