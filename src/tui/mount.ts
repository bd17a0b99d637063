// Mounts the Ink app on the terminal, and the yes/no prompts that come before it. Bracketed paste is
// switched on for the app's lifetime so a pasted newline can never submit; the frame writer and the
// reflow guard wrap stdout's write while it is mounted. src/modes/interactive.ts decides when (the
// run's lifecycle); this file owns how the terminal is set up and given back.
import { render } from "ink";
import { createElement, type ReactElement } from "react";
import { paceReadsBy } from "../ai/read-pace.js";
import { configFile } from "../config/paths.js";
import { formatConfigProblem, reportConfigProblem, takeReportedConfigProblems } from "../config/problems.js";
import type { McpTrustRequest } from "../extensions/mcp/manager.js";
import type { Widening } from "../permissions/resolve.js";
import type { AgentSessionApi } from "../session/types.js";
import { App } from "./app/App.js";
import { frameClock } from "./frame/frame-clock.js";
import { directWrite, frameWatch, installFrameWrites, installReflowGuard } from "./ink/index.js";
import { loadKeyBindings } from "./keys/keybindings-file.js";
import { enableKeyboardModes } from "./keys/terminal-modes.js";
import { hooksTrust, mcpTrust, settingsTrust, TrustPrompt } from "./overlays/TrustPrompt.js";
import { warmTextMeasuring } from "./warm-up/warm-up.js";

export interface MountOptions {
	initialPrompt?: string;
	notices?: string[];
	/** Open the session picker at start (`rudder -r`). */
	openResumePicker?: boolean;
}

export interface MountedApp {
	/** Resolves once the user quits (/quit, Ctrl+D on an empty input, Ctrl+C twice) or Ink exits. */
	exited: Promise<void>;
	/** The code the app quit with (0 until it quits). */
	exitCode(): number;
	/** Unmounts the app and gives the terminal back as it was. */
	unmount(): void;
}

/** After the first frame, before a user is likely to press anything (src/tui/warm-up/warm-up.ts). */
const WARM_UP_MS = 200;

const BRACKETED_PASTE_ON = "\x1b[?2004h";
const BRACKETED_PASTE_OFF = "\x1b[?2004l";

export function mountApp(session: AgentSessionApi, options: MountOptions = {}): MountedApp {
	const stdout = process.stdout;
	let exitCode = 0;
	let resolveExit!: () => void;
	const exited = new Promise<void>((resolve) => {
		resolveExit = resolve;
	});
	const onExit = (code: number) => {
		exitCode = code;
		resolveExit();
	};
	// Socket reads resume at the app's frame boundaries: the frame for what a read brought is drawn in
	// the same wake-up (src/ai/read-pace.ts).
	const restorePace = paceReadsBy(frameClock);
	stdout.write(BRACKETED_PASTE_ON);
	// Shift+Enter as its own key where the terminal can send it (restored at exit and on a crash).
	const restoreKeyboard = stdout.isTTY ? enableKeyboardModes(stdout) : () => {};
	// One wrapper of stdout.write: the frame writer sends each frame as one write and hands every write
	// to the reflow guard's watch, which looks for the last frame only when the terminal narrows.
	const frames = frameWatch();
	const removeFrameWrites = stdout.isTTY ? installFrameWrites(stdout, directWrite(stdout), frames.seen) : () => {};
	const removeReflowGuard = stdout.isTTY ? installReflowGuard(stdout, frames) : () => {};
	const restore = () => stdout.write(BRACKETED_PASTE_OFF);
	process.once("exit", restore);
	const keys = loadKeyBindings(configFile("keybindings"));
	for (const problem of keys.problems) reportConfigProblem(problem);
	const instance = render(
		createElement(App, {
			session,
			onExit,
			notices: options.notices,
			keyBindings: keys.bindings,
			configWarnings: takeReportedConfigProblems().map(formatConfigProblem),
			initialPrompt: options.initialPrompt,
			openResumePicker: options.openResumePicker,
			notifications: session.settings.notifications,
			// The welcome panel on every start: the model in use (or, on the offline demo, how to get a real
			// one); /help shows it again.
			welcome: true,
		}),
		// Ink's console patch would redraw around every console call; Ctrl+C is ours (clear, twice quits).
		// Streaming frames are coalesced by use-session.ts; Ink's own throttle (30 fps by default) would
		// only hold back keystrokes behind them (measured: echo 59 ms → 6.5 ms at 200 tok/s). maxFps 0:
		// every commit drawn at once, without the two timers (wake-ups) Ink's throttles set per frame
		// (src/tui/ink/patches.ts).
		// Ink's incrementalRendering is off on purpose: with <Static> writes between frames it left stale
		// copies of the live region on screen (caught by test/e2e/tmux.test.ts).
		{ patchConsole: false, exitOnCtrlC: false, maxFps: 0 },
	);
	// Off the first frame's path, before a user is likely to press anything.
	const warm = setTimeout(warmTextMeasuring, WARM_UP_MS);
	return {
		exited: Promise.race([exited, instance.waitUntilExit()]).then(() => {}),
		exitCode: () => exitCode,
		unmount() {
			clearTimeout(warm);
			instance.unmount();
			removeReflowGuard();
			removeFrameWrites();
			process.off("exit", restore);
			restore();
			restoreKeyboard();
			restorePace();
		},
	};
}

/** The MCP trust prompt, on its own before the app mounts; resolves with the answer. */
export function askMcpTrust(request: McpTrustRequest): Promise<boolean> {
	return askBeforeApp((onAnswer) => createElement(TrustPrompt, { question: mcpTrust(request), onAnswer }));
}

/** The project's hooks trust prompt (each command in full), before the session starts. */
export function askHooksTrust(hooks: Parameters<typeof hooksTrust>[0]): Promise<boolean> {
	return askBeforeApp((onAnswer) => createElement(TrustPrompt, { question: hooksTrust(hooks), onAnswer }));
}

/** The project trust prompt (its settings would widen permissions), before the app mounts. */
export function askTrust(widenings: readonly Widening[]): Promise<boolean> {
	return askBeforeApp((onAnswer) => createElement(TrustPrompt, { question: settingsTrust(widenings), onAnswer }));
}

/** Renders a yes/no prompt alone, erases it once answered (the app draws where it was), and resolves with the answer. */
async function askBeforeApp(prompt: (onAnswer: (yes: boolean) => void) => ReactElement): Promise<boolean> {
	let answer = false;
	let done!: () => void;
	const answered = new Promise<void>((resolve) => {
		done = resolve;
	});
	const onAnswer = (yes: boolean) => {
		answer = yes;
		done();
	};
	const instance = render(prompt(onAnswer), { patchConsole: false, exitOnCtrlC: true });
	try {
		await Promise.race([answered, instance.waitUntilExit()]);
	} finally {
		instance.clear();
		instance.unmount();
	}
	return answer;
}
