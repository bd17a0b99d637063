import { describe, expect, it } from "vitest";
import { intentFor, parseKeyPress } from "../../../src/tui/keys/key-map.js";
import { formatBytes, resumePicker } from "../../../src/tui/overlays/session-picker.js";
import { type PickerState, pickerKey, pickerRows, pickerTitleRows, visibleIndices, withQuery } from "../../../src/tui/widgets/Picker.js";
import { editsField, isMultiLinePaste } from "../../../src/tui/widgets/SingleLineField.js";

const picker = (query?: string): PickerState<string> => ({
	title: "t",
	items: [{ label: "alpha one" }, { label: "beta two", search: "beta two id-42" }, { label: "gamma" }],
	values: ["a", "b", "c"],
	index: 0,
	onPick: () => {},
	query,
});

/** What a raw key means while a picker is open (busy or not: the picker has the keys). */
const inPicker = (raw: string, isStreaming = false) =>
	intentFor(parseKeyPress(raw), { mode: "picker", isStreaming, inputEmpty: true, sinceLastCtrlC: Number.POSITIVE_INFINITY });

describe("picker state", () => {
	it("a query keeps the items holding every word, case-insensitive, searching `search` when given", () => {
		expect(visibleIndices(picker())).toEqual([0, 1, 2]);
		expect(visibleIndices(picker("ONE"))).toEqual([0]);
		expect(visibleIndices(picker("id-42 beta"))).toEqual([1]);
		expect(visibleIndices(picker("a t"))).toEqual([1]);
		expect(visibleIndices(picker("zzz"))).toEqual([]);
		expect(pickerRows(picker("zzz"))).toBe(3);
		expect(pickerRows(picker())).toBe(4);
		expect(pickerRows(picker(""))).toBe(5);
		// A title longer than the terminal is wrapped by the picker, and its rows are counted.
		const long = { ...picker(), title: `Remove allow rule "${"x".repeat(80)}" from global?` };
		expect(pickerRows(long, 40)).toBe(pickerTitleRows(long, 40).length + 3);
		expect(pickerTitleRows(long, 40).length).toBeGreaterThan(2);
		expect(pickerTitleRows(long, 40).every((row) => row.length <= 40)).toBe(true);
	});

	it("Up/Down wrap within the matches, Enter picks the highlighted match, Esc and Ctrl+C close", () => {
		const p = withQuery(picker(), "a");
		expect(visibleIndices(p)).toEqual([0, 1, 2]);
		const down = pickerKey(p, inPicker("\x1b[B"));
		expect(down).toMatchObject({ kind: "open", state: { index: 1 } });
		const up = pickerKey(p, inPicker("\x1b[A"));
		expect(up).toMatchObject({ kind: "open", state: { index: 2 } });
		expect(pickerKey({ ...withQuery(p, "gamma") }, inPicker("\r"))).toEqual({ kind: "picked", value: "c" });
		expect(pickerKey(withQuery(p, "zzz"), inPicker("\r"))).toMatchObject({ kind: "open" });
		expect(pickerKey(p, inPicker("\x1b"))).toEqual({ kind: "closed" });
		expect(pickerKey(p, inPicker("\x1b", true))).toEqual({ kind: "closed" });
		expect(pickerKey(p, inPicker("\x03"))).toEqual({ kind: "closed" });
		// Text keys belong to the search field.
		expect(inPicker("x")).toEqual({ type: "none" });
		expect(pickerKey(p, { type: "insert", text: "x" })).toEqual({ kind: "open", state: p });
	});

	it("a new query moves the highlight back to the first match", () => {
		expect(withQuery({ ...picker(), index: 2 }, "b")).toMatchObject({ query: "b", index: 0 });
	});
});

describe("list actions", () => {
	it("d and Delete remove the highlighted item, a adds, only in a list that has those actions", () => {
		const removed: string[] = [];
		let added = 0;
		const list: PickerState<string> = { ...picker(), index: 1, onRemove: (v) => removed.push(v), onAdd: () => added++ };
		for (const raw of ["d", "\x1b[3~", "a"]) {
			const outcome = pickerKey(list, inPicker(raw));
			expect(outcome.kind).toBe("action");
			if (outcome.kind === "action") outcome.run();
		}
		expect(removed).toEqual(["b", "b"]);
		expect(added).toBe(1);
		// A picker without them (a searchable one: its field takes the letters) stays as it is.
		const searchable = picker("");
		for (const raw of ["d", "a"]) expect(pickerKey(searchable, inPicker(raw))).toEqual({ kind: "open", state: searchable });
	});
});

describe("session picker rows", () => {
	it("newest first whatever order they come in, searchable by id", () => {
		const p = resumePicker(
			[
				{ id: "old-id", modified: new Date(1000), messageCount: 1, firstMessage: "first", bytes: 10 },
				{ id: "new-id", modified: new Date(5000), messageCount: 2, firstMessage: "", bytes: 5_000_000 },
			],
			() => {},
		);
		expect(p.values).toEqual(["new-id", "old-id"]);
		expect(p.items[0].label).toContain("(no message yet)");
		expect(p.items[0].detail).toBe("2 msgs · 4.8 MB");
		expect(p.items[1].detail).toBe("1 msg · 10 B");
		expect(visibleIndices(withQuery(p, "old-"))).toEqual([1]);
	});

	it("formats sizes", () => {
		expect(formatBytes(0)).toBe("0 B");
		expect(formatBytes(1536)).toBe("1.5 KB");
		expect(formatBytes(200 * 1024)).toBe("200 KB");
	});
});

describe("single-line field", () => {
	it("takes printable text, Backspace and Delete; never control keys, Alt keys or paste markers", () => {
		expect(editsField("abc")).toBe(true);
		expect(editsField("é日本")).toBe(true);
		expect(editsField("\x7f")).toBe(true);
		expect(editsField("\x1b[3~")).toBe(true);
		expect(editsField("\x0f")).toBe(false);
		expect(editsField("\x1bb")).toBe(false);
		expect(editsField("\x1b[200~")).toBe(false);
		expect(editsField("\r")).toBe(false);
		expect(editsField("")).toBe(false);
	});

	it("tells a paste holding a line break (between paste markers, or several characters at once) from the Enter key", () => {
		expect(isMultiLinePaste("a\nb", true)).toBe(true);
		expect(isMultiLinePaste("\n", true)).toBe(true);
		expect(isMultiLinePaste("bash(x)\r\nrm -rf ~", false)).toBe(true);
		expect(isMultiLinePaste("\r", false)).toBe(false);
		expect(isMultiLinePaste("\r\n", false)).toBe(false);
		expect(isMultiLinePaste("bash(x)", true)).toBe(false);
	});
});
