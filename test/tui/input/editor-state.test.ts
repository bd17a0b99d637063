import { describe, expect, it } from "vitest";
import * as e from "../../../src/tui/input/editor-state.js";

const at = (text: string, cursor: number): e.EditorState => ({ ...e.emptyEditor(text), cursor });

describe("editor state", () => {
	it("inserts at the cursor and turns CR / CRLF into newlines", () => {
		const s = e.insertText(at("ad", 1), "b\r\nc\r");
		expect(s.text).toBe("ab\nc\nd");
		expect(s.cursor).toBe(5);
	});

	it("moves by words and deletes the word before the cursor", () => {
		const s = at("git commit --amend", 18);
		expect(e.moveWordLeft(s).cursor).toBe(13);
		expect(e.moveWordRight(at("git commit", 0)).cursor).toBe(3);
		expect(e.deleteWordBack(s).text).toBe("git commit --");
		expect(e.deleteToLineStart(at("a\nbc", 4)).text).toBe("a\n");
	});

	it("never splits a surrogate pair", () => {
		const s = e.emptyEditor("a😀");
		expect(e.moveLeft(s).cursor).toBe(1);
		expect(e.backspace(s).text).toBe("a");
		expect(e.deleteForward(at("😀b", 0)).text).toBe("b");
	});

	it("moves between lines keeping the column, and reports the edges", () => {
		const s = at("abcdef\nxy\nlonger", 5);
		const down = e.moveLine(s, 1)!;
		expect(down.cursor).toBe(9); // end of "xy"
		expect(e.moveLine(down, 1)!.cursor).toBe(12);
		expect(e.moveLine(s, -1)).toBeUndefined();
		expect(e.moveLine(at("one", 1), 1)).toBeUndefined();
		expect(e.moveHome(at("ab\ncd", 4)).cursor).toBe(3);
		expect(e.moveEnd(at("ab\ncd", 0)).cursor).toBe(2);
	});

	it("hides a paste of more than 10 lines behind a numbered placeholder and expands it", () => {
		const eleven = Array.from({ length: 11 }, (_, i) => `l${i}`).join("\n");
		let s = e.insertText(e.emptyEditor(), "x ");
		s = e.insertPaste(s, eleven);
		s = e.insertPaste(s, eleven.replace(/\n/g, "\r\n"));
		expect(s.text).toBe("x [paste #1 +11 lines][paste #2 +11 lines]");
		expect(e.expandPastes(s)).toBe(`x ${eleven}${eleven}`);
		expect(e.insertPaste(e.emptyEditor(), "a\nb").text).toBe("a\nb");
	});

	it("backspace removes a placeholder as a whole, with its paste", () => {
		const s = e.insertPaste(e.emptyEditor(), "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11");
		const after = e.backspace(s);
		expect(after.text).toBe("");
		expect(after.pastes.size).toBe(0);
	});
});
