import fc from "fast-check";
import { lexer } from "marked";
import { describe, expect, it } from "vitest";
import { highlightCode, loadHighlighter } from "../../../src/tui/markdown/highlight.js";
import {
	isPlainLine,
	lexMarkdown,
	markedRows,
	openFence,
	plainList,
	renderMarkdown,
	reusedListItems,
} from "../../../src/tui/markdown/render-markdown.js";
import { type Line, segmentsWidth } from "../../../src/tui/text/styled-text.js";
import { assertTakenOften } from "../../helpers/shortcut-property.js";

const text = (lines: readonly Line[]) => lines.map((l) => l.map((s) => s.text).join("")).join("\n");
const show = (source: string, width = 80) => text(renderMarkdown(source, width));
/** The style of the first segment whose text contains `needle`. */
const styleOf = (lines: readonly Line[], needle: string) => lines.flat().find((s) => s.text.includes(needle))?.style;

describe("renderMarkdown", () => {
	it("renders headings without their hashes, emphasis without markers, and links with their URL", () => {
		expect(show("## Setup")).toBe("Setup");
		expect(show("#### Deep")).toBe("#### Deep");
		expect(show("Some **bold**, *em* and `code`.")).toBe("Some bold, em and code.");
		expect(show("See [the docs](https://example.com/docs).")).toBe("See the docs (https://example.com/docs).");
		expect(show("<https://example.com>")).toBe("https://example.com");
	});

	it("styles emphasis, code spans, links and headings", () => {
		const lines = renderMarkdown("Some **bold _both_**, ~~gone~~, `code` and [a link](https://x.y).", 80);
		expect(styleOf(lines, "bold")).toMatchObject({ bold: true });
		expect(styleOf(lines, "both")).toMatchObject({ bold: true, italic: true });
		expect(styleOf(lines, "gone")).toMatchObject({ strikethrough: true });
		expect(styleOf(lines, "code")).toMatchObject({ color: "yellow" });
		expect(styleOf(lines, "link")).toMatchObject({ color: "blue", underline: true });
		expect(styleOf(lines, "https://x.y")?.underline).toBeFalsy();
		expect(styleOf(renderMarkdown("# Title", 80), "Title")).toMatchObject({ bold: true, color: "magenta" });
	});

	it("renders bullet and numbered lists", () => {
		expect(show("- one\n- two")).toBe("• one\n• two");
		expect(show("3. c\n4. d")).toBe("3. c\n4. d");
		expect(show("- outer\n  - inner")).toBe("• outer\n  • inner");
	});

	it("wraps list items with a hanging indent, within the width", () => {
		const lines = renderMarkdown("- alpha beta gamma delta epsilon\n10. x", 16);
		expect(text(lines)).toBe("• alpha beta\n  gamma delta\n  epsilon\n10. x");
		expect(text(renderMarkdown("9. alpha beta gamma", 12))).toBe("9. alpha\n   beta\n   gamma");
		for (const line of lines) expect(segmentsWidth(line)).toBeLessThanOrEqual(16);
	});

	it("renders a fenced code block indented, with its language label, and wraps long lines keeping their indent", () => {
		expect(show("```ts\nconst a = 1;\n```")).toBe("  ts\n  const a = 1;");
		// "text" names no language: no label row, which would read as a stray line of the block.
		expect(show("```text\nexit 1\n```")).toBe("  exit 1");
		expect(show("```Plaintext\nexit 1\n```")).toBe("  exit 1");
		expect(show("```\nif (x) {\n    call(alpha, beta)\n}\n```", 20)).toBe("  if (x) {\n      call(alpha,\n      beta)\n  }");
	});

	it("labels each fence with its own language at its own width, frame after frame (the label is remembered)", () => {
		expect(show("```typescript\nx", 9)).toBe("  typescr\n  ipt\n  x");
		expect(show("```typescript\nx y", 80)).toBe("  typescript\n  x y");
		expect(show("```python\nx y", 80)).toBe("  python\n  x y");
		expect(show("```text\nx y", 80)).toBe("  x y");
		expect(show("```python\nx y z", 80)).toBe("  python\n  x y z");
	});

	it("quotes every row of a blockquote dimmed, and draws rules", () => {
		const lines = renderMarkdown("> quoted words that wrap around", 16);
		expect(text(lines)).toBe("  │ quoted words\n  │ that wrap\n  │ around");
		expect(lines.flat().every((s) => s.style?.dim)).toBe(true);
		expect(show("---")).toBe("─".repeat(20));
		expect(show("---", 8)).toBe("─".repeat(8));
	});

	it("draws tables instead of printing their source (table.test.ts has the details)", () => {
		expect(show("| a | b |\n|---|---|\n| 1 | 2 |")).toBe("┌───┬───┐\n│ a │ b │\n├───┼───┤\n│ 1 │ 2 │\n└───┴───┘");
	});

	it("keeps every row within the width, wide characters counted as two cells", () => {
		const source =
			"漢字の文章はとても長くなることがあります。**太字**と`コード`も含みます。 https://example.com/a/very/long/path/that/cannot/break";
		for (const width of [5, 11, 30]) {
			const lines = renderMarkdown(source, width);
			for (const line of lines) expect(segmentsWidth(line)).toBeLessThanOrEqual(width);
			expect(text(lines).replace(/\n/g, "").replace(/ /g, "")).toBe(show(source, 1000).replace(/ /g, ""));
		}
	});

	it("sanitises escape sequences from the model before styling", () => {
		expect(show("a\x1b]52;c;Zm9v\x07b \x1b[2Jc `x\x1b[31m`")).toBe("a^[]52;c;Zm9v^Gb ^[[2Jc x");
	});

	it("gives the rows of its last call again for the same source and width (history printing the block the tail just drew)", () => {
		const source = "A **closed** block\n- with a list";
		const tail = renderMarkdown(source, 30);
		expect(renderMarkdown(source, 30)).toBe(tail);
		expect(renderMarkdown(source, 31)).not.toBe(tail);
		expect(text(renderMarkdown(`${source}!`, 30))).toBe(`${text(tail)}!`);
	});

	it("colours code once highlight.js has loaded", async () => {
		expect(highlightCode("x", "nosuchlang")).toBeUndefined();
		// Rendered before the load, the same block is rendered again after it: coloured, not the rows remembered.
		const before = renderMarkdown('```ts\nconst a = "s";\n```', 80);
		expect(styleOf(before, "const")).toBeUndefined();
		await loadHighlighter();
		const segments = highlightCode('const a = "s"; // c', "ts")!;
		expect(segments.map((s) => s.text).join("")).toBe('const a = "s"; // c');
		expect(segments.find((s) => s.text === "const")?.color).toBe("magenta");
		expect(segments.find((s) => s.text === '"s"')?.color).toBe("green");
		expect(segments.find((s) => s.text === "// c")?.color).toBe("gray");
		expect(
			highlightCode("a &lt; b", "ts")!
				.map((s) => s.text)
				.join(""),
		).toBe("a &lt; b");
		const lines = renderMarkdown('```ts\nconst a = "s";\n```', 80);
		expect(text(lines)).toBe('  ts\n  const a = "s";');
		expect(styleOf(lines, "const")).toMatchObject({ color: "magenta" });
	});
});

describe("the markdown lexer", () => {
	it("gives marked's own tokens for random markdown (HTML blocks, setext headings, lists, code, tables, quotes)", () => {
		const piece = fc.oneof(
			fc.constantFrom("word", " ", "  ", "   ", "    ", "\n", "\n\n", "\t", "**", "*", "_", "`", "```", "~~~", "[a]", "(b)", "[x]: /u"),
			fc.constantFrom(
				"<",
				">",
				"<div>",
				"</div>",
				"<pre>",
				"</pre>",
				"<script>",
				"<!-- c -->",
				"<?p ?>",
				"<!X>",
				"<![CDATA[",
				"<b>",
				"<a href=x>",
			),
			fc.constantFrom(
				"\n  ===",
				"\n   ---",
				"\n ==",
				"\n    -",
				"\n   <p>",
				"=",
				"==",
				"===",
				"-",
				"--",
				"---",
				"- ",
				"* ",
				"+ ",
				"1. ",
				"2) ",
				"# ",
				"## ",
				"> ",
				"|",
				"| a | b |",
				"|---|---|",
				":-:",
			),
			fc.constantFrom("漢字", "😀", "👍🏽", "\\", "&amp;", "https://x.io", "www.x.io"),
			fc.string({ maxLength: 3 }),
		);
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
				const source = pieces.join("");
				expect(lexMarkdown(source)).toEqual(lexer(source));
			}),
			{ numRuns: 4000 },
		);
	});
});

describe("the tail's shortcuts past marked", () => {
	const codeOf = (source: string) => {
		const tokens = lexer(source);
		return tokens.length === 1 && tokens[0].type === "code" ? { lang: tokens[0].lang, text: tokens[0].text } : undefined;
	};

	it("takes an open fence's language and code as marked does, on random fences", () => {
		const opening = fc.constantFrom(
			"```",
			"````",
			"~~~",
			"~~~~",
			" ```",
			"``",
			"```ts",
			"```ts x",
			"``` ts ",
			"```a`b",
			"~~~a`b",
			"```a\\_b",
			"~~~ py",
		);
		const piece = fc.oneof(
			fc.constantFrom("code", " ", "    ", "\t", "\n", "\n\n", "`", "```", "~~~", "````", "~~", "\\", "\r", "\r\n", "- ", "# ", "<div>"),
			fc.constantFrom("\n```", "\n   ```", "\n    ```", "\n~~~", "\n```~", "\n```` ", "\n~~~ x", "\n``", "\n  ~~~~"),
			fc.string({ maxLength: 3 }),
		);
		assertTakenOften(
			fc.tuple(opening, fc.array(piece, { maxLength: 30 })),
			([open, pieces]) => {
				const source = open + pieces.join("");
				const fence = openFence(source);
				if (fence === undefined) return false;
				expect(fence).toEqual(codeOf(source));
				return true;
			},
			{ numRuns: 4000, atLeast: 500 },
		);
	});

	it("takes a fence that a later line may close to marked", () => {
		expect(openFence("```ts\nconst a = 1;")).toEqual({ lang: "ts", text: "const a = 1;" });
		expect(openFence("```ts")).toEqual({ lang: "ts", text: "" });
		expect(openFence("```ts\na\n```")).toBeUndefined();
		expect(openFence("```ts\na\n  ```~")).toBeUndefined();
		expect(openFence("  ```ts\na")).toBeUndefined();
		expect(openFence("```ts\na\n")).toBeUndefined();
	});

	it("knows a line of plain prose is a paragraph of one text token, on random lines", () => {
		const piece = fc.oneof(
			fc.constantFrom("the", "agent", "A", "x1", "2", "1.", " ", "  ", ".", ",", ";", ":", "?", "'", '"', "(", ")", "-", "--", "---"),
			fc.constantFrom(
				"www",
				"www.",
				"WWW.x",
				"mailto:",
				"xmpp:",
				"http",
				"ftp:",
				"*",
				"_",
				"`",
				"~",
				"!",
				"[",
				"<",
				"&",
				"@",
				"/",
				"#",
				">",
			),
			fc.string({ maxLength: 2 }),
		);
		assertTakenOften(
			fc.tuple(fc.constantFrom("the", "A", "x1", "1", "-", " a", "  a", "   a", "    a", " "), fc.array(piece, { maxLength: 30 })),
			([first, pieces]) => {
				const source = first + pieces.join("");
				if (!isPlainLine(source)) return false;
				const tokens = lexer(source);
				expect(tokens).toHaveLength(1);
				expect(tokens[0]).toMatchObject({ type: "paragraph", text: source });
				const inline = (tokens[0] as { tokens: { type: string; text: string; tokens?: unknown[] }[] }).tokens;
				expect(inline.map((t) => [t.type, t.text, t.tokens?.length ?? 0])).toEqual([["text", source, 0]]);
				return true;
			},
			{ numRuns: 4000, atLeast: 500 },
		);
		expect(isPlainLine("the agent runs a tool, and you steer it.")).toBe(true);
		expect(isPlainLine("see www.x.io")).toBe(false);
		expect(isPlainLine("1. item")).toBe(false);
		expect(isPlainLine("   the agent")).toBe(true);
		expect(isPlainLine("    the agent")).toBe(false);
	});
});

describe("the tail's shortcut past marked for a plain list", () => {
	it("draws a plain list streamed a delta at a time as marked's tokens draw, every frame (earlier items from the frame before)", () => {
		const words = fc
			.array(fc.constantFrom("the", "agent", "runs", "A", "x1", "to"), { minLength: 1, maxLength: 8 })
			.map((w) => w.join(" "));
		assertTakenOften(
			fc.tuple(
				fc.option(words),
				fc.array(words, { minLength: 1, maxLength: 6 }),
				fc.integer({ min: 1, max: 9 }),
				fc.integer({ min: 3, max: 30 }),
			),
			([lead, items, step, width]) => {
				const reply = [...(lead === null ? [] : [lead]), ...items.map((i) => `- ${i}`)].join("\n");
				const before = reusedListItems();
				for (let end = step; end < reply.length + step; end += step) {
					const source = reply.slice(0, end);
					expect(renderMarkdown(source, width)).toEqual(markedRows(source, width));
				}
				return reusedListItems() > before;
			},
			{ numRuns: 300, atLeast: 200 },
		);
	});

	it("draws a paragraph line and a tight list of plain lines as marked's tokens draw, on random lists", () => {
		const word = fc.oneof(
			{ arbitrary: fc.constantFrom("the", "agent", "A", "x1", "2", "1."), weight: 30 },
			{ arbitrary: fc.constantFrom("www", "*", "_", "`", "[", "@", "#", ">", "&"), weight: 1 },
		);
		const gap = fc.oneof({ arbitrary: fc.constant(" "), weight: 10 }, { arbitrary: fc.constantFrom("  ", ".", ",", "-", " -"), weight: 3 });
		const line = fc.tuple(word, fc.array(fc.tuple(gap, word), { maxLength: 6 })).map(([w, p]) => w + p.flat().join(""));
		const bullet = fc.oneof(
			{ arbitrary: fc.constantFrom("- ", "-  "), weight: 6 },
			{ arbitrary: fc.constantFrom("-   ", "-    ", "-     ", "-", "* ", "+ ", "1. ", "-\t", " - "), weight: 2 },
		);
		const item = fc.tuple(bullet, line).map(([b, l]) => b + l);
		const lead = fc.oneof(fc.constant(undefined), line, fc.constantFrom(" the code", "   a", "    a", "A  "));
		const tail = fc.oneof(
			{ arbitrary: fc.constant(""), weight: 8 },
			{ arbitrary: fc.constantFrom("\n", "\n-", "\n- ", "\n-  ", " ", "\n\n- a", "\n  a", "\n==="), weight: 2 },
		);
		assertTakenOften(
			fc.tuple(lead, fc.array(item, { minLength: 1, maxLength: 5 }), tail, fc.integer({ min: 3, max: 30 })),
			([first, items, end, width]) => {
				const source = [...(first === undefined ? [] : [first]), ...items].join("\n") + end;
				if (plainList(source) === undefined) return false;
				expect(renderMarkdown(source, width)).toEqual(markedRows(source, width));
				return true;
			},
			{ numRuns: 5000, atLeast: 300 },
		);
	});

	it("is taken for the bench's kind of list and not for a list marked reads otherwise", () => {
		expect(plainList(" code of in model of\n-  tool the text runs\n-  and")).toEqual({
			lead: " code of in model of",
			items: ["tool the text runs", "and"],
		});
		expect(plainList("a\n-")).toBeUndefined();
		expect(plainList("a\n- ")).toBeUndefined();
		expect(plainList("a\n-     b")).toBeUndefined();
		expect(plainList("a\nb\n- c")).toBeUndefined();
	});
});
