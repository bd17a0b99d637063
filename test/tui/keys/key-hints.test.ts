import { describe, expect, it } from "vitest";
import { menuHint } from "../../../src/tui/input/CompletionMenu.js";
import { displayKey, hintLine, keyLabel, keyLabels } from "../../../src/tui/keys/key-hints.js";
import { buildKeyBindings, DEFAULT_KEY_BINDINGS, type KeyOverrides } from "../../../src/tui/keys/keybindings.js";
import { linesToAnsi } from "../../../src/tui/text/styled-text.js";
import { renderToolCall } from "../../../src/tui/transcript/render/tool-call.js";
import { pickerHint } from "../../../src/tui/widgets/Picker.js";

const table = (overrides: KeyOverrides) => {
	const built = buildKeyBindings(overrides);
	if (!("bindings" in built)) throw new Error(built.errors.join("; "));
	return built.bindings;
};

describe("key hints", () => {
	it("show keys as people write them", () => {
		expect(["enter", "alt+enter", "escape", "ctrl+o", "shift+tab", "escape escape", "up", "y", "ctrl++"].map(displayKey)).toEqual([
			"Enter",
			"Alt+Enter",
			"Esc",
			"Ctrl+O",
			"Shift+Tab",
			"Esc Esc",
			"↑",
			"y",
			"Ctrl++",
		]);
		expect(keyLabels(DEFAULT_KEY_BINDINGS, "historyUp")).toBe("↑/Ctrl+P");
	});

	it("are generated from the table, so they follow the user's keys and drop unbound actions", () => {
		const parts = [
			["submit", "steers"],
			["followUp", "queues"],
			["abort", "stops"],
		] as const;
		expect(hintLine(DEFAULT_KEY_BINDINGS, parts)).toBe("Enter steers · Alt+Enter queues · Esc stops");
		expect(hintLine(table({ submit: ["ctrl+s"], followUp: [] }), parts)).toBe("Ctrl+S steers · Esc stops");
		expect(keyLabel(table({ toggleToolOutput: [] }), "toggleToolOutput")).toBeUndefined();
	});

	it("the picker's hint and a collapsed tool result name the keys in the table", () => {
		expect(pickerHint(DEFAULT_KEY_BINDINGS)).toBe("↑/↓, Enter; Esc cancels");
		expect(menuHint(DEFAULT_KEY_BINDINGS)).toBe("↑/↓ select · Tab/Enter accept · Esc closes");
		expect(menuHint(table({ completionClose: [], completionAccept: [] }))).toBe("↑/↓ select · Tab accept");
		expect(pickerHint(table({ pickerClose: ["ctrl+q"], pickerUp: ["ctrl+k"] }))).toBe("Ctrl+K/↓, Enter; Ctrl+Q cancels");
		const tool = { kind: "tool", id: 1, name: "bash", args: {}, output: "1\n2\n3\n4\n5\n6", isError: false } as const;
		expect(linesToAnsi(renderToolCall(tool, 80))).toContain("… 2 more lines (Ctrl+O to expand)");
		expect(linesToAnsi(renderToolCall(tool, 80, { expandKey: "Ctrl+T" }))).toContain("… 2 more lines (Ctrl+T to expand)");
		expect(linesToAnsi(renderToolCall(tool, 80, {}))).toMatch(/… 2 more lines(?! \()/);
	});
});
