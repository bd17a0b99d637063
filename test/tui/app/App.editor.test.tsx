// Ctrl+G edits the input in $VISUAL / $EDITOR: a real editor process (a shell script) gets the text in
// a 0600 file, the terminal's keyboard modes are popped before it runs and pushed again after, and the
// saved text comes back to the input; no editor or a failing one is one notice, the input unchanged.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KITTY_POP, KITTY_PUSH } from "../../../src/tui/keys/terminal-modes.js";
import { mountApp } from "./mount-app.js";

const CTRL_G = "\x07";
let dir: string;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rudder-editor-test-"));
});
afterEach(() => {
	vi.unstubAllEnvs();
	rmSync(dir, { recursive: true, force: true });
});

/** A shell script as the editor: records the file's mode, path and text, then saves `replacement`. */
function fakeEditor(replacement: string, exitCode = 0): string {
	const script = join(dir, "editor.sh");
	writeFileSync(
		script,
		`#!/bin/sh\nstat -c %a "$1" > "${dir}/mode"\nprintf '%s' "$1" > "${dir}/path"\ncat "$1" > "${dir}/before"\nprintf '${replacement}\\n' > "$1"\nexit ${exitCode}\n`,
	);
	chmodSync(script, 0o700);
	return script;
}

describe("App Ctrl+G", () => {
	it("opens $VISUAL on the input in a 0600 file with the keyboard modes popped, and brings the saved text back", async () => {
		vi.stubEnv("VISUAL", fakeEditor("edited in the editor"));
		const { app, frame, type } = await mountApp();
		await type("draft text");
		const writesBefore = app.frames.length;
		await type(CTRL_G);
		await vi.waitFor(() => expect(frame()).toContain("› edited in the editor"));
		expect(readFileSync(join(dir, "before"), "utf8")).toBe("draft text");
		expect(readFileSync(join(dir, "mode"), "utf8").trim()).toBe("600");
		expect(existsSync(readFileSync(join(dir, "path"), "utf8"))).toBe(false);
		const writes = app.frames.slice(writesBefore).join("");
		expect(writes.indexOf(KITTY_POP)).toBeGreaterThanOrEqual(0);
		expect(writes.indexOf(KITTY_PUSH)).toBeGreaterThan(writes.indexOf(KITTY_POP));
	});

	it("$EDITOR when $VISUAL is not set; a failing editor leaves the input as it was with one notice", async () => {
		vi.stubEnv("VISUAL", "");
		vi.stubEnv("EDITOR", fakeEditor("not taken", 3));
		const { frame, type } = await mountApp();
		await type("keep me");
		await type(CTRL_G);
		await vi.waitFor(() => expect(frame()).toContain("exited with 3; the input is unchanged"));
		expect(readFileSync(join(dir, "before"), "utf8")).toBe("keep me");
		expect(frame()).toContain("› keep me");
	});

	it("without $VISUAL and $EDITOR and with no vi or nano on PATH, says how to set one", async () => {
		vi.stubEnv("VISUAL", "");
		vi.stubEnv("EDITOR", "");
		vi.stubEnv("PATH", join(dir, "empty-bin"));
		const { frame, type } = await mountApp();
		await type("text");
		await type(CTRL_G);
		await vi.waitFor(() => expect(frame()).toContain("No editor: set $VISUAL or $EDITOR"));
		expect(frame()).toContain("vi and nano are not on PATH");
		expect(frame()).toContain("› text");
	});

	it("without $VISUAL and $EDITOR falls back to vi, else nano, found on PATH", async () => {
		vi.stubEnv("VISUAL", "");
		vi.stubEnv("EDITOR", "");
		const bin = join(dir, "bin");
		mkdirSync(bin);
		// Shell builtins only: PATH holds nothing but this folder.
		const editor = (name: string) => {
			writeFileSync(join(bin, name), `#!/bin/sh\nprintf 'from ${name}\\n' > "$1"\n`);
			chmodSync(join(bin, name), 0o700);
		};
		// A vi that is a folder, not a program, is passed over: nano is taken.
		mkdirSync(join(bin, "vi"));
		editor("nano");
		vi.stubEnv("PATH", bin);
		const { frame, type } = await mountApp();
		await type("draft");
		await type(CTRL_G);
		await vi.waitFor(() => expect(frame()).toContain("› from nano"));
		// A vi on PATH comes first.
		rmSync(join(bin, "vi"), { recursive: true });
		editor("vi");
		await type(CTRL_G);
		await vi.waitFor(() => expect(frame()).toContain("› from vi"));
	});
});
