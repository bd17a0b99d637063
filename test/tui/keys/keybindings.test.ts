import { describe, expect, it } from "vitest";
import { ACTION_NAMES, ACTIONS, buildKeyBindings, DEFAULT_KEY_BINDINGS, parseKey } from "../../../src/tui/keys/keybindings.js";

describe("the key table", () => {
	it("has consistent defaults: every key parses and no key does two things in one context", () => {
		expect(buildKeyBindings()).toHaveProperty("bindings");
		for (const action of ACTION_NAMES) expect(DEFAULT_KEY_BINDINGS.keys[action].length, action).toBe(ACTIONS[action].keys.length);
	});

	it("defines the actions other parts wire: Ctrl+C, Ctrl+D, Ctrl+G, Esc Esc, Shift+Tab and the approval answers", () => {
		const keys = (a: keyof typeof ACTIONS) => DEFAULT_KEY_BINDINGS.keys[a];
		expect(keys("interrupt")).toEqual(["ctrl+c"]);
		expect(keys("quit")).toEqual(["ctrl+d"]);
		expect(keys("externalEditor")).toEqual(["ctrl+g"]);
		expect(keys("rewind")).toEqual(["escape escape"]);
		expect(keys("cycleMode")).toEqual(["shift+tab"]);
		expect([keys("approvalAllow"), keys("approvalAlways"), keys("approvalDeny"), keys("approvalDenyAndStop")]).toEqual([
			["y"],
			["a"],
			["n"],
			["escape"],
		]);
		// One Enter for both states: the session prompts or steers.
		expect(ACTION_NAMES).not.toContain("steer");
	});

	it("writes keys one way whatever the spelling", () => {
		expect(parseKey("Ctrl+Shift+Tab")).toEqual({ key: "ctrl+shift+tab" });
		expect(parseKey("shift+ctrl+tab")).toEqual({ key: "ctrl+shift+tab" });
		expect(parseKey("Option+Return")).toEqual({ key: "alt+enter" });
		expect(parseKey("Esc  esc")).toEqual({ key: "escape escape" });
		expect(parseKey("Y")).toEqual({ key: "shift+y" });
		expect(parseKey("Ctrl+S")).toEqual({ key: "ctrl+s" });
		expect(parseKey("ctrl++")).toEqual({ key: "ctrl++" });
	});

	it("names what is wrong with a key", () => {
		expect(parseKey("hyper+x")).toEqual({ error: '"hyper" is not a modifier (ctrl, alt, shift)' });
		expect(parseKey("ctrl+enterr")).toMatchObject({ error: expect.stringMatching(/^"enterr" is not a key name/) });
		expect(parseKey("a b c")).toEqual({ error: "a key is one combo, or two separated by a space" });
		expect(parseKey("")).toEqual({ error: "a key is one combo, or two separated by a space" });
	});

	it("rejects one key for two actions of contexts active together, and allows it across modal contexts", () => {
		expect(buildKeyBindings({ redraw: ["ctrl+o"] })).toEqual({
			errors: ['"ctrl+o" is bound to both "redraw" and "toggleToolOutput" (editor)'],
		});
		// busy (abort) and editor are active together while a run is.
		expect(buildKeyBindings({ newline: ["escape"] })).toEqual({
			errors: ['"escape" is bound to both "newline" and "abort" (editor + busy)'],
		});
		// The picker and the approval prompt own their keys; Enter there is no conflict with the input's.
		expect(buildKeyBindings({ pickerPick: ["enter"], approvalSelect: ["enter"] })).toHaveProperty("bindings");
	});

	it("an override replaces the action's defaults; [] unbinds it", () => {
		const built = buildKeyBindings({ submit: ["ctrl+s"], toggleToolOutput: [] });
		if (!("bindings" in built)) throw new Error(built.errors.join("; "));
		expect(built.bindings.keys.submit).toEqual(["ctrl+s"]);
		expect(built.bindings.byContext.editor.get("enter")).toBeUndefined();
		expect(built.bindings.byContext.editor.get("ctrl+s")).toBe("submit");
		expect(built.bindings.keys.toggleToolOutput).toEqual([]);
	});
});
