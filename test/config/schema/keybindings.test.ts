// keybindings.json with prototype-property names as actions or keys: one problem per entry, the rest
// kept. (The UI's parseKeyBindings threw `a.toLowerCase is not a function` on {"submit": "constructor"}.)
import { describe, expect, it } from "vitest";
import { checkKeyBindingsJson } from "../../../src/config/schema/keybindings.js";
import { PROTOTYPE_KEYS } from "./crafted-keys.js";

const ACTIONS = ["submit", "newline", "externalEditor"];

describe("keybindings.json with prototype-property keys", () => {
	// The UI looks keys up lower-cased: "valueOf" becomes "valueof", which no table inherits.
	const LOWER_CASE_PROTOTYPE_KEYS = PROTOTYPE_KEYS.filter((key) => key === key.toLowerCase());

	it.each(PROTOTYPE_KEYS)("%s as an action is one problem; the good entries are kept", (key) => {
		const { entries, problems } = checkKeyBindingsJson(JSON.parse(`{"${key}": "ctrl+s", "submit": "ctrl+e"}`), "k.json", ACTIONS);
		expect(problems.map((p) => [p.field, p.problem])).toEqual([
			[key, expect.stringMatching(/^not an action.*; the other entries are kept$/)],
		]);
		expect(Object.entries(entries)).toEqual([["submit", ["ctrl+e"]]]);
	});

	it.each(LOWER_CASE_PROTOTYPE_KEYS)("%s as an action, a key or a modifier is one problem each; the good entry is kept", (key) => {
		const json = JSON.parse(`{"${key}": "ctrl+s", "submit": "${key}", "newline": ["enter", "${key}+x"], "externalEditor": "ctrl+e"}`);
		const { entries, problems } = checkKeyBindingsJson(json, "keybindings.json", ACTIONS);
		expect(problems.map((p) => [p.field, p.problem])).toEqual([
			[key, expect.stringMatching(/^not an action.*; the other entries are kept$/)],
			["submit", `"${key}": "${key}" is not a key name; its default keys stay, the other entries are kept`],
			["newline", `"${key}+x": "${key}" is not a key name; its default keys stay, the other entries are kept`],
		]);
		expect(Object.entries(entries)).toEqual([["externalEditor", ["ctrl+e"]]]);
	});

	it("keeps good entries as written, rejects wrong shapes and suggests the nearest action", () => {
		const { entries, problems } = checkKeyBindingsJson(
			{ submitt: "x", newline: [1], submit: ["ctrl+s", "escape escape"] },
			"k.json",
			ACTIONS,
		);
		expect(problems.map((p) => p.problem)).toEqual([
			'not an action (did you mean "submit"?); the other entries are kept',
			'expected a key such as "ctrl+s", or a list of keys; its default keys stay, the other entries are kept',
		]);
		expect(entries.submit).toEqual(["ctrl+s", "escape escape"]);
		expect(checkKeyBindingsJson([], "k.json", ACTIONS).problems).toHaveLength(1);
	});
});
