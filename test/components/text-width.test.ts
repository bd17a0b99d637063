import { describe, expect, it } from "vitest";
import { displayWidth, lastRows, wrapLine } from "../../components/text-width.js";

describe("text width", () => {
	it("counts wide characters as two cells and combining marks as none", () => {
		expect(displayWidth("abc")).toBe(3);
		expect(displayWidth("日本")).toBe(4);
		expect(displayWidth("😀")).toBe(2);
		expect(displayWidth("e\u0301")).toBe(1);
	});

	it("wraps without splitting a wide character across rows", () => {
		expect(wrapLine("日本語です", 5)).toEqual(["日本", "語で", "す"]);
		expect(wrapLine("abcdef", 4)).toEqual(["abcd", "ef"]);
	});

	it("returns the last rows of a long text, wrapped", () => {
		const text = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join("\n");
		expect(lastRows(text, 80, 3)).toEqual(["line 997", "line 998", "line 999"]);
		expect(lastRows("abcdefghij", 4, 2)).toEqual(["efgh", "ij"]);
		expect(lastRows("a\n\nb", 10, 5)).toEqual(["a", "", "b"]);
	});
});
