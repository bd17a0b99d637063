// One pane on a private tmux server (its own socket, so a test never touches anyone else's sessions):
// run commands, type, and poll the screen until it shows what a test waits for.
import { execFileSync } from "node:child_process";

export function tmuxPane(socket: string, session: string) {
	const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
	const capture = () => tmux("capture-pane", "-p", "-t", session);
	/** Polls the screen until `predicate` holds; fails with the last capture. */
	async function waitForScreen(predicate: (screen: string) => boolean, what: string, timeoutMs = 30_000): Promise<string> {
		const deadline = Date.now() + timeoutMs;
		let screen = "";
		while (Date.now() < deadline) {
			screen = capture();
			if (predicate(screen)) return screen;
			await new Promise((r) => setTimeout(r, 100));
		}
		throw new Error(`screen never showed ${what}; last capture:\n${screen}`);
	}
	return {
		tmux,
		capture,
		/** The whole pane history, scrollback included. */
		captureAll: () => tmux("capture-pane", "-p", "-S", "-", "-t", session),
		sendText: (text: string) => tmux("send-keys", "-t", session, "-l", text),
		sendKey: (...keys: string[]) => tmux("send-keys", "-t", session, ...keys),
		waitForScreen,
	};
}
