// Opens a URL in the user's browser: `$BROWSER` when set (a command, its words split on spaces, the URL
// added as the last argument; no shell), else `xdg-open` (Linux) or `open` (macOS). The caller prints
// the URL as well, for SSH sessions where no browser can open. Never waits for the browser; the browser
// gets the environment without credentials (API keys, tokens).
import { spawn } from "node:child_process";
import { childEnv } from "../../../safety/child-env.js";

type Env = Record<string, string | undefined>;

/** The command that would open `url`, or undefined when there is none to try. */
export function browserCommand(url: string, env: Env, platform: NodeJS.Platform = process.platform): [string, string[]] | undefined {
	const configured = env.BROWSER?.trim();
	if (configured) {
		const [file, ...args] = configured.split(/\s+/);
		return [file, [...args, url]];
	}
	if (platform === "darwin") return ["open", [url]];
	if (platform === "win32") return ["rundll32", ["url.dll,FileProtocolHandler", url]];
	return ["xdg-open", [url]];
}

/** Starts the browser, detached and silent; resolves false when it could not be started. */
export function openBrowser(url: string, env: Env = process.env): Promise<boolean> {
	const command = browserCommand(url, env);
	if (!command) return Promise.resolve(false);
	return new Promise((resolve) => {
		try {
			const child = spawn(command[0], command[1], { stdio: "ignore", detached: true, env: childEnv(env) });
			child.once("error", () => resolve(false));
			child.once("spawn", () => {
				child.unref();
				resolve(true);
			});
		} catch {
			resolve(false);
		}
	});
}
