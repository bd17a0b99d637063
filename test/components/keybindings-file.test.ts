import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_KEY_BINDINGS } from "../../components/keybindings.js";
import { loadKeyBindings, parseKeyBindings } from "../../components/keybindings-file.js";

let dir: string;
let file: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rudder-keys-"));
	file = join(dir, "keybindings.json");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const load = (text: string) => {
	writeFileSync(file, text);
	return loadKeyBindings(file);
};

describe("keybindings.json", () => {
	it("is optional: no file, the defaults and no error", () => {
		expect(loadKeyBindings(file)).toEqual({ bindings: DEFAULT_KEY_BINDINGS });
	});

	it("overrides actions with one key or a list", () => {
		const { bindings, error } = load('{ "submit": "Ctrl+S", "newline": ["enter", "shift+enter"] }');
		expect(error).toBeUndefined();
		expect(bindings.keys.submit).toEqual(["ctrl+s"]);
		expect(bindings.keys.newline).toEqual(["enter", "shift+enter"]);
		expect(bindings.keys.followUp).toEqual(["alt+enter"]);
	});

	it("an unknown action: one line naming the file and the entry; the defaults stay", () => {
		const loaded = load('{ "submitt": "ctrl+s" }');
		expect(loaded.bindings).toBe(DEFAULT_KEY_BINDINGS);
		expect(loaded.error).toMatch(
			new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: "submitt" is not an action \\(the actions: submit, followUp, `),
		);
		expect(loaded.error).toMatch(/; using the default keys$/);
		expect(loaded.error).not.toContain("\n");
	});

	it("a key that does not parse names the action and the key", () => {
		expect(load('{ "redraw": ["ctrl+l", "ctrl+elle"] }').error).toBe(
			`${file}: "redraw": "ctrl+elle": "elle" is not a key name (a character, or one of enter, escape, tab, backspace, delete, up, down, left, right, home, end, pageup, pagedown, space); using the default keys`,
		);
		expect(load('{ "redraw": 12 }').error).toBe(
			`${file}: "redraw": expected a key such as "ctrl+s", or a list of keys; using the default keys`,
		);
	});

	it("two actions on one key in one context is an error naming both", () => {
		expect(load('{ "externalEditor": "ctrl+o" }').error).toBe(
			`${file}: "ctrl+o" is bound to both "toggleToolOutput" and "externalEditor" (editor); using the default keys`,
		);
		// Moving the other action away first makes it valid.
		expect(load('{ "externalEditor": "ctrl+o", "toggleToolOutput": "ctrl+t" }').error).toBeUndefined();
	});

	it("bad JSON or a non-object says so, with the file", () => {
		expect(load("{ submit: 1 }").error).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: not valid JSON \\(`));
		expect(load('["submit"]').error).toBe(`${file}: expected an object of action names to a key or a list of keys; using the default keys`);
	});

	it("an unreadable file is an error, not a crash", () => {
		writeFileSync(file, "{}");
		chmodSync(file, 0o000);
		const loaded = loadKeyBindings(file);
		chmodSync(file, 0o600);
		// root reads anything; elsewhere the file cannot be opened.
		if (process.getuid?.() === 0) expect(loaded.error).toBeUndefined();
		else expect(loaded.error).toMatch(/cannot be read/);
	});

	it("parses text without touching the disk", () => {
		expect(parseKeyBindings('{ "quit": [] }', "k.json")).toHaveProperty("bindings.keys.quit", []);
	});
});
