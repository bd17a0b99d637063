import { describe, expect, it } from "vitest";
import { MarkdownBlockSplitter } from "../../../src/tui/markdown/block-splitter.js";
import { renderHistoryItem } from "../../../src/tui/transcript/render/history-item.js";
import { TAIL_SOURCE_CHARS, tailRows, tailSource } from "../../../src/tui/transcript/StreamingMessage.js";

const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("the streaming tail", () => {
	it("wraps at word boundaries exactly as history prints the finished block, at every point of the stream", () => {
		const reply = "The parser reads **every** token of the input and then builds the tree that the renderer walks, one `node` at a time.";
		const columns = 30;
		const finished = strip(renderHistoryItem({ kind: "markdown", id: 1, source: reply }, columns))
			.replace(/^\n/, "")
			.split("\n");
		const splitter = new MarkdownBlockSplitter();
		for (const word of reply.split(/(?<= )/)) {
			splitter.push(word);
			const rows = tailRows({ thinking: "", text: splitter.tail }, columns, 100).text.map(strip);
			// Every row but the last (whose last word may still grow) is already the row history will print.
			expect(rows.slice(0, -1)).toEqual(finished.slice(0, rows.length - 1));
		}
		expect(tailRows({ thinking: "", text: splitter.tail }, columns, 100).text.map(strip)).toEqual(finished);
		// Rows break between words: joined with spaces they give the words back.
		expect(finished.join(" ")).toBe(reply.replace(/\*\*|`/g, ""));
	});

	it("shows only the last rows, and renders a huge open code block from its last part with the fence kept", () => {
		const code = `\`\`\`ts\n${Array.from({ length: 2000 }, (_, i) => `const v${i} = ${i};`).join("\n")}\n`;
		expect(tailSource(code).length).toBeLessThanOrEqual(TAIL_SOURCE_CHARS + 10);
		expect(tailSource(code).startsWith("```ts\n")).toBe(true);
		const rows = tailRows({ thinking: "", text: code }, 80, 3).text.map(strip);
		expect(rows).toEqual(["  const v1997 = 1997;", "  const v1998 = 1998;", "  const v1999 = 1999;"]);
	});
});
