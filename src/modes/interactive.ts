// The interactive mode: mounts the Ink app on the terminal and resolves with the exit code once the
// user quits (/quit, Ctrl+D on an empty input, Ctrl+C twice). Bracketed paste is switched on for the
// app's lifetime so a pasted newline can never submit.
import { render } from "ink";
import { createElement, type ReactElement } from "react";
import { App } from "../../components/App.js";
import { directWrite, installFrameWrites } from "../../components/ink/frame-writes.js";
import { frameWatch, installReflowGuard } from "../../components/ink/reflow-guard.js";
import { loadKeyBindings } from "../../components/keybindings-file.js";
import { warmTextMeasuring } from "../../components/startup/warm-up.js";
import { mcpTrust, settingsTrust, TrustPrompt } from "../../components/TrustPrompt.js";
import { enableKeyboardModes } from "../../components/terminal-modes.js";
import { isDemoModel } from "../ai/constants.js";
import { configFile } from "../config/paths.js";
import { formatConfigProblem, reportConfigProblem, takeReportedConfigProblems } from "../config/problems.js";
import type { McpTrustRequest } from "../extensions/mcp/manager.js";
import type { Widening } from "../permissions/resolve.js";
import type { AgentSessionApi } from "../session/types.js";
import { whenInputRests } from "./input-rest.js";

export interface InteractiveOptions {
	initialPrompt?: string;
	notices?: string[];
	/** Open the session picker at start (`rudder -r`). */
	openResumePicker?: boolean;
	/** Once the first screen is drawn and the keyboard rests (bin/rudder.js writes its code cache then). */
	afterFirstScreen?: () => void;
}

/** Quiet after the first frame before `afterFirstScreen` (the text warm-up runs at 200 ms). */
const AFTER_FIRST_SCREEN_MS = 300;

const BRACKETED_PASTE_ON = "\x1b[?2004h";
const BRACKETED_PASTE_OFF = "\x1b[?2004l";

export async function runInteractive(session: AgentSessionApi, options: InteractiveOptions = {}): Promise<number> {
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
	const trust = session.mcpTrustRequest();
	if (trust) session.answerMcpTrust(await askMcpTrust(trust));
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
	// The welcome panel at start on the offline demo (it says how to get a real model); /help shows it again.
	const welcome = isDemoModel(session.getState().model);
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
			welcome,
		}),
		// Ink's console patch would redraw around every console call; Ctrl+C is ours (clear, twice quits).
		// Streaming frames are coalesced by use-session.ts; Ink's own throttle (30 fps by default) would
		// only hold back keystrokes behind them (measured: echo 59 ms → 6.5 ms at 200 tok/s). maxFps 0:
		// every commit drawn at once, without the two timers (wake-ups) Ink's throttles set per frame
		// (components/ink/patches.ts).
		// Ink's incrementalRendering is off on purpose: with <Static> writes between frames it left stale
		// copies of the live region on screen (caught by test/e2e/tmux.test.ts).
		{ patchConsole: false, exitOnCtrlC: false, maxFps: 0 },
	);
	// MCP servers start once the first frame is on screen and the keyboard rests: neither launch nor a
	// keystroke waits for them. A prompt sent sooner starts them itself (the session waits for them).
	const cancelMcpStart = whenInputRests(process.stdin, () => session.startMcpServers("interactive"));
	// Off the first frame's path, before a user is likely to press anything (components/startup/warm-up.ts).
	const warm = setTimeout(warmTextMeasuring, 200);
	// After the warm-up, so the cache holds what it compiled; long before a launch is likely to end.
	const cancelFirstScreen = options.afterFirstScreen
		? whenInputRests(process.stdin, options.afterFirstScreen, { restMs: AFTER_FIRST_SCREEN_MS })
		: () => {};
	try {
		await Promise.race([exited, instance.waitUntilExit()]);
		// Quitting mid-run must not leave a model request or a tool running behind the prompt.
		if (session.getState().isStreaming) {
			session.abort();
			await session.waitForIdle();
		}
	} finally {
		cancelMcpStart();
		cancelFirstScreen();
		clearTimeout(warm);
		instance.unmount();
		removeReflowGuard();
		removeFrameWrites();
		process.off("exit", restore);
		restore();
		restoreKeyboard();
	}
	return exitCode;
}

/** The MCP trust prompt, on its own before the app mounts; resolves with the answer. */
function askMcpTrust(request: McpTrustRequest): Promise<boolean> {
	return askBeforeApp((onAnswer) => createElement(TrustPrompt, { question: mcpTrust(request), onAnswer }));
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
