import { render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PermissionMode, SessionState } from "../../../src/session/types.js";
import { FakeSession } from "../app/fake-session.js";

// Colours on, as in a terminal (chalk reads FORCE_COLOR when it loads), so the frame carries the escapes.
vi.hoisted(() => {
	process.env.FORCE_COLOR = "3";
});
const { Footer, footerText } = await import("../../../src/tui/status/Footer.js");

const SGR = "\x1b[";
const RED = `${SGR}31m`;
const BOLD = `${SGR}1m`;

function stateIn(mode: PermissionMode | undefined, extra: Partial<SessionState> = {}): SessionState {
	return { ...new FakeSession().getState(), permissionMode: mode, sandbox: "bwrap", ...extra };
}

let app: ReturnType<typeof render> | undefined;
afterEach(() => app?.unmount());

function frameOf(state: SessionState): string {
	app = render(<Footer state={state} />);
	return app.lastFrame() ?? "";
}

/** The escapes right before `word` in the frame (its style). */
const styleBefore = (frame: string, word: string): string => /((?:\x1b\[[0-9;]*m)*)$/.exec(frame.slice(0, frame.indexOf(word)))?.[1] ?? "";

describe("Footer", () => {
	it("shows yolo as a warning: red, bold and marked with ⚠", () => {
		const frame = frameOf(stateIn("yolo"));
		expect(frame).toContain("⚠ yolo");
		const style = styleBefore(frame, "⚠ yolo");
		expect(style).toContain(RED);
		expect(style).toContain(BOLD);
	});

	it("shows ask in its own colour, neither red nor bold nor dim, with no warning mark", () => {
		const frame = frameOf(stateIn("ask"));
		expect(frame).not.toContain("⚠");
		const style = styleBefore(frame, "ask");
		expect(style).toContain(`${SGR}32m`);
		expect(style).not.toContain(RED);
		expect(style).not.toContain(BOLD);
	});

	it("gives every mode a colour of its own", async () => {
		const { modeStyles } = await import("../../../src/tui/text/theme.js");
		const colours = Object.values(modeStyles).map((s) => s.color);
		expect(new Set(colours).size).toBe(colours.length);
	});

	it("keeps the text in order: folder, mode, sandbox, model, tokens, cost", () => {
		const state = stateIn("ask", { sandbox: "none" });
		expect(footerText(state, "/nowhere")).toBe("/work/project · ask · no sandbox · fake/fake-1 · ↑1.2k ↓345 · $0.012 · ctx 25%");
		expect(footerText(stateIn(undefined), "/nowhere")).toBe("/work/project · fake/fake-1 · ↑1.2k ↓345 · $0.012 · ctx 25%");
	});

	it("sanitises the folder name before the screen", () => {
		const frame = frameOf(stateIn("ask", { cwd: "/work/evil\x1b]0;owned\x07" }));
		expect(frame).not.toContain("\x1b]0;");
		expect(frame).not.toContain("\x07");
	});
});
