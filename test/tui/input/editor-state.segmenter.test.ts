// The input's cursor moves by grapheme; on plain text it must not build an Intl.Segmenter (the first
// of a process loads ICU's break data, which the first screen does not need).
import { describe, expect, it, vi } from "vitest";
import { countNewSegmenters } from "../../helpers/segmenter-count.js";

describe("editor-state's grapheme steps", () => {
	it("build no Intl.Segmenter for plain text, and one for text that needs it", async () => {
		const count = countNewSegmenters();
		try {
			vi.resetModules();
			const { backspace, emptyEditor, moveLeft } = await import("../../../src/tui/input/editor-state.js");
			const plain = moveLeft(emptyEditor("› ask · ↑0 日本"));
			expect([plain.cursor, backspace(plain).text]).toEqual([12, "› ask · ↑0 本"]);
			expect(count.made()).toBe(0);
			expect(moveLeft(emptyEditor("ok 👍🏽")).cursor).toBe(3);
			expect(count.made()).toBe(1);
		} finally {
			count.restore();
		}
	});
});
