import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MarkdownBlockSplitter } from "../../../src/tui/markdown/block-splitter.js";

function split(text: string, pieces: number[]): { blocks: string[]; tail: string } {
	const s = new MarkdownBlockSplitter();
	const blocks: string[] = [];
	let at = 0;
	for (const n of pieces) {
		blocks.push(...s.push(text.slice(at, at + n)));
		at += n;
	}
	blocks.push(...s.push(text.slice(at)));
	const tail = s.tail;
	return { blocks: [...blocks, ...s.finish()], tail };
}

const doc = "# Title\nIntro line one\nline two\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n- item\n- item two\n\nlast para";

describe("MarkdownBlockSplitter", () => {
	it("closes blocks at blank lines, headings and closing fences; a blank line inside a fence does not close it", () => {
		expect(split(doc, []).blocks).toEqual([
			"# Title",
			"Intro line one\nline two",
			"```ts\nconst a = 1;\n\nconst b = 2;\n```",
			"- item\n- item two",
			"last para",
		]);
	});

	it("keeps only the open block as the tail", () => {
		const s = new MarkdownBlockSplitter();
		expect(s.push("Done para.\n\nOpen ")).toEqual(["Done para."]);
		expect(s.tail).toBe("Open ");
		expect(s.push("more")).toEqual([]);
		expect(s.tail).toBe("Open more");
	});

	it("gives the same blocks however the stream is chunked", () => {
		const whole = split(doc, []).blocks;
		fc.assert(
			fc.property(fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 40 }), (pieces) => {
				expect(split(doc, pieces).blocks).toEqual(whole);
			}),
		);
	});
});
