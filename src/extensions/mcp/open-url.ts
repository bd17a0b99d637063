// Opens a web page the user agreed to (URL-mode elicitation): `$BROWSER` (its first entry, as a
// command without a shell), else `xdg-open` / `open`. The URL is passed as one argument, never
// through a shell, and only http(s) URLs are opened. The caller also prints the URL, for an SSH
// session where no browser can open.
import { spawn } from "node:child_process";

type Env = Record<string, string | undefined>;

export function browserCommand(env: Env, platform: NodeJS.Platform = process.platform): string {
	const browser = env.BROWSER?.split(":")[0]?.trim();
	if (browser) return browser;
	return platform === "darwin" ? "open" : "xdg-open";
}

/** Starts the browser detached; resolves false when it could not start (no browser here). */
export function openUrl(url: string, env: Env): Promise<boolean> {
	const { protocol } = new URL(url);
	if (protocol !== "https:" && protocol !== "http:") return Promise.resolve(false);
	return new Promise((resolve) => {
		try {
			const child = spawn(browserCommand(env), [url], { detached: true, stdio: "ignore", env: env as NodeJS.ProcessEnv });
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
