import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatConfigProblem } from "../../../src/config/problems.js";
import { DEFAULT_KEY_BINDINGS } from "../../../src/tui/keys/keybindings.js";
import { loadKeyBindings, parseKeyBindings } from "../../../src/tui/keys/keybindings-file.js";

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

/** The problems as the user sees them: one line each. */
const lines = (text: string) => load(text).problems.map(formatConfigProblem);

describe("keybindings.json", () => {
	it("is optional: no file, the defaults and no problem", () => {
		expect(loadKeyBindings(file)).toEqual({ bindings: DEFAULT_KEY_BINDINGS, problems: [] });
	});

	it("keys named like Object's properties are keys, not a crash: one line each, the rest kept", () => {
		for (const name of ["constructor", "toString", "__proto__", "valueOf"]) {
			const { problems } = load(JSON.stringify({ submit: name, newline: `ctrl+${name}` }));
			expect(problems.length).toBeGreaterThan(0);
			expect(problems.map(formatConfigProblem).every((line) => line.startsWith(`${file}: `) && !line.includes("\n"))).toBe(true);
		}
	});

	it("overrides actions with one key or a list", () => {
		const { bindings, problems } = load('{ "submit": "Ctrl+S", "newline": ["enter", "shift+enter"] }');
		expect(problems).toEqual([]);
		expect(bindings.keys.submit).toEqual(["ctrl+s"]);
		expect(bindings.keys.newline).toEqual(["enter", "shift+enter"]);
		expect(bindings.keys.followUp).toEqual(["alt+enter"]);
	});

	it("an unknown action names the file and the entry and suggests the closest action, never the whole list", () => {
		expect(lines('{ "submitt": "ctrl+s" }')).toEqual([
			`${file}: submitt: not an action (did you mean "submit"?); the other entries are kept`,
		]);
		expect(lines('{ "externalEdtor": [] }')[0]).toContain('(did you mean "externalEditor"?)');
		const far = lines('{ "launchRockets": "ctrl+r" }');
		expect(far).toEqual([`${file}: launchRockets: not an action; the other entries are kept`]);
		expect(far[0]).not.toContain("followUp");
	});

	it("every bad entry is reported, and the good entries are kept", () => {
		const loaded = load(
			JSON.stringify({
				submitt: "ctrl+s",
				redraw: ["ctrl+l", "ctrl+elle"],
				quit: 12,
				newline: "ctlr+j",
				followUp: "ctrl+q",
				externalEditor: "ctrl+o",
				abort: "ctrl+x",
			}),
		);
		expect(loaded.problems.map(formatConfigProblem)).toEqual([
			`${file}: submitt: not an action (did you mean "submit"?); the other entries are kept`,
			`${file}: redraw: "ctrl+elle": "elle" is not a key name (a character, or one of enter, escape, tab, backspace, delete, up, down, left, right, home, end, pageup, pagedown, space); its default keys stay, the other entries are kept`,
			`${file}: quit: expected a key such as "ctrl+s", or a list of keys; its default keys stay, the other entries are kept`,
			`${file}: newline: "ctlr+j": "ctlr" is not a modifier (ctrl, alt, shift) (did you mean "ctrl"?); its default keys stay, the other entries are kept`,
			`${file}: externalEditor: "ctrl+o" is bound to both "toggleToolOutput" and "externalEditor" (editor); its default keys stay, the other entries are kept`,
		]);
		expect(loaded.bindings.keys.followUp).toEqual(["ctrl+q"]);
		expect(loaded.bindings.keys.abort).toEqual(["ctrl+x"]);
		for (const action of ["redraw", "quit", "newline", "externalEditor"] as const) {
			expect(loaded.bindings.keys[action], action).toEqual(DEFAULT_KEY_BINDINGS.keys[action]);
		}
	});

	it("a key names a close key name when it is a typo", () => {
		expect(lines('{ "redraw": "ctrl+enterr" }')[0]).toContain('"enterr" is not a key name (a character, or one of enter,');
		expect(lines('{ "redraw": "ctrl+enterr" }')[0]).toContain('(did you mean "enter"?)');
	});

	it("two actions on one key: the entry that clashes is dropped, unless a later entry moves the other away", () => {
		expect(lines('{ "externalEditor": "ctrl+o" }')).toEqual([
			`${file}: externalEditor: "ctrl+o" is bound to both "toggleToolOutput" and "externalEditor" (editor); its default keys stay, the other entries are kept`,
		]);
		const moved = load('{ "externalEditor": "ctrl+o", "toggleToolOutput": "ctrl+t" }');
		expect(moved.problems).toEqual([]);
		expect(moved.bindings.keys.externalEditor).toEqual(["ctrl+o"]);
		// Two entries that clash with each other: the first is kept, the second named.
		expect(lines('{ "redraw": "ctrl+t", "toggleToolOutput": "ctrl+t" }')).toEqual([
			`${file}: toggleToolOutput: "ctrl+t" is bound to both "redraw" and "toggleToolOutput" (editor); its default keys stay, the other entries are kept`,
		]);
	});

	it("bad JSON or a non-object says so, with the file, and the defaults are used", () => {
		const broken = load("{ submit: 1 }");
		expect(broken.bindings).toBe(DEFAULT_KEY_BINDINGS);
		expect(broken.problems.map(formatConfigProblem)[0]).toMatch(
			new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: not valid JSON \\(.*\\); using the default keys$`),
		);
		expect(lines('["submit"]')).toEqual([`${file}: expected an object of action names to a key or a list of keys; using the default keys`]);
	});

	it("an unreadable file is a problem, not a crash", () => {
		writeFileSync(file, "{}");
		chmodSync(file, 0o000);
		const loaded = loadKeyBindings(file);
		chmodSync(file, 0o600);
		// root reads anything; elsewhere the file cannot be opened.
		if (process.getuid?.() === 0) expect(loaded.problems).toEqual([]);
		else expect(loaded.problems[0].problem).toMatch(/cannot be read/);
	});

	it("parses text without touching the disk", () => {
		expect(parseKeyBindings('{ "quit": [] }', "k.json")).toHaveProperty("bindings.keys.quit", []);
	});
});
