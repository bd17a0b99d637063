// The App with a user's key table: hints on screen name the user's keys, the keys act, and a bad
// keybindings.json is one warning line while the defaults work.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { formatConfigProblem } from "../../../src/config/problems.js";
import { keyLabel } from "../../../src/tui/keys/key-hints.js";
import { type Action, buildKeyBindings, DEFAULT_KEY_BINDINGS, type KeyOverrides } from "../../../src/tui/keys/keybindings.js";
import { parseKeyBindings } from "../../../src/tui/keys/keybindings-file.js";
import { mountApp } from "./mount-app.js";

async function mount(overrides: KeyOverrides = {}) {
	const built = buildKeyBindings(overrides);
	if (!("bindings" in built)) throw new Error(built.errors.join("; "));
	return mountApp({ keyBindings: built.bindings });
}

describe("App with keybindings.json", () => {
	it("the working line names the user's keys, and those keys act", async () => {
		const { session, frame, type } = await mount({ submit: ["ctrl+s"], abort: ["ctrl+x"], newline: ["enter"] });
		await type("one");
		await type("\r");
		expect(frame()).toContain("› one");
		await type("\x13");
		await vi.waitFor(() => expect(frame()).toContain("working · Ctrl+S steers · Alt+Enter queues · Ctrl+X stops"));
		await type("\x18");
		expect(session.calls.some((c) => c.method === "abort")).toBe(true);
	});

	it("the picker's hint follows the table", async () => {
		const { frame, type } = await mount({ pickerClose: ["ctrl+q"] });
		await type("/model");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Pick a model (↑/↓, Enter; Ctrl+Q cancels)"));
		await type("\x11");
		await vi.waitFor(() => expect(frame()).not.toContain("Pick a model"));
	});

	it("a collapsed tool result names the expand key, or none when it is unbound", async () => {
		const run = async (overrides: KeyOverrides) => {
			const { session, frame, type } = await mount(overrides);
			await type("go");
			await type("\r");
			session.startTool("t1", "bash", { command: "seq 9" });
			session.endTool("t1", "bash", "1\n2\n3\n4\n5\n6\n7\n8\n9");
			await vi.waitFor(() => expect(frame()).toContain("more lines"));
			return frame();
		};
		expect(await run({ toggleToolOutput: ["ctrl+t"] })).toContain("… 5 more lines (Ctrl+T to expand)");
		expect(await run({ toggleToolOutput: [] })).not.toContain("to expand");
	});

	it("each bad entry is one warning line; the good entries act and the bad one keeps its default keys", async () => {
		const file = "/home/u/.config/rudder/keybindings.json";
		const loaded = parseKeyBindings('{ "submitt": "ctrl+s", "followUp": "ctrl+s", "redraw": "ctrl+elle" }', file);
		const { frame, type, session } = await mountApp({
			keyBindings: loaded.bindings,
			configWarnings: loaded.problems.map(formatConfigProblem),
		});
		await vi.waitFor(() => expect(frame()).toContain(`${file}: submitt: not an action (did you mean "submit"?)`));
		expect(frame()).toContain(`${file}: redraw: "ctrl+elle": "elle" is not a key name`);
		await type("hi");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("› hi"));
		await type("later");
		await type("\x13");
		await vi.waitFor(() =>
			expect(session.calls.filter((c) => c.method === "submit").map((c) => c.args)).toContainEqual(["later", { as: "followUp" }]),
		);
	});
});

describe("README's key list", () => {
	it("names the default key of every action it describes", () => {
		const readme = readFileSync(join(import.meta.dirname, "..", "..", "..", "README.md"), "utf8");
		const keys = readme.slice(readme.indexOf("Keys in the app:"), readme.indexOf("`/` completes commands"));
		const described: Action[] = ["submit", "followUp", "abort", "newline", "toggleToolOutput", "interrupt", "quit", "redraw"];
		for (const action of described) expect(keys, action).toContain(`**${keyLabel(DEFAULT_KEY_BINDINGS, action)}**`);
		expect(keys).toContain("keybindings.json");
	});
});
