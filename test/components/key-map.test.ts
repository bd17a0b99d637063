import { describe, expect, it } from "vitest";
import { intentFor, type KeyContext, parseKeyPress } from "../../components/key-map.js";

const idle: KeyContext = { isStreaming: false, inputEmpty: false, sinceLastCtrlC: Number.POSITIVE_INFINITY };
const streaming: KeyContext = { ...idle, isStreaming: true };
const intent = (raw: string, ctx: KeyContext = idle) => intentFor(parseKeyPress(raw), ctx).type;

describe("key map", () => {
	it("routes Enter by state: submit when idle, steer while streaming", () => {
		expect(intent("\r", idle)).toBe("submit");
		expect(intent("\r", streaming)).toBe("steer");
	});

	it("Alt+Enter is a follow-up in both states", () => {
		expect(intent("\x1b\r", idle)).toBe("followUp");
		expect(intent("\x1b\r", streaming)).toBe("followUp");
	});

	it("Esc aborts only while streaming", () => {
		expect(intent("\x1b", streaming)).toBe("abort");
		expect(intent("\x1b", idle)).toBe("dismiss");
	});

	it("Shift+Enter (CSI-u and modifyOtherKeys forms) and Ctrl+J are newlines", () => {
		expect(intent("\x1b[13;2u")).toBe("newline");
		expect(intent("\x1b[27;2;13~")).toBe("newline");
		expect(intent("\n")).toBe("newline");
	});

	it("Ctrl+C clears, twice within a second quits; Ctrl+D quits only on an empty input", () => {
		expect(intent("\x03")).toBe("clearInput");
		expect(intent("\x03", { ...idle, sinceLastCtrlC: 400 })).toBe("quit");
		expect(intent("\x03", { ...idle, sinceLastCtrlC: 1500 })).toBe("clearInput");
		expect(intent("\x04", { ...idle, inputEmpty: true })).toBe("quit");
		expect(intent("\x04")).toBe("delete");
	});

	it("names arrows, word moves, word deletes and the editing keys", () => {
		expect(intent("\x1b[A")).toBe("historyUp");
		expect(intent("\x1b[B")).toBe("historyDown");
		expect(intent("\x1b[D")).toBe("left");
		expect(intent("\x1b[1;5D")).toBe("wordLeft");
		expect(intent("\x1b[1;3C")).toBe("wordRight");
		expect(intent("\x1bb")).toBe("wordLeft");
		expect(intent("\x7f")).toBe("backspace");
		expect(intent("\x1b\x7f")).toBe("deleteWordBack");
		expect(intent("\x17")).toBe("deleteWordBack");
		expect(intent("\x1b[3~")).toBe("delete");
		expect(intent("\x0c")).toBe("redraw");
		expect(intent("\x0f")).toBe("toggleToolOutput");
		expect(intent("\t")).toBe("complete");
	});

	it("recognises bracketed paste markers and passes text through", () => {
		expect(intent("\x1b[200~")).toBe("pasteStart");
		expect(intent("\x1b[201~")).toBe("pasteEnd");
		expect(intentFor(parseKeyPress("héllo 世界"), idle)).toEqual({ type: "insert", text: "héllo 世界" });
	});

	it("ignores unknown sequences instead of inserting them", () => {
		expect(intent("\x1b[99;9X")).toBe("none");
		expect(intent("\x1b[15~")).toBe("none");
	});
});
