// Opens a web page the user agreed to (URL-mode elicitation) with the sign-in's browser opener
// (auth/browser.ts: `$BROWSER`, else `xdg-open` / `open`; no shell; the environment without
// credentials). Only http(s) URLs are opened. The caller also prints the URL, for an SSH session where
// no browser can open.
import { openBrowser } from "./auth/browser.js";

type Env = Record<string, string | undefined>;

/** Starts the browser detached; resolves false when it could not start or the URL is not http(s). */
export function openUrl(url: string, env: Env): Promise<boolean> {
	const { protocol } = new URL(url);
	if (protocol !== "https:" && protocol !== "http:") return Promise.resolve(false);
	return openBrowser(url, env);
}
