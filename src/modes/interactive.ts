// The interactive mode: mounts the Ink app (src/tui/mount.ts) and resolves with the exit code once
// the user quits (/quit, Ctrl+D on an empty input, Ctrl+C twice). This file owns the run's lifecycle
// around the app: the MCP trust question before it, MCP start-up and the first-screen hook once the
// keyboard rests, and a reply cut short on quitting.
import type { AgentSessionApi } from "../session/types.js";
import { askMcpTrust, mountApp } from "../tui/mount.js";
import { whenInputRests } from "./input-rest.js";

export { askTrust } from "../tui/mount.js";

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

export async function runInteractive(session: AgentSessionApi, options: InteractiveOptions = {}): Promise<number> {
	const trust = session.mcpTrustRequest();
	if (trust) session.answerMcpTrust(await askMcpTrust(trust));
	const app = mountApp(session, {
		initialPrompt: options.initialPrompt,
		notices: options.notices,
		openResumePicker: options.openResumePicker,
	});
	// MCP servers start once the first frame is on screen and the keyboard rests: neither launch nor a
	// keystroke waits for them. A prompt sent sooner starts them itself (the session waits for them).
	const cancelMcpStart = whenInputRests(process.stdin, () => session.startMcpServers("interactive"));
	// After the warm-up, so the cache holds what it compiled; long before a launch is likely to end.
	const cancelFirstScreen = options.afterFirstScreen
		? whenInputRests(process.stdin, options.afterFirstScreen, { restMs: AFTER_FIRST_SCREEN_MS })
		: () => {};
	try {
		await app.exited;
		// Quitting mid-run must not leave a model request or a tool running behind the prompt.
		if (session.getState().isStreaming) {
			session.abort();
			await session.waitForIdle();
		}
	} finally {
		cancelMcpStart();
		cancelFirstScreen();
		app.unmount();
	}
	return app.exitCode();
}
