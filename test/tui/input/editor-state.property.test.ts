// The editor over random key sequences: whatever is typed, the cursor stays within the text and on a
// character boundary, and only edits change the text. (Backspace on an empty input once moved the
// cursor to -1, after which typed text landed before the end.)
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as e from "../../../src/tui/input/editor-state.js";

type Op = { kind: "move"; name: keyof typeof moves } | { kind: "edit"; name: keyof typeof edits } | { kind: "type"; text: string };

const moves = {
	left: e.moveLeft,
	right: e.moveRight,
	wordLeft: e.moveWordLeft,
	wordRight: e.moveWordRight,
	home: e.moveHome,
	end: e.moveEnd,
	up: (s: e.EditorState) => e.moveLine(s, -1) ?? s,
	down: (s: e.EditorState) => e.moveLine(s, 1) ?? s,
};
const edits = {
	backspace: e.backspace,
	delete: e.deleteForward,
	deleteWordBack: e.deleteWordBack,
	deleteToLineStart: e.deleteToLineStart,
	newline: (s: e.EditorState) => e.insertText(s, "\n"),
	paste: (s: e.EditorState) => e.insertPaste(s, Array.from({ length: 12 }, (_, i) => `p${i}`).join("\n")),
};

const text = fc
	.array(fc.constantFrom("a", "b", " ", "\n", "😀", "é", "e\u0301", "日本", "👍🏽", "-", "\r\n"), { maxLength: 4 })
	.map((parts) => parts.join(""));
const op: fc.Arbitrary<Op> = fc.oneof(
	fc.constantFrom(...(Object.keys(moves) as (keyof typeof moves)[])).map((name) => ({ kind: "move" as const, name })),
	fc.constantFrom(...(Object.keys(edits) as (keyof typeof edits)[])).map((name) => ({ kind: "edit" as const, name })),
	text.map((t) => ({ kind: "type" as const, text: t })),
);

const splitsPair = (s: e.EditorState) => {
	const code = s.text.charCodeAt(s.cursor);
	return s.cursor > 0 && code >= 0xdc00 && code <= 0xdfff;
};

describe("editor state, property", () => {
	it("keeps the cursor within the text and on a boundary; moves never change the text", () => {
		fc.assert(
			fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
				let s = e.emptyEditor();
				for (const o of ops) {
					const before = s;
					if (o.kind === "move") s = moves[o.name](s);
					else if (o.kind === "edit") s = edits[o.name](s);
					else s = e.insertText(s, o.text);
					expect(s.cursor).toBeGreaterThanOrEqual(0);
					expect(s.cursor).toBeLessThanOrEqual(s.text.length);
					expect(splitsPair(s)).toBe(false);
					if (o.kind === "move") {
						expect(s.text).toBe(before.text);
						expect(s.pastes).toBe(before.pastes);
					}
				}
				// Typing after any sequence lands at the cursor.
				const typed = e.insertText(s, "Z");
				expect(typed.text).toBe(`${s.text.slice(0, s.cursor)}Z${s.text.slice(s.cursor)}`);
			}),
			{ numRuns: 500 },
		);
	});

	it("Backspace and Delete at the edges change nothing", () => {
		expect(e.backspace(e.emptyEditor())).toEqual(e.emptyEditor());
		expect(e.moveLeft(e.emptyEditor()).cursor).toBe(0);
		const s = e.backspace(e.backspace(e.emptyEditor()));
		expect(e.insertText(s, "abc")).toMatchObject({ text: "abc", cursor: 3 });
		expect(e.deleteForward(e.emptyEditor("ab")).text).toBe("ab");
	});

	it("moves over a whole character: combining marks and emoji sequences are one step", () => {
		const accented = e.emptyEditor("e\u0301");
		expect(e.moveLeft(accented).cursor).toBe(0);
		expect(e.backspace(accented).text).toBe("");
		const thumbs = e.emptyEditor("a👍🏽");
		expect(e.moveLeft(thumbs).cursor).toBe(1);
		expect(e.moveRight({ ...thumbs, cursor: 1 }).cursor).toBe(5);
	});
});
