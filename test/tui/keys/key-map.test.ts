import { describe, expect, it } from "vitest";
import { intentFor, type KeyContext, keyOf, parseKeyPress } from "../../../src/tui/keys/key-map.js";
import { buildKeyBindings } from "../../../src/tui/keys/keybindings.js";

const idle: KeyContext = { isStreaming: false, inputEmpty: false, sinceLastCtrlC: Number.POSITIVE_INFINITY };
const streaming: KeyContext = { ...idle, isStreaming: true };
const intent = (raw: string, ctx: KeyContext = idle) => intentFor(parseKeyPress(raw), ctx).type;

describe("key map", () => {
	it("Enter is submit in both states: the session prompts or steers by its own state", () => {
		expect(intent("\r", idle)).toBe("submit");
		expect(intent("\r", streaming)).toBe("submit");
	});

	it("Alt+Enter is a follow-up in both states", () => {
		expect(intent("\x1b\r", idle)).toBe("followUp");
		expect(intent("\x1b\r", streaming)).toBe("followUp");
	});

	it("Esc aborts only while streaming", () => {
		expect(intent("\x1b", streaming)).toBe("abort");
		expect(intent("\x1b", idle)).toBe("none");
	});

	it("Ctrl+B moves the running command to the background while busy; idle it does nothing (it is not cursor-left)", () => {
		expect(intent("\x02", streaming)).toBe("background");
		expect(intent("\x02", idle)).toBe("none");
	});

	it("Shift+Enter (CSI-u and modifyOtherKeys forms) and Ctrl+J are newlines", () => {
		expect(intent("\x1b[13;2u")).toBe("newline");
		expect(intent("\x1b[27;2;13~")).toBe("newline");
		expect(intent("\n")).toBe("newline");
	});

	it("Ctrl+C stops a run, clears text, and quits only when pressed twice on an empty idle input; Ctrl+D quits only when idle and empty", () => {
		const empty = { ...idle, inputEmpty: true };
		expect(intent("\x03", { ...idle, isStreaming: true })).toBe("abort");
		expect(intent("\x03", { ...empty, isStreaming: true, sinceLastCtrlC: 100 })).toBe("abort");
		expect(intent("\x03")).toBe("clearInput");
		// Text in the input is never a quit, however recent the last press.
		expect(intent("\x03", { ...idle, sinceLastCtrlC: 100 })).toBe("clearInput");
		expect(intent("\x03", empty)).toBe("armQuit");
		expect(intent("\x03", { ...empty, sinceLastCtrlC: 1500 })).toBe("quit");
		expect(intent("\x03", { ...empty, sinceLastCtrlC: 2500 })).toBe("armQuit");
		expect(intent("\x04", empty)).toBe("quit");
		expect(intent("\x04", { ...empty, isStreaming: true })).toBe("delete");
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
		expect(intent("\t", { ...idle, completionOpen: true })).toBe("complete");
		expect(intent("\t")).toBe("none");
		expect(intent("\x1b[Z")).toBe("cycleMode");
		expect(intent("\x07")).toBe("externalEditor");
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

describe("key map contexts", () => {
	it("Esc twice within the sequence window on an empty idle input is rewind; with text, once, or slowly, it is nothing", () => {
		expect(intent("\x1b", { ...idle, inputEmpty: true, previous: { key: "escape", ms: 200 } })).toBe("rewind");
		// With text in the input it is nothing: rewind opens on an empty input only.
		expect(intent("\x1b", { ...idle, inputEmpty: false, previous: { key: "escape", ms: 200 } })).toBe("none");
		expect(intent("\x1b", { ...idle, previous: { key: "escape", ms: 900 } })).toBe("none");
		expect(intent("\x1b", { ...idle, previous: { key: "x", ms: 10 } })).toBe("none");
		// While busy the second Esc stops the run like the first.
		expect(intent("\x1b", { ...streaming, previous: { key: "escape", ms: 200 } })).toBe("abort");
	});

	it("a picker has its own keys: text is left to its search field", () => {
		const picker: KeyContext = { ...streaming, mode: "picker" };
		expect(intent("\x1b[A", picker)).toBe("pickerUp");
		expect(intent("\x0e", picker)).toBe("pickerDown");
		expect(intent("\r", picker)).toBe("pickerPick");
		expect(intent("\x1b", picker)).toBe("pickerClose");
		expect(intent("\x03", picker)).toBe("pickerClose");
		expect(intent("x", picker)).toBe("none");
		// A list's own actions (/permissions); a searchable picker's field still takes the letters as text.
		expect(intent("d", picker)).toBe("pickerRemove");
		expect(intent("\x1b[3~", picker)).toBe("pickerRemove");
		expect(intent("a", picker)).toBe("pickerAdd");
	});

	it("an approval prompt binds no letter; numbers and Up/Down move, Enter takes, Ctrl+O opens the pager, Esc denies and stops", () => {
		const approval: KeyContext = { ...streaming, mode: "approval" };
		expect(["y", "a", "p", "n", "3", "\x1b[A", "\x1b[B", "\r", "\x0f", "\x1b"].map((raw) => intent(raw, approval))).toEqual([
			"none",
			"none",
			"none",
			"none",
			"approvalNumber",
			"approvalUp",
			"approvalDown",
			"approvalSelect",
			"approvalFullText",
			"approvalDenyAndStop",
		]);
		const pager: KeyContext = { ...streaming, mode: "pager" };
		expect(["\x1b[B", "\x1b[A", "\x1b[6~", "\x1b[5~", "q", "\x1b", "y"].map((raw) => intent(raw, pager))).toEqual([
			"pagerDown",
			"pagerUp",
			"pagerPageDown",
			"pagerPageUp",
			"pagerClose",
			"pagerClose",
			"none",
		]);
	});

	it("names keys as the table writes them", () => {
		expect(["\x03", "\x1b\r", "\x1b[13;2u", "\x1bb", "Y", " ", "\x1b[Z", "\x1b[1;5D", "ab"].map((r) => keyOf(parseKeyPress(r)))).toEqual([
			"ctrl+c",
			"alt+enter",
			"shift+enter",
			"alt+b",
			"shift+y",
			"space",
			"shift+tab",
			"ctrl+left",
			undefined,
		]);
	});

	it("follows a table with user overrides", () => {
		const built = buildKeyBindings({ submit: ["ctrl+s"], newline: ["enter"] });
		if (!("bindings" in built)) throw new Error(built.errors.join("; "));
		const ctx = { ...idle, bindings: built.bindings };
		expect(intent("\x13", ctx)).toBe("submit");
		expect(intent("\r", ctx)).toBe("newline");
	});
});
