// What an HTTP error line says besides the status: where the request went (host and path, never the
// query or credentials in the URL) and, for a 404 on a path Rudder calls, the likely set-up mistake,
// as Codex's error lines do. Pure functions of the URL.

/** `host[:port]/path` of `url`; the URL as given when it does not parse. */
export function whereTo(url: string): string {
	try {
		const u = new URL(url);
		return `${u.host}${u.pathname}`;
	} catch {
		return url.split("?")[0];
	}
}

/** The API paths Rudder POSTs to, under a base URL that normally ends in a version (`/v1`). */
const OPENAI_PATHS = ["/chat/completions", "/responses"] as const;
const VERSION_SEGMENT = /\/v\d[^/]*$/;

/** For a 404: a sentence saying what to change, or "" when the path is not one Rudder knows. */
export function notFoundHint(url: string): string {
	let u: URL;
	try {
		u = new URL(url);
	} catch {
		return "";
	}
	const path = u.pathname.replace(/\/+$/, "");
	const apiPath = OPENAI_PATHS.find((p) => path.endsWith(p));
	if (!apiPath) return "";
	const base = path.slice(0, -apiPath.length);
	const hints: string[] = [];
	if (!VERSION_SEGMENT.test(base)) {
		hints.push(`the base URL may be missing /v1: try "baseUrl": "${u.origin}${base}/v1" in models.json (or OPENAI_BASE_URL)`);
	}
	if (apiPath === "/responses") {
		hints.push(
			'if this server speaks chat completions, set "api": "openai-completions" for it in models.json, or OPENAI_API=chat with OPENAI_BASE_URL',
		);
	}
	return hints.length > 0 ? ` ${capitalize(hints.join("; "))}.` : "";
}

function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
